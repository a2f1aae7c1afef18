package minutes.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.keys.ApiKeys;
import minutes.keys.Principal;
import minutes.keys.Scope;

/**
 * The admission step of every keyed request, REST route and MCP tool call alike, in the order
 * decisions.md fixes: the key (401, api-spec section 5), its rate limit (429), the route's scope
 * (403), the route's tables (503 while a migration is pending). Nothing runs before the key's
 * statement: a request whose key is not valid costs only that lookup. A REST route passes both
 * halves at once; /mcp passes {@link #caller} once per POST and {@link #allow} once per tool call,
 * since one POST may list tools that need no scope. Thread-safe.
 */
final class Admission {
  // Scheme case-insensitive (RFC 7235); the space is required, so "Bearer<key>" is refused.
  private static final Pattern BEARER = Pattern.compile("(?i:bearer) +([A-Za-z0-9_\\-]{43,256})\\s*");

  private final RateLimit rateLimit;
  private final SchemaWatch schema = new SchemaWatch();

  Admission(RateLimit rateLimit) {
    this.rateLimit = rateLimit;
  }

  /**
   * The caller of a keyed request, with the data version the key's statement read where the
   * change log exists (the lists and search need it next: one round trip fewer on PostgreSQL).
   */
  ApiKeys.Resolved callerWithDataVersion(HttpServerExchange ex, Connection c) throws SQLException {
    return caller(ex, c, schema.saw("change_log"));
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
    rateLimit.admit(ex, caller.principal().keyId());
    return caller;
  }

  /** An admitted caller's way to a route: 403 without its scope, then 503 while its tables are missing. */
  void allow(Principal principal, Scope scope, Set<String> tables, Connection c) throws SQLException {
    if (!principal.scopes().contains(scope)) throw ApiError.forbidden(scope);
    schema.require(c, tables);
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
}
