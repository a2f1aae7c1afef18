package minutes.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.RequestLimit;
import io.undertow.util.AttachmentKey;
import java.util.Set;
import java.util.function.Predicate;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load shedding (decisions.md "Rate limits and overload"): at most {@code http.max_in_flight}
 * requests are answered at once and at most {@code http.max_queued} wait for their turn, without
 * holding a thread; a request beyond both is answered 503 {@code unavailable} with
 * {@code Retry-After} at once, so that the requests taken on keep their latency instead of all
 * waiting longer. A queued request that could not start within {@code http.max_queue_wait_ms}
 * (0: no limit) is answered the same 503 when its turn comes: the queue's length alone does
 * not bound the wait while other work (an import, a reindex) slows every request down.
 * {@code /healthz} and {@code /metrics} are never shed or queued: they must tell an operator
 * what is going on precisely when the server is overloaded. Requests that may be held open
 * (a long-poll with {@code wait}, an event stream: decisions.md "Push") are not counted here
 * either, or a thousand waiting clients would block every search: they have a limit of their
 * own, {@code changes.max_waiting} at once from arrival to their answer's end, beyond which they
 * get the same 503.
 *
 * <p>The queue is Undertow's {@link RequestLimit}; this class adds the exemptions, the error
 * body and the counts for /metrics. Thread-safe.
 */
public final class LoadShedding implements HttpHandler {
  private static final Set<String> NEVER_SHED = Set.of("/healthz", "/metrics");
  static final int RETRY_AFTER_SECONDS = 1;
  /** Waiting clients coming back at once would only be refused again: spread them out a little. */
  static final int HELD_RETRY_AFTER_SECONDS = 5;
  private static final AttachmentKey<Long> ARRIVED = AttachmentKey.create(Long.class);
  /** Present while the request is being admitted: a request started then found a free slot and never waited. */
  private static final AttachmentKey<Boolean> ADMITTING = AttachmentKey.create(Boolean.class);

  private final HttpHandler next;
  private final RequestLimit limit;
  private final HttpHandler started;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicLong shed = new AtomicLong();
  private final Predicate<HttpServerExchange> mayBeHeld;
  private final int maxHeld;
  private final AtomicInteger held = new AtomicInteger();

  /** {@code mayBeHeld}: a request that may wait long for its answer; at most {@code maxHeld} of them at once. */
  public LoadShedding(int maxInFlight, int maxQueued, int maxQueueWaitMs, Predicate<HttpServerExchange> mayBeHeld,
      int maxHeld, HttpHandler next) {
    this.next = next;
    this.mayBeHeld = mayBeHeld;
    this.maxHeld = maxHeld;
    this.limit = new RequestLimit(maxInFlight, maxQueued);
    long maxWaitNanos = maxQueueWaitMs == 0 ? Long.MAX_VALUE : maxQueueWaitMs * 1_000_000L;
    this.started = ex -> {
      queued.decrementAndGet();
      // Only a request that waited for a slot is refused for its wait. One that found a slot free
      // has it already; the time since it arrived was its own thread held up (a GC pause, a busy
      // CPU), and refusing it would only waste the slot.
      if (ex.getAttachment(ADMITTING) == null && System.nanoTime() - ex.getAttachment(ARRIVED) > maxWaitNanos) {
        refuse(ex); // its slot goes to the next request when this answer completes
        return;
      }
      inFlight.incrementAndGet();
      ex.addExchangeCompleteListener((done, nextListener) -> {
        inFlight.decrementAndGet();
        nextListener.proceed();
      });
      next.handleRequest(ex);
    };
    limit.setFailureHandler(ex -> {
      queued.decrementAndGet();
      refuse(ex);
    });
  }

  private void refuse(HttpServerExchange ex) {
    shed.incrementAndGet();
    ErrorMapper.send(ex, ApiError.unavailable(RETRY_AFTER_SECONDS,
        "the server is busy (too many requests at once); try again in a moment"));
  }

  private void hold(HttpServerExchange ex) throws Exception {
    if (held.incrementAndGet() > maxHeld) {
      held.decrementAndGet();
      shed.incrementAndGet();
      ErrorMapper.send(ex, ApiError.unavailable(HELD_RETRY_AFTER_SECONDS,
          "the server holds as many waiting requests as it may (changes.max_waiting); try again in a few seconds"));
      return;
    }
    ex.addExchangeCompleteListener((done, nextListener) -> {
      held.decrementAndGet();
      nextListener.proceed();
    });
    next.handleRequest(ex);
  }

  @Override
  public void handleRequest(HttpServerExchange ex) throws Exception {
    if (NEVER_SHED.contains(Routes.trimmed(ex.getRequestPath()))) { // "/healthz/" too, as the router takes it
      next.handleRequest(ex);
      return;
    }
    if (mayBeHeld.test(ex)) {
      hold(ex);
      return;
    }
    ex.putAttachment(ARRIVED, System.nanoTime());
    queued.incrementAndGet(); // counted from arrival; it leaves the count when it starts or is shed
    // RequestLimit starts a request with a free slot within this call; a queued one starts later,
    // from the thread whose request frees a slot, after this has returned.
    ex.putAttachment(ADMITTING, Boolean.TRUE);
    try {
      limit.handleRequest(ex, started);
    } finally {
      ex.removeAttachment(ADMITTING);
    }
  }

  /** Requests being answered now (not counting /healthz and /metrics). */
  public int inFlight() {
    return inFlight.get();
  }

  /** Requests waiting for their turn. */
  public int queued() {
    return queued.get();
  }

  /** Requests that may be held (long-polls with wait, streams) open now, from arrival to their answer's end. */
  public int held() {
    return held.get();
  }

  /** Requests answered 503 at once since the start. */
  public long shed() {
    return shed.get();
  }
}
