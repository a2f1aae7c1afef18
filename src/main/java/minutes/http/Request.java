package minutes.http;

import java.sql.Connection;
import java.util.Map;
import minutes.keys.Principal;

/**
 * One authenticated API request: the caller, its parameters, the route's path parameters and
 * a read connection that is inside one read transaction, so a count and its page see the same
 * snapshot even while an import commits. Carries no HTTP exchange, so that an endpoint answers
 * a REST request and an MCP tool call alike. Not thread-safe; lives for one request.
 */
public record Request(Principal principal, Params params, Map<String, String> pathParams, Connection db) {

  /** A path parameter of the route template, never a query parameter of the same name. */
  public String path(String name) {
    return pathParams.get(name);
  }
}
