package minutes.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The per-key rate limit of decisions.md ("Rate limits and overload"): each key may send
 * {@code http.rate_limit_per_minute} requests a minute, refilled evenly (3000 a minute is one
 * every 20 ms), and may save up at most one minute's worth for a burst. Any entry point that
 * authenticates a key calls {@link #admit} once per request, right after authentication; the
 * answer then carries {@code RateLimit-Policy} and {@code RateLimit} (IETF httpapi
 * ratelimit-headers draft, structured-field form), and a request over the limit is 429.
 *
 * <p>Thread-safe and lock-free: each key has its own counter, so one key's burst never waits
 * on, or takes from, another key's. The counts live in this process: every node of a cluster
 * counts its own. Written out rather than taken from Bucket4j: one {@code AtomicLong} per key
 * (GCRA) is the whole algorithm, and the headers need its exact state.
 */
public final class RateLimit {
  /** The policy's name in both headers. */
  static final String POLICY = "per-key";
  private static final HttpString POLICY_HEADER = HttpString.tryFromString("RateLimit-Policy");
  private static final HttpString STATE_HEADER = HttpString.tryFromString("RateLimit");
  private static final long WINDOW_NANOS = 60_000_000_000L;

  private final int perMinute;
  private final long interval;
  private final LongSupplier clock;
  private final String policy;
  /**
   * Per key id, the "theoretical arrival time" of GCRA: the moment its bucket is full again.
   * Bounded by the number of keys that exist, since only authenticated keys get one.
   */
  private final ConcurrentHashMap<String, AtomicLong> full = new ConcurrentHashMap<>();

  /** {@code perMinute}: requests a minute per key; 0 turns the limit off. */
  public RateLimit(int perMinute) {
    this(perMinute, System::nanoTime);
  }

  RateLimit(int perMinute, LongSupplier clock) {
    this.perMinute = perMinute;
    this.interval = perMinute == 0 ? 0 : WINDOW_NANOS / perMinute;
    this.clock = clock;
    this.policy = "\"" + POLICY + "\";q=" + perMinute + ";w=60";
  }

  /**
   * Counts one request of the key and sets the two headers on the answer; throws 429
   * ({@code rate_limited}, with {@code Retry-After}) when the key has nothing left. Does nothing
   * while the limit is off.
   */
  public void admit(HttpServerExchange ex, String keyId) {
    if (perMinute == 0) return;
    Outcome o = take(keyId);
    ex.getResponseHeaders().put(POLICY_HEADER, policy);
    ex.getResponseHeaders().put(STATE_HEADER, "\"" + POLICY + "\";r=" + o.remaining() + ";t=" + o.resetSeconds());
    if (!o.admitted()) {
      throw ApiError.rateLimited(o.retryAfterSeconds(),
          "this key sent more than " + perMinute + " requests a minute; try again in " + o.retryAfterSeconds() + " s");
    }
  }

  /**
   * One request's outcome: whether it may go on, the requests left now, the seconds until the
   * key has its full quota again, and (when refused) the seconds until it has one request again.
   */
  record Outcome(boolean admitted, long remaining, long resetSeconds, long retryAfterSeconds) {}

  Outcome take(String keyId) {
    AtomicLong tat = full.computeIfAbsent(keyId, k -> new AtomicLong(Long.MIN_VALUE));
    while (true) {
      long now = clock.getAsLong();
      long before = tat.get();
      long start = start(before, now);
      long after = start + interval;
      long owed = after - now; // how long until the bucket is full again if this request is taken
      if (owed > WINDOW_NANOS) {
        long behind = start - now;
        return new Outcome(false, 0, seconds(behind), Math.max(1, seconds(owed - WINDOW_NANOS)));
      }
      if (tat.compareAndSet(before, after)) {
        return new Outcome(true, (WINDOW_NANOS - owed) / interval, seconds(owed), 0);
      }
    }
  }

  /** Where a request arriving at {@code now} starts on the key's clock: an idle key is simply full. */
  private static long start(long tat, long now) {
    return tat == Long.MIN_VALUE || tat - now < 0 ? now : tat;
  }

  private static long seconds(long nanos) {
    return (nanos + 999_999_999L) / 1_000_000_000L;
  }
}
