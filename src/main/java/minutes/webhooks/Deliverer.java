package minutes.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import minutes.changes.ChangesApi;
import minutes.changes.Cursors;
import minutes.http.Json;
import minutes.keys.ApiKeys;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.store.ChangeHistory;
import minutes.store.Db;
import minutes.store.Sql;
import minutes.store.Times;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers each webhook's changes (decisions.md "Push"): what its key's /changes shows, in change
 * order, each POSTed as {@code meeting.upserted | meeting.deleted} with the Standard Webhooks
 * headers, the next one only once this one is delivered. A 2xx within {@link #TIMEOUT} delivers;
 * anything else is retried on {@link Retries}' schedule, 410 disables at once. The state is the
 * webhook's row, written after each attempt: a server killed mid-delivery leaves the change
 * undelivered, and whoever delivers next sends it again with the same {@code webhook-id}.
 *
 * <p>One server of those sharing a database delivers at a time: it holds the lease row
 * (webhook_lease) and renews it every {@link #RENEW_MS}; when it stops renewing, another takes
 * over after at most {@link #LEASE_MS}. Each webhook is sent to on a virtual thread of its own, so
 * a receiver that hangs delays only its own webhook, and never a request: nothing here runs on a
 * request's thread. Thread-safe.
 */
public final class Deliverer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Deliverer.class);
  /** decisions.md: a 2xx within 10 s delivers. */
  static final Duration TIMEOUT = Duration.ofSeconds(10);
  /** Another node takes over within this (and a poll) of the deliverer's death: issue 47 asks for 30 s. */
  static final long LEASE_MS = 15_000, RENEW_MS = 5_000;
  /** How often due webhooks are looked for: well inside issue 47's 2 s from an import to its delivery. */
  static final long POLL_MILLIS = 250;
  /** Changes one webhook sends in a round, before others get a look in. */
  static final int BATCH = 50;

  private final Db db;
  private final String node = UUID.randomUUID().toString();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT)
      .followRedirects(HttpClient.Redirect.NEVER).build();
  private final ExecutorService sending = Executors.newVirtualThreadPerTaskExecutor();
  private final Set<String> busy = ConcurrentHashMap.newKeySet();
  private final Thread thread = Thread.ofPlatform().name("webhook-deliverer").daemon().unstarted(this::loop);
  private final String userAgent;
  private volatile boolean closed;
  private long leaseUntil;
  private volatile boolean leader;
  /** Per webhook behind, when its oldest undelivered change committed (epoch ms). */
  private final Map<String, Long> oldest = new ConcurrentHashMap<>();
  private final AtomicLong delivered = new AtomicLong(), failed = new AtomicLong(), gone = new AtomicLong();

  public Deliverer(Db db, String version) {
    this.db = db;
    this.userAgent = "minutes-webhooks/" + version;
  }

  public Deliverer start() {
    thread.start();
    return this;
  }

  /** Deliveries since start, by outcome: delivered (2xx), failed (retried later), disabled (410, retries spent, key gone). */
  public long delivered() {
    return delivered.get();
  }

  public long failed() {
    return failed.get();
  }

  public long disabled() {
    return gone.get();
  }

  /** 1 while this server delivers (holds the lease). */
  public int leader() {
    return leader ? 1 : 0;
  }

  /** Seconds since the oldest change a webhook has yet to receive committed; 0 when every webhook is up to date. */
  public double oldestUndeliveredSeconds() {
    long now = System.currentTimeMillis();
    return oldest.values().stream().mapToLong(at -> now - at).max().orElse(0) / 1000.0;
  }

  private void loop() {
    while (!closed) {
      try {
        round();
      } catch (Exception e) {
        // A pending migration, a database away: webhooks wait, nothing else does.
        log.debug("webhook deliverer: {}", e.toString());
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException stopping) {
        return;
      }
    }
  }

  private void round() throws Exception {
    long now = System.currentTimeMillis();
    List<Webhooks.Webhook> live;
    try (Connection c = db.read()) {
      live = Webhooks.notDisabled(c);
    }
    // Without a webhook to deliver, a server leaves the lease (and the database) alone.
    if (live.isEmpty() || !lease(now)) {
      oldest.clear();
      return;
    }
    oldest.keySet().retainAll(live.stream().map(Webhooks.Webhook::id).toList()); // deleted, disabled
    for (Webhooks.Webhook w : live) {
      if (w.nextAttemptMs() <= now && busy.add(w.id())) {
        sending.execute(() -> {
          try {
            deliver(w.id());
          } catch (Exception e) {
            log.warn("webhook {}: delivery round failed: {}", w.id(), e.toString());
          } finally {
            busy.remove(w.id());
          }
        });
      }
    }
  }

  /** Takes or renews the lease; true while this server holds it. */
  private boolean lease(long now) throws Exception {
    if (leader && leaseUntil - now > LEASE_MS - RENEW_MS) return true;
    try (Connection c = db.store().write()) {
      leader = new Sql("UPDATE webhook_lease SET holder = ?, until_ms = ? WHERE id = 1 AND (holder = ? OR until_ms < ?)",
          node, now + LEASE_MS, node, now).update(c) == 1;
    }
    if (leader) leaseUntil = now + LEASE_MS;
    return leader;
  }

  /** Sends webhook {@code id}'s next changes, up to {@link #BATCH}, stopping at the first not delivered. */
  private void deliver(String id) throws Exception {
    Webhooks.Webhook w;
    Principal key;
    ChangeHistory.State state;
    List<ChangesApi.Row> rows;
    try (Connection c = db.read()) {
      c.setAutoCommit(false);
      try {
        // Read again here: the round's copy may predate the last delivery's write.
        w = Webhooks.find(c, id).orElse(null);
        if (w == null || w.state().equals(Webhooks.DISABLED) || w.nextAttemptMs() > System.currentTimeMillis()) return;
        key = ApiKeys.live(c, w.keyId()).orElse(null);
        state = ChangeHistory.state(c);
        rows = key == null || w.deliveredThrough() < state.prunedThrough() || w.deliveredThrough() > state.newest()
            ? List.of() : ChangesApi.after(c, state, key, w.deliveredThrough(), BATCH).rows();
      } finally {
        c.rollback();
      }
    }
    if (key == null || !key.scopes().contains(Scope.MEETINGS_READ)) {
      disable(w, key == null ? "its key " + w.keyId() + " was revoked or deleted" : "its key lacks meetings:read");
      return;
    }
    if (w.deliveredThrough() < state.prunedThrough() || w.deliveredThrough() > state.newest()) {
      long to = w.deliveredThrough() > state.newest() ? state.newest() : state.prunedThrough();
      String why = to == state.newest() ? "the database was restored from an older backup: delivering from its newest change on"
          : "changes older than changes.retention_days were pruned before they were delivered: some were lost";
      log.warn("webhook {}: {}", w.id(), why);
      try (Connection c = db.store().write()) {
        Webhooks.skipTo(c, w.id(), to, why);
      }
      return;
    }
    if (rows.isEmpty()) {
      oldest.remove(w.id());
      // Nothing for its key up to the newest change: it stands there, or a key that sees little
      // would stay behind until retention pruned past it and it seemed to have lost changes.
      if (state.newest() > w.deliveredThrough()) {
        try (Connection c = db.store().write()) {
          Webhooks.caughtUp(c, w.id(), w.deliveredThrough(), state.newest());
        }
      }
      return;
    }
    Cursors cursors = new Cursors(state.cursorKey());
    int attempts = w.attempts();
    for (ChangesApi.Row row : rows) {
      if (closed) return;
      JsonNode change = Json.MAPPER.readTree(row.json().utf8());
      String changedAt = change.get("changed_at").asText();
      oldest.put(w.id(), Times.parseDateTime(changedAt).toEpochMilli());
      Attempt a = post(w, row.seq(), change.get("meeting_id").asText(), row.change(), changedAt, cursors.encode(row.seq()));
      if (closed) return; // cut short by the stop, not the receiver's doing: the next deliverer sends it again
      Instant now = Instant.now();
      try (Connection c = db.store().write()) {
        if (a.status() / 100 == 2) {
          Webhooks.delivered(c, w.id(), row.seq(), now);
          delivered.incrementAndGet();
          attempts = 0;
          continue;
        }
        attempts++;
        if (a.status() == 410 || attempts > Retries.SCHEDULE.length) {
          gone.incrementAndGet();
          Webhooks.disable(c, w.id(), a.status() == 410 ? "the receiver answered 410 Gone"
              : "gave up after " + attempts + " attempts; the last: " + a.error(), now);
        } else {
          failed.incrementAndGet();
          long delay = Retries.delayMs(attempts, a.retryAfterMs(), ThreadLocalRandom.current().nextDouble());
          Webhooks.failed(c, w.id(), attempts, now.toEpochMilli() + delay, a.error(), now);
        }
      }
      return;
    }
    oldest.remove(w.id());
  }

  private void disable(Webhooks.Webhook w, String why) throws Exception {
    log.warn("webhook {} disabled: {}", w.id(), why);
    gone.incrementAndGet();
    try (Connection c = db.store().write()) {
      Webhooks.disable(c, w.id(), why, Instant.now());
    }
    oldest.remove(w.id());
  }

  /** One attempt's outcome: the status (0 for none), what went wrong in words, and Retry-After in ms (0: none). */
  record Attempt(int status, String error, long retryAfterMs) {}

  /** The body decisions.md pins, snake_case as every JSON of ours. */
  record Payload(String type, String timestamp, Data data) {}

  record Data(String meetingId, String changedAt, String cursor) {}

  private Attempt post(Webhooks.Webhook w, long seq, String meetingId, String change, String changedAt, String cursor) {
    byte[] body = Json.bytes(new Payload(change.equals(ChangeHistory.DELETE) ? "meeting.deleted" : "meeting.upserted",
        changedAt, new Data(meetingId, changedAt, cursor)));
    String id = "msg_" + w.id() + "_" + seq; // one per change and webhook: the same on every retry
    long timestamp = System.currentTimeMillis() / 1000;
    HttpRequest request;
    try {
      request = HttpRequest.newBuilder(URI.create(w.url())).timeout(TIMEOUT)
          .header("Content-Type", "application/json")
          .header("User-Agent", userAgent)
          .header("webhook-id", id)
          .header("webhook-timestamp", Long.toString(timestamp))
          .header("webhook-signature", Signature.sign(w.secret(), id, timestamp, body))
          .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    } catch (IllegalArgumentException badUrl) {
      return new Attempt(0, "the URL cannot be sent to: " + badUrl.getMessage(), 0);
    }
    try {
      // The answer counts once its status line is in; its body is never read (a huge or endless one costs nothing).
      HttpResponse<InputStream> r = http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
          .get(TIMEOUT.toMillis() + 1000, TimeUnit.MILLISECONDS);
      r.body().close();
      return new Attempt(r.statusCode(), "the receiver answered " + r.statusCode(),
          Retries.retryAfterMs(r.headers().firstValue("Retry-After").orElse(null), Instant.now()));
    } catch (TimeoutException e) {
      return new Attempt(0, "no answer within " + TIMEOUT.toSeconds() + " s", 0);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      String why = cause instanceof HttpTimeoutException ? "no answer within " + TIMEOUT.toSeconds() + " s"
          : cause instanceof ConnectException ? "cannot connect: " + cause.getMessage()
          : cause == null ? e.toString() : cause.toString();
      return new Attempt(0, why, 0);
    } catch (IOException e) {
      return new Attempt(0, e.toString(), 0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Attempt(0, "the server stopped during the attempt", 0);
    }
  }

  /** Stops delivering and lets go of the lease, so that another server takes over at once. */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    sending.shutdownNow();
    try {
      sending.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!leader) return;
    try (Connection c = db.store().write()) {
      new Sql("UPDATE webhook_lease SET until_ms = 0 WHERE id = 1 AND holder = ?", node).update(c);
    } catch (Exception e) {
      log.debug("webhook deliverer: could not let go of the lease: {}", e.toString());
    }
  }
}
