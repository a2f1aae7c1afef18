package minutes.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RoutingHandler;
import io.undertow.util.Headers;
import io.undertow.util.PathTemplateMatch;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import minutes.keys.ApiKeys;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.store.Db;

/**
 * The route table, and the one way from a keyed route to its endpoint: the request passes
 * {@link Admission} (key 401, rate limit 429, scope 403, schema 503), then the endpoint checks its
 * parameters (400) before it looks anything up (404), all on one request connection. An MCP
 * tool call comes the same way through {@link #call}, its caller admitted by {@link #caller}.
 * Thread-safe once built.
 */
public final class Routes {
  private final Db db;
  private final String cacheControl;
  private final Admission admission;
  // Path parameters stay out of the query map, so "?id=" can never replace a path id.
  private final RoutingHandler router = new RoutingHandler(false);
  private final Map<String, Api> apis = new HashMap<>();
  /** {@link #anyMethod} routes by path: a method the router was not given (BREW, TRACE) goes to them too. */
  private final Map<String, HttpHandler> anyMethodRoutes = new HashMap<>();
  /** Where an {@link Answer} sends its request to be answered anew ({@link #answerAgainThrough}). */
  private HttpHandler again = router;

  /**
   * An API route: the scope it needs, the tables it reads, its endpoint, and whether its
   * statements read one snapshot (else statement by statement, {@link #apiByStatement}).
   */
  private record Api(Scope scope, Set<String> tables, Endpoint endpoint, boolean oneSnapshot) {}

  /** A read on a request's connection, in one read transaction or statement by statement ({@link #read}). */
  @FunctionalInterface
  private interface Read<T> {
    T on(Connection c) throws Exception;
  }

  /**
   * {@code cacheControl}: the Cache-Control header of every keyed answer (config
   * http.cache_control); {@code rateLimitPerMinute}: each key's quota (config
   * http.rate_limit_per_minute, 0 for none), one for every keyed entry point these routes serve,
   * so that a key has one quota however it asks.
   */
  public Routes(Db db, String cacheControl, int rateLimitPerMinute) {
    this.db = db;
    this.cacheControl = cacheControl;
    this.admission = new Admission(rateLimitPerMinute, System::nanoTime);
    router.setFallbackHandler(ex -> ErrorMapper.send(ex, ApiError.notFound("no such endpoint: " + ex.getRequestPath())));
    // The 405 of a path names the methods that path takes: an any-method route (POST /mcp) answers
    // every method itself, or fuzzing found BREW /mcp told to use GET and HEAD.
    router.setInvalidMethodHandler(ex -> {
      HttpHandler own = anyMethodRoutes.get(trimmed(ex.getRequestPath()));
      if (own != null) {
        own.handleRequest(ex);
      } else {
        ErrorMapper.send(ex, ApiError.methodNotAllowed(ex.getRequestMethod().toString()));
      }
    });
  }

  /** An authenticated API route answering GET and HEAD, its statements in one read transaction. */
  public Routes api(String template, Scope scope, Set<String> tables, Endpoint endpoint) {
    return api(template, scope, tables, endpoint, true);
  }

  /**
   * An authenticated API route whose statements need no snapshot in common: each reads the
   * newest committed data and no transaction is ended afterwards, which on PostgreSQL is one
   * round trip fewer per request (the ROLLBACK: about 0.1 ms over loopback, docs/BENCHMARKS.md).
   * Only for an endpoint whose answer stays right when a later statement sees newer data than
   * an earlier one, as search's does: it reads the data version with the key, and a later look
   * at what changed since its index can only leave out more.
   */
  public Routes apiByStatement(String template, Scope scope, Set<String> tables, Endpoint endpoint) {
    return api(template, scope, tables, endpoint, false);
  }

