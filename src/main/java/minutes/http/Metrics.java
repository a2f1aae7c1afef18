package minutes.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import minutes.store.DataSnapshot;
import minutes.store.Db;
import minutes.store.Times;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prometheus metrics through Micrometer: requests and latency by route template and status,
 * search index size and sync lag, database size, JVM memory. The index and database values
 * are read once per scrape. Thread-safe.
 */
public final class Metrics {
  private static final Logger log = LoggerFactory.getLogger(Metrics.class);
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  // Fixed buckets keep the series count small and comparable across versions.
  private static final Duration[] BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10),
      Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
      Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
      Duration.ofSeconds(10)};

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Db db;
  private final IndexState index;
  /**
   * What minutes_search_split_total reads, kept here for as long as the registry: Micrometer
   * holds a counted object weakly, and a lambda nothing else refers to is collected at the next
   * GC, after which its counter stops moving.
   */
  private final LongSupplier splitSearches;
  private volatile Snapshot last = Snapshot.EMPTY;

  /**
   * What the live search index holds: documents, deleted documents still in its files, bytes on
   * disk, the change_log seq it has applied.
   */
  public record IndexStats(long documents, long deletedDocuments, long bytes, long seq) {}

  /** Reads the live search index's {@link IndexStats}; null while there is none. */
  @FunctionalInterface
  public interface IndexState {
    IndexStats now() throws IOException;
  }

  /** Values read from the database and the index at the start of a scrape; NaN when unknown. */
  private record Snapshot(double documents, double deletedDocuments, double indexBytes, double lagEntries,
      double lagSeconds, double dbBytes) {
    static final Snapshot EMPTY = new Snapshot(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
  }

  /** {@code splitSearches}: searches matched on all cores so far. */
  public Metrics(Db db, IndexState index, LongSupplier splitSearches) {
    this.db = db;
    this.index = index;
    this.splitSearches = splitSearches;
    new JvmMemoryMetrics().bindTo(registry);
    Gauge.builder("minutes.index.documents", () -> last.documents())
        .description("Meetings in the live search index").register(registry);
    Gauge.builder("minutes.index.deleted.documents", () -> last.deletedDocuments())
        .description("Deleted or replaced meetings whose old text still stands in the index files (0 once merged away)")
        .register(registry);
    Gauge.builder("minutes.index.size", () -> last.indexBytes()).baseUnit("bytes")
        .description("Size of the live search index on disk").register(registry);
    Gauge.builder("minutes.index.lag.entries", () -> last.lagEntries())
        .description("change_log entries the search index has not applied yet").register(registry);
    Gauge.builder("minutes.index.lag", () -> last.lagSeconds()).baseUnit("seconds")
        .description("Age of the oldest change the search index has not applied yet (0 when up to date)")
        .register(registry);
    FunctionCounter.builder("minutes.search.split", splitSearches, LongSupplier::getAsLong)
        .description("Searches costly enough to be matched on all cores at once").register(registry);
    Gauge.builder("minutes.database.size", () -> last.dbBytes()).baseUnit("bytes")
        .description("Size of the database: the SQLite file with its write-ahead log, or PostgreSQL's pg_database_size").register(registry);
    // Both shown as 0 from the start, so that a rate over them needs no special case.
    timeouts("db");
    timeouts("search");
  }

  /** Adds the load-shedding counts: requests in flight and waiting now, and those refused at once. */
  public void watch(LoadShedding shedding) {
    Gauge.builder("minutes.http.in.flight", shedding, LoadShedding::inFlight)
        .description("Requests being answered now (without /healthz and /metrics)").register(registry);
    Gauge.builder("minutes.http.queued", shedding, LoadShedding::queued)
        .description("Requests waiting for their turn (at most http.max_queued)").register(registry);
    FunctionCounter.builder("minutes.http.shed", shedding, LoadShedding::shed)
        .description("Requests answered 503 because http.max_in_flight and http.max_queued were full,"
            + " or their turn came after http.max_queue_wait_ms, or changes.max_waiting was")
        .register(registry);
    Gauge.builder("minutes.changes.held", shedding, LoadShedding::held)
        .description("Long-polls with wait and change streams open now (at most changes.max_waiting)").register(registry);
  }

  /** Adds the change feed's push counts: what waits for a change now, and streams open. */
  public void watchPush(IntSupplier waiting, IntSupplier streams) {
    // Held strongly: Micrometer holds a gauge's object weakly, and nothing else holds these lambdas.
    Gauge.builder("minutes.changes.waiting", waiting, IntSupplier::getAsInt).strongReference(true)
        .description("Held long-polls and streams waiting for a change their key may see").register(registry);
    Gauge.builder("minutes.changes.streams", streams, IntSupplier::getAsInt).strongReference(true)
        .description("Change streams (GET /api/v1/changes/stream) open now").register(registry);
  }

  /** Adds webhook deliveries by outcome, whether this server delivers, and how far behind the furthest webhook is. */
  public void watchWebhooks(minutes.webhooks.Deliverer d) {
    FunctionCounter.builder("minutes.webhook.deliveries", d, minutes.webhooks.Deliverer::delivered).tag("outcome", "delivered")
        .description("Webhook deliveries by outcome: delivered (2xx), failed (tried again later),"
            + " disabled (410, retries spent, key revoked)")
        .register(registry);
    FunctionCounter.builder("minutes.webhook.deliveries", d, minutes.webhooks.Deliverer::failed).tag("outcome", "failed")
        .register(registry);
    FunctionCounter.builder("minutes.webhook.deliveries", d, minutes.webhooks.Deliverer::disabled).tag("outcome", "disabled")
        .register(registry);
    Gauge.builder("minutes.webhook.oldest.undelivered", d, minutes.webhooks.Deliverer::oldestUndeliveredSeconds)
        .baseUnit("seconds")
        .description("Age of the oldest change a webhook has yet to receive (0: all delivered; on the delivering server)")
        .register(registry);
    Gauge.builder("minutes.webhook.delivering", d, minutes.webhooks.Deliverer::leader)
        .description("1 on the server that delivers webhooks now (it holds the lease), 0 elsewhere").register(registry);
  }

  /**
   * Adds an in-memory list order's state under {@code order}: whether requests are answered
   * from it (0 while it is built, at start or after an import, when they come from SQL) and
   * how long its last build took.
   */
  public void watchOrder(String order, Supplier<DataSnapshot.Status> status) {
    Gauge.builder("minutes.list.order.ready", () -> status.get().ready() ? 1 : 0).tag("order", order)
        .description("1 when the in-memory list order answers requests, 0 while it is being built (answers come from SQL)")
        .register(registry);
    Gauge.builder("minutes.list.order.build", () -> status.get().lastBuildSeconds()).tag("order", order).baseUnit("seconds")
        .description("How long the last build of the in-memory list order took").register(registry);
  }

  /** Records how many searches the start-up warm-up ran (0 when it was off or had nothing to search). */
  public void warmedUp(int searches) {
    Gauge.builder("minutes.search.warmup.searches", () -> searches)
        .description("Searches the server ran on itself at start, before listening (search.warmup_ms)").register(registry);
  }

  /** Counts a request stopped by a time limit; {@code kind} says which ("db" or "search"). */
  public void timedOut(String kind) {
    timeouts(kind).increment();
  }

  private Counter timeouts(String kind) {
    return Counter.builder("minutes.timeouts").description("Requests stopped by a time limit, by kind")
        .tag("kind", kind).register(registry);
  }

  /** Wraps the server so that each completed request is counted under its route template and status. */
  public HttpHandler recording(HttpHandler next) {
    return ex -> {
      ex.addExchangeCompleteListener((done, nextListener) -> {
        try {
          record(done);
        } finally {
          nextListener.proceed();
        }
      });
      next.handleRequest(ex);
    };
  }

  private void record(HttpServerExchange ex) {
    long started = ex.getRequestStartTime();
    if (started <= 0) return;
    String method = ex.getRequestMethod().equals(Methods.GET) || ex.getRequestMethod().equals(Methods.HEAD)
        ? ex.getRequestMethod().toString() : "other"; // bounded label values, whatever clients send
    Timer.builder("minutes.http.requests")
        .description("HTTP requests by route template, method and status")
        .tags("endpoint", AccessLog.route(ex), "method", method, "status", Integer.toString(ex.getStatusCode()))
        .serviceLevelObjectives(BUCKETS)
        .register(registry)
        .record(Duration.ofNanos(System.nanoTime() - started));
  }

  /** GET /metrics: the Prometheus text format. */
  public HttpHandler endpoint() {
    return ex -> {
      last = snapshot();
      ex.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
      Json.sendBytes(ex, 200, CONTENT_TYPE, registry.scrape().getBytes(StandardCharsets.UTF_8));
    };
  }

  private Snapshot snapshot() {
    double documents = Double.NaN, deleted = Double.NaN, indexBytes = Double.NaN, lagEntries = Double.NaN,
        lagSeconds = Double.NaN;
    try {
      IndexStats s = index.now();
      if (s != null) {
        documents = s.documents();
        deleted = s.deletedDocuments();
        indexBytes = s.bytes();
        try (Connection c = db.read();
            PreparedStatement ps = c.prepareStatement(
                "SELECT count(*), min(changed_at) FROM change_log WHERE seq > ?")) {
          ps.setLong(1, s.seq());
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            lagEntries = rs.getLong(1);
            Instant oldest = rs.getString(2) == null ? null : Times.parseDateTime(rs.getString(2));
            lagSeconds = oldest == null ? 0 : Math.max(0, Duration.between(oldest, Instant.now()).toMillis() / 1000.0);
          }
        }
      }
    } catch (IOException | SQLException | RuntimeException e) {
      log.debug("metrics: search index values unavailable ({})", e.toString());
    }
    return new Snapshot(documents, deleted, indexBytes, lagEntries, lagSeconds, databaseBytes());
  }

  /** What the store takes on disk (Store.sizeBytes), or NaN when it cannot say now. */
  private double databaseBytes() {
    try (Connection c = db.read()) {
      return db.store().sizeBytes(c);
    } catch (Exception e) {
      return Double.NaN;
    }
  }
}
