package minutes.http;

import minutes.keys.Scope;
import io.undertow.server.HttpHandler;
import io.undertow.server.RoutingHandler;
import io.undertow.util.Headers;
import io.undertow.util.PathTemplateMatch;
import java.sql.Connection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import minutes.keys.Principal;
import minutes.store.Db;

/**
 * The route table. Every API route runs the checks in the order decisions.md fixes:
 * authentication (401), scope (403), schema availability (503), then the endpoint, which
 * validates its parameters (400) before looking anything up (404). {@link #call} runs the
 * same checks after authentication for a caller that is not an HTTP request (MCP tools),
 * so both answer alike. Thread-safe once built.
 */
public final class Routes {
  private final Db db;
  private final String cacheControl;
  private final SchemaWatch schema;
  // Path parameters stay out of the query map, so "?id=" can never replace a path id.
  private final RoutingHandler router = new RoutingHandler(false);
  private final Map<String, Api> apis = new HashMap<>();

  /** An API route: its template, the scope it needs, the tables it reads and its endpoint. */
  private record Api(Scope scope, Set<String> tables, Endpoint endpoint) {}

  /** {@code cacheControl}: the Cache-Control header of every keyed answer (config http.cache_control). */
  public Routes(Db db, String cacheControl) {
    this.db = db;
    this.cacheControl = cacheControl;
    this.schema = new SchemaWatch();
    router.setFallbackHandler(ex -> ErrorMapper.send(ex, ApiError.notFound("no such endpoint: " + ex.getRequestPath())));
    router.setInvalidMethodHandler(ex -> ErrorMapper.send(ex, ApiError.methodNotAllowed(ex.getRequestMethod().toString())));
  }

  /** An authenticated API route answering GET and HEAD. */
  public Routes api(String template, Scope scope, Set<String> tables, Endpoint endpoint) {
    Api api = new Api(scope, tables, endpoint);
    apis.put(template, api);
    return open(template, ex -> {
      ex.getResponseHeaders().put(Headers.CACHE_CONTROL, cacheControl);
      try (Connection c = db.read()) {
        c.setAutoCommit(false);
        try {
          Principal principal = Auth.authenticate(ex, c);
          Map<String, String> path = ex.getAttachment(PathTemplateMatch.ATTACHMENT_KEY).getParameters();
          Json.ok(ex, answer(api, principal, new Params(ex), path, c));
        } finally {
          c.rollback();
        }
      }
    });
  }

  /**
   * The answer of the API route {@code template} (as registered) for an authenticated caller,
   * read in a read transaction of its own: the 200 body, or the {@link ApiError} REST would send.
   */
  public Object call(String template, Principal principal, Params params, Map<String, String> path) throws Exception {
    Api api = apis.get(template);
    if (api == null) throw new IllegalArgumentException("no API route " + template);
    try (Connection c = db.read()) {
      c.setAutoCommit(false);
      try {
        return answer(api, principal, params, path, c);
      } finally {
        c.rollback();
      }
    }
  }

  /** The scope the API route {@code template} needs. */
  public Scope scope(String template) {
    Api api = apis.get(template);
    if (api == null) throw new IllegalArgumentException("no API route " + template);
    return api.scope();
  }

  private Object answer(Api api, Principal principal, Params params, Map<String, String> path, Connection c)
      throws Exception {
    if (!principal.scopes().contains(api.scope())) throw ApiError.forbidden(api.scope());
    schema.require(c, api.tables());
    return api.endpoint().answer(new Request(principal, params, path, c));
  }

  /** A route without a key (health, documentation). */
  public Routes open(String template, HttpHandler handler) {
    router.add("GET", template, handler);
    router.add("HEAD", template, handler);
    return this;
  }

  /** A route that takes any method and answers 405 itself where it must (POST /mcp). */
  public Routes anyMethod(String template, HttpHandler handler) {
    for (String method : new String[] {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}) {
      router.add(method, template, handler);
    }
    return this;
  }

  public HttpHandler handler() {
    return router;
  }
}
