package minutes.http;

import minutes.keys.Scope;
import java.util.Map;

/**
 * Every answer that is not a success: status, code, the parameter at fault and the headers
 * RFC 6750 / RFC 9110 ask for. {@link ErrorMapper} is the one place that writes it.
 */
public final class ApiError extends RuntimeException {
  private final int status;
  private final String code;
  private final String field;
  private final Map<String, String> headers;

  private ApiError(int status, String code, String field, String message, Map<String, String> headers) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
    this.field = field;
    this.headers = headers;
  }

  public static ApiError badParam(String field, String message) {
    return new ApiError(400, "invalid_parameter", field, message, Map.of());
  }

  public static ApiError unauthorized(String message) {
    return new ApiError(401, "unauthorized", null, message, Map.of("WWW-Authenticate", "Bearer"));
  }

  public static ApiError forbidden(Scope needed) {
    return new ApiError(403, "forbidden", null, "this key lacks the scope " + needed.value(),
        Map.of("WWW-Authenticate", "Bearer error=\"insufficient_scope\", scope=\"" + needed.value() + "\""));
  }

  /** 403 for a request refused before any key is looked at (an Origin that is not allowed, say). */
  public static ApiError forbidden(String message) {
    return new ApiError(403, "forbidden", null, message, Map.of());
  }

  public static ApiError notFound(String message) {
    return new ApiError(404, "not_found", null, message, Map.of());
  }

  public static ApiError methodNotAllowed(String method) {
    return new ApiError(405, "method_not_allowed", null, method + " is not allowed here; this API is read-only",
        Map.of("Allow", "GET, HEAD"));
  }

  /** 405 on a path that answers other methods than GET and HEAD, e.g. POST /mcp; {@code allow} lists them. */
  public static ApiError methodNotAllowed(String method, String allow) {
    return new ApiError(405, "method_not_allowed", null, method + " is not allowed here; use " + allow,
        Map.of("Allow", allow));
  }

  /** 413: a request body over the limit, which is not read. */
  public static ApiError tooLarge(long limitBytes) {
    return new ApiError(413, "content_too_large", null, "the request body is larger than " + limitBytes + " bytes",
        Map.of());
  }

  /** 410: a cursor we issued, but for history that is no longer kept; the client starts over. */
  public static ApiError cursorExpired(String field, String message) {
    return new ApiError(410, "cursor_expired", field, message, Map.of());
  }

  /** A server-side failure (500); {@code field} is set only by the api-spec 4.4 quirk, null otherwise. */
  public static ApiError internal(String field, String message) {
    return new ApiError(500, "internal_error", field, message, Map.of());
  }

  /** 429: the key is over its rate limit ({@link Admission}, decisions.md "Rate limits and overload"). */
  public static ApiError rateLimited(long retryAfterSeconds, String message) {
    return new ApiError(429, "rate_limited", null, message, Map.of("Retry-After", Long.toString(retryAfterSeconds)));
  }

  public static ApiError unavailable(int retryAfterSeconds, String message) {
    return new ApiError(503, "unavailable", null, message, Map.of("Retry-After", Integer.toString(retryAfterSeconds)));
  }

  public int status() {
    return status;
  }

  public String field() {
    return field;
  }

  public Map<String, String> headers() {
    return headers;
  }

  /** The JSON body: {@code {"error": {...}}}. */
  public record Body(Detail error) {}

  public record Detail(int status, String code, String field, String message) {}

  public Body body() {
    return new Body(new Detail(status, code, field, getMessage()));
  }
}