  private Routes api(String template, Scope scope, Set<String> tables, Endpoint endpoint, boolean oneSnapshot) {
    Api api = new Api(scope, tables, endpoint, oneSnapshot);
    apis.put(template, api);
    return open(template, ex -> {
      ex.getResponseHeaders().put(Headers.CACHE_CONTROL, cacheControl);
      Map<String, String> path = ex.getAttachment(PathTemplateMatch.ATTACHMENT_KEY).getParameters();
      Object body = read(api.oneSnapshot(), c -> {
        ApiKeys.Resolved caller = admission.callerWithDataVersion(ex, c);
        return answer(api, caller.principal(), caller.dataVersion(), new Params(ex.getQueryParameters()), path, c);
      });
      if (body instanceof Answer own) own.send(ex, again);
      else Json.ok(ex, body);
    });
  }

  /**
   * The handler that answers a request anew for an {@link Answer} (a held long-poll woken):
   * the one that maps errors in front of {@link #handler()}, so the second answer is mapped as
   * the first. Call once, before the server starts.
   */
  public Routes answerAgainThrough(HttpHandler handler) {
    this.again = handler;
    return this;
  }

  /**
   * The admitted caller of a keyed request that reads nothing else (POST /mcp): one statement
   * on a connection of its own, so no transaction (one round trip fewer on PostgreSQL).
   */
  public Principal caller(HttpServerExchange ex) throws Exception {
    return read(false, c -> admission.caller(ex, c));
  }

  /** A route any valid key may ask, whatever its scopes (/metrics with metrics.require_key). */
  public Routes keyed(String template, HttpHandler handler) {
    return open(template, ex -> {
      caller(ex);
      handler.handleRequest(ex);
    });
  }

  /**
   * The answer of the API route {@code template} (as registered) for an admitted caller, read
   * on a connection of its own as the route reads (one snapshot, or statement by statement):
   * the 200 body, or the {@link ApiError} REST would send.
   */
  public Object call(String template, Principal principal, Params params, Map<String, String> path) throws Exception {
    Api api = registered(template);
    return read(api.oneSnapshot(), c -> answer(api, principal, OptionalLong.empty(), params, path, c));
  }

  /** The scope the API route {@code template} needs. */
  public Scope scope(String template) {
    return registered(template).scope();
  }

  private Api registered(String template) {
    Api api = apis.get(template);
    if (api == null) throw new IllegalArgumentException("no API route " + template);
    return api;
  }

  /** The route's answer for a caller whose key is admitted: the route's checks, then its endpoint. */
  private Object answer(Api api, Principal principal, OptionalLong dataVersion, Params params,
      Map<String, String> path, Connection c) throws Exception {
    admission.allow(principal, api.scope(), api.tables(), c);
    return api.endpoint().answer(new Request(principal, params, path, c, dataVersion));
  }

  /**
   * Runs {@code read} on a request connection (its statements time limited): with {@code
   * oneSnapshot} in one read transaction, so that a count and its page see the same snapshot,
   * and ends it; otherwise each statement on its own (see {@link #apiByStatement}).
   */
  private <T> T read(boolean oneSnapshot, Read<T> read) throws Exception {
    try (Connection c = db.readForRequest()) {
      if (!oneSnapshot) return read.on(c);
      c.setAutoCommit(false);
      T result;
      try {
        result = read.on(c);
      } catch (Throwable failed) {
        // A connection the database cut (PostgreSQL gone) fails its rollback too: the first
        // failure says what happened, so it is the one that travels on to the error mapper.
        try {
          c.rollback();
        } catch (SQLException alsoFailed) {
          failed.addSuppressed(alsoFailed);
        }
        throw failed;
      }
      c.rollback();
      return result;
    }
  }

  /** A route without a key (health, documentation). */
  public Routes open(String template, HttpHandler handler) {
    router.add("GET", template, handler);
    router.add("HEAD", template, handler);
    return this;
  }

  /** A route that takes any method and answers 405 itself where it must (POST /mcp). */
  public Routes anyMethod(String template, HttpHandler handler) {
    anyMethodRoutes.put(template, handler);
    for (String method : new String[] {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}) {
      router.add(method, template, handler);
    }
    return this;
  }

  public HttpHandler handler() {
    return router;
  }

  /** A path as the router matches it: "/healthz/" is "/healthz". */
  static String trimmed(String path) {
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
