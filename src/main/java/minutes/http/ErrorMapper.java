package minutes.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;
import minutes.store.StatementLimit;
import minutes.store.Unreachable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that turns failures into answers: an {@link ApiError} becomes its JSON body
 * and headers; a database statement stopped by its time limit is 503 and counted; a database
 * that cannot be reached or has no connection free is 503; anything else is logged with the
 * request line and answered with a fixed 500 that shows no trace, SQL or path. /mcp maps its
 * tool failures here too ({@link #asApiError}), so a tool error carries the body REST sends.
 */
public final class ErrorMapper implements HttpHandler {
  private static final Logger log = LoggerFactory.getLogger(ErrorMapper.class);

  static final int TIMEOUT_RETRY_AFTER_SECONDS = 2;

  private final Metrics metrics;
  private final HttpHandler next;

  public ErrorMapper(Metrics metrics, HttpHandler next) {
    this.metrics = metrics;
    this.next = next;
  }

  @Override
  public void handleRequest(HttpServerExchange ex) {
    try {
      next.handleRequest(ex);
    } catch (Throwable t) {
      send(ex, asApiError(t, ex.getRequestMethod() + " " + ex.getRequestPath(), metrics));
    }
  }

  /**
   * What a failure tells the caller; {@code where} (the request line, or the MCP tool) goes into
   * the log line of anything that is not an {@link ApiError}.
   */
  public static ApiError asApiError(Throwable t, String where, Metrics metrics) {
    if (t instanceof ApiError e) return e;
    if (StatementLimit.isTimeout(t)) {
      // A query too costly for db.statement_timeout_ms, or a server too busy to finish it in
      // time: either way the caller may try again, and the connection is free again now.
      metrics.timedOut("db");
      log.warn("database statement time limit reached on {}", where);
      return ApiError.unavailable(TIMEOUT_RETRY_AFTER_SECONDS,
          "the request took longer than the server allows; try again in a few seconds");
    }
    if (Unreachable.is(t)) {
      // PostgreSQL down or restarting: not the request's fault, and over once it is back.
      log.warn("database not reachable on {}: {}", where, t.toString());
      return ApiError.unavailable(5, "the database is not reachable; try again in a few seconds");
    }
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
    e.headers().forEach((name, value) -> ex.getResponseHeaders().put(HttpString.tryFromString(name), value));
    Json.send(ex, e.status(), e.body());
  }
}
