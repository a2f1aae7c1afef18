package minutes.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that turns failures into answers: an {@link ApiError} becomes its JSON body
 * and headers; anything else is logged with the request line and answered with a fixed 500
 * that shows no trace, SQL or path.
 */
public final class ErrorMapper implements HttpHandler {
  private static final Logger log = LoggerFactory.getLogger(ErrorMapper.class);

  private final HttpHandler next;

  public ErrorMapper(HttpHandler next) {
    this.next = next;
  }

  @Override
  public void handleRequest(HttpServerExchange ex) {
    try {
      next.handleRequest(ex);
    } catch (Throwable t) {
      send(ex, asApiError(t, ex.getRequestMethod() + " " + ex.getRequestPath()));
    }
  }

  /**
   * What a failure tells the caller: an {@link ApiError} as it is; every pooled connection
   * busy is a 503; anything else is logged with {@code where} (the request line, or the MCP
   * tool) and becomes the fixed 500. Also used by /mcp, whose tool errors carry the same body.
   */
  public static ApiError asApiError(Throwable t, String where) {
    if (t instanceof ApiError e) return e;
    if (t instanceof java.sql.SQLTransientConnectionException busy) {
      // Every pooled connection stayed busy for the pool's timeout: overload, not a fault of
      // the server's code, and over once the load is. Say so, with when to come back.
      log.warn("no database connection free on {}: {}", where, busy.getMessage());
      return ApiError.unavailable(2, "the server is busy; try again in a few seconds");
    }
    log.error("internal error on {}", where, t);
    return ApiError.internal(null, "the server failed to answer this request; it has been logged");
  }

  public static void send(HttpServerExchange ex, ApiError e) {
    if (ex.isResponseStarted()) {
      ex.endExchange();
      return;
    }
    for (Map.Entry<String, String> h : e.headers().entrySet()) {
      ex.getResponseHeaders().put(HttpString.tryFromString(h.getKey()), h.getValue());
    }
    Json.send(ex, e.status(), e.body());
  }
}
