package minutes.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.AttachmentKey;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.keys.ApiKeys;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.store.Dialect;

/**
 * The admission step of every keyed request, REST route and MCP tool call alike, in the order
 * decisions.md fixes: the key (401, api-spec section 5), its rate limit (429), the route's scope
 * (403), the route's tables (503 while a migration is pending). Nothing runs before the key's
 * statement: a request whose key is not valid costs only that lookup, and is not counted. A REST
 * route passes both halves at once; /mcp passes {@link #caller} once per POST and {@link #allow}
 * once per tool call, since one POST may list tools that need no scope. Thread-safe and
 * lock-free.
 *
 * <p>The rate limit is decisions.md's ("Rate limits and overload"): each key may send {@code
 * http.rate_limit_per_minute} requests a minute, refilled evenly (3000 a minute is one every 20
 * ms), and may save up at most one minute's worth for a burst. Every answer to an admitted key
 * carries {@code RateLimit-Policy} and {@code RateLimit} (IETF httpapi ratelimit-headers draft,
 * structured-field form). Each key has its own counter, so one key's burst never waits on, or
 * takes from, another key's; the counts live in this process, so every node of a cluster counts
 * its own. Written out rather than taken from Bucket4j: one {@code AtomicLong} per key (GCRA) is
 * the whole algorithm, and the headers need its exact state.
 *
 * <p>The schema check lets an endpoint whose tables or columns ("table.column") a pending
 * migration would create answer 503 (api-spec section 7) and come alive once {@code migrate} has
 * run, without a restart. The schema is re-read at most once a second while everything is
 * there, and on each request that needs something missing (so migrate takes effect at once).
 */
final class Admission {
  // Scheme case-insensitive (RFC 7235); the space is required, so "Bearer<key>" is refused.
  private static final Pattern BEARER = Pattern.compile("(?i:bearer) +([A-Za-z0-9_\\-]{43,256})\\s*");

  /** The rate limit policy's name in both headers. */
  private static final String POLICY = "per-key";
  private static final HttpString POLICY_HEADER = HttpString.tryFromString("RateLimit-Policy");
  private static final HttpString STATE_HEADER = HttpString.tryFromString("RateLimit");
  private static final long WINDOW_NANOS = 60_000_000_000L;

  /** Set on a request once counted against its key's rate limit: an {@link Answer} may ask its route again. */
  private static final AttachmentKey<Boolean> COUNTED = AttachmentKey.create(Boolean.class);

  private static final long SCHEMA_REFRESH_NANOS = 1_000_000_000L;
  private static final int MIGRATION_RETRY_AFTER_SECONDS = 30;

  private final int perMinute;
  private final long interval;
  private final LongSupplier clock;
  private final String policy;
  /**
   * Per key id, the "theoretical arrival time" of GCRA: the moment its bucket is full again.
   * Bounded by the number of keys that exist, since only authenticated keys get one.
   */
  private final ConcurrentHashMap<String, AtomicLong> full = new ConcurrentHashMap<>();

  private volatile Set<String> tablesAndColumns = Set.of();
  private volatile long schemaReadAt = Long.MIN_VALUE;

  /** {@code perMinute}: requests a minute per key, 0 turns the limit off; {@code clock}: nanoseconds. */
  Admission(int perMinute, LongSupplier clock) {
    this.perMinute = perMinute;
    this.interval = perMinute == 0 ? 0 : WINDOW_NANOS / perMinute;
    this.clock = clock;
    this.policy = "\"" + POLICY + "\";q=" + perMinute + ";w=60";
  }

  /**
   * The caller of a keyed request, with the data version the key's statement read where the
   * change log exists (the lists and search need it next: one round trip fewer on PostgreSQL).
   * Whether it exists is what the last look at the schema saw, without looking again: no table
   * is ever dropped.
   */
  ApiKeys.Resolved callerWithDataVersion(HttpServerExchange ex, Connection c) throws SQLException {
    return caller(ex, c, tablesAndColumns.contains("change_log"));
  }

  /** The caller of a keyed request that reads nothing else on this connection (/mcp, /metrics). */
  Principal caller(HttpServerExchange ex, Connection c) throws SQLException {
    return caller(ex, c, false).principal();
  }

  /** 401 for a missing, malformed, unknown or revoked key; then 429 when the key is over its rate limit. */
  private ApiKeys.Resolved caller(HttpServerExchange ex, Connection c, boolean withDataVersion) throws SQLException {
    ApiKeys.Resolved caller = ApiKeys.resolve(c, secret(ex), withDataVersion)
        .orElseThrow(() -> ApiError.unauthorized("the key is not valid or has been revoked"));
    ex.putAttachment(AccessLog.KEY_ID, caller.principal().keyId());
    admit(ex, caller.principal().keyId());
    return caller;
  }

  /**
   * An admitted caller's way to a route: 403 without its scope, then 503 while its tables are
   * missing. Reads the schema through the request's own connection: taking a second one from the
   * pool while holding the first deadlocks once every request does so.
   */
  void allow(Principal principal, Scope scope, Set<String> tables, Connection c) throws SQLException {
    if (!principal.scopes().contains(scope)) throw ApiError.forbidden(scope);
    if (tables.isEmpty()) return;
    Set<String> known = tablesAndColumns;
    if (!known.containsAll(tables) || System.nanoTime() - schemaReadAt > SCHEMA_REFRESH_NANOS) {
      known = Dialect.of(c).tablesAndColumns(c);
      tablesAndColumns = known;
      schemaReadAt = System.nanoTime();
    }
    if (!known.containsAll(tables)) {
      throw ApiError.unavailable(MIGRATION_RETRY_AFTER_SECONDS,
          "this endpoint needs a database migration that has not been applied yet (run: ./run.sh migrate)");
    }
  }

  /** The key the request sends, checked for its form only. */
  private static String secret(HttpServerExchange ex) {
    String header = ex.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
    if (header == null || header.isBlank()) {
      throw ApiError.unauthorized("send the key as Authorization: Bearer <key>");
    }
    Matcher m = BEARER.matcher(header);
    if (!m.matches()) {
      throw ApiError.unauthorized("the Authorization header must be Bearer followed by a space and the key");
    }
    return m.group(1);
  }

  /**
   * Counts one request of the key and sets the two headers on the answer; throws 429
   * ({@code rate_limited}, with {@code Retry-After}) when the key has nothing left. Does nothing
   * while the limit is off.
   */
  private void admit(HttpServerExchange ex, String keyId) {
    if (perMinute == 0 || ex.putAttachment(COUNTED, true) != null) return;
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
      // Where this request starts on the key's clock: an idle key is simply full.
      long start = before == Long.MIN_VALUE || before - now < 0 ? now : before;
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

  private static long seconds(long nanos) {
    return (nanos + 999_999_999L) / 1_000_000_000L;
  }
}
