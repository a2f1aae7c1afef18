package minutes.http;

import minutes.keys.Scope;
import io.undertow.server.HttpHandler;
import io.undertow.server.RoutingHandler;
import io.undertow.util.Headers;
import java.sql.Connection;
import java.util.Set;
import minutes.keys.Principal;
import minutes.store.Db;

/**
 * The route table. Every API route runs the checks in the order decisions.md fixes:
 * authentication (401), the key's rate limit (429), scope (403), schema availability (503),
 * then the endpoint, which validates its parameters (400) before looking anything up (404).
 */
public final class Routes {
  private final Db db;
  private final String cacheControl;
  private final RateLimit rateLimit;
  private final SchemaWatch schema;
  // Path parameters stay out of the query map, so "?id=" can never replace a path id.
  private final RoutingHandler router = new RoutingHandler(false);

  /** {@code cacheControl}: the Cache-Control header of every keyed answer (config http.cache_control). */
  public Routes(Db db, String cacheControl, RateLimit rateLimit) {
    this.db = db;
    this.cacheControl = cacheControl;
    this.rateLimit = rateLimit;
    this.schema = new SchemaWatch();
    router.setFallbackHandler(ex -> ErrorMapper.send(ex, ApiError.notFound("no such endpoint: " + ex.getRequestPath())));
    router.setInvalidMethodHandler(ex -> ErrorMapper.send(ex, ApiError.methodNotAllowed(ex.getRequestMethod().toString())));
  }

  /** An authenticated API route answering GET and HEAD. */
  public Routes api(String template, Scope scope, Set<String> tables, Endpoint endpoint) {
    return open(template, ex -> {
      ex.getResponseHeaders().put(Headers.CACHE_CONTROL, cacheControl);
      try (Connection c = db.readForRequest()) {
        c.setAutoCommit(false);
        try {
          Principal principal = Auth.authenticate(ex, c);
          ex.putAttachment(AccessLog.KEY_ID, principal.keyId());
          rateLimit.admit(ex, principal.keyId());
          if (!principal.scopes().contains(scope)) throw ApiError.forbidden(scope);
          schema.require(c, tables);
          Json.ok(ex, endpoint.answer(new Request(ex, principal, new Params(ex), c)));
        } catch (Throwable failed) {
          // A connection the database cut (PostgreSQL gone) fails its rollback too: the first
          // failure says what happened, so it is the one that travels on to the error mapper.
          try {
            c.rollback();
          } catch (java.sql.SQLException alsoFailed) {
            failed.addSuppressed(alsoFailed);
          }
          throw failed;
        }
        c.rollback();
      }
    });
  }

  /** A route without a key (health, documentation). */
  public Routes open(String template, HttpHandler handler) {
    router.add("GET", template, handler);
    router.add("HEAD", template, handler);
    return this;
  }

  public HttpHandler handler() {
    return router;
  }
}
