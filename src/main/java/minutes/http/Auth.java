package minutes.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.keys.ApiKeys;
import minutes.keys.Principal;

/**
 * Turns the Authorization header into a {@link Principal} or a 401 (api-spec section 5): the
 * one place where a request's key is resolved, for REST routes and /mcp alike.
 */
public final class Auth {
  // Scheme case-insensitive (RFC 7235); the space is required, so "Bearer<key>" is refused.
  private static final Pattern BEARER = Pattern.compile("(?i:bearer) +([A-Za-z0-9_\\-]{43,256})\\s*");

  private Auth() {}

  /** The request's caller; the key's id goes into the access log. */
  public static Principal authenticate(HttpServerExchange ex, Connection c) throws SQLException {
    return admitted(ex, ApiKeys.resolve(c, secret(ex), false)).principal();
  }

  /** The key the request sends, checked for its form only: 401 when it is missing or malformed. */
  static String secret(HttpServerExchange ex) {
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

  /** The caller whose key {@link ApiKeys#resolve} found, or 401 for an unknown or revoked key. */
  static ApiKeys.Resolved admitted(HttpServerExchange ex, Optional<ApiKeys.Resolved> resolved) {
    ApiKeys.Resolved key = resolved.orElseThrow(() -> ApiError.unauthorized("the key is not valid or has been revoked"));
    ex.putAttachment(AccessLog.KEY_ID, key.principal().keyId());
    return key;
  }
}
