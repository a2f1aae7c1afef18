package minutes.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.PathTemplateMatch;
import java.sql.Connection;
import minutes.keys.Principal;

/**
 * One authenticated API request: the caller, its parameters and a read connection that is
 * inside one read transaction, so a count and its page see the same snapshot even while an
 * import commits. Not thread-safe; lives for one request.
 */
public record Request(HttpServerExchange exchange, Principal principal, Params params, Connection db) {

  /** A path parameter of the route template, never a query parameter of the same name. */
  public String path(String name) {
    PathTemplateMatch match = exchange.getAttachment(PathTemplateMatch.ATTACHMENT_KEY);
    return match.getParameters().get(name);
  }
}
