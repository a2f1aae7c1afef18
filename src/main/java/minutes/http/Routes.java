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
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import minutes.keys.ApiKeys;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.store.Db;
import minutes.store.Dialect;

/**
 * The route table. Every API route runs the checks in the order decisions.md fixes:
 * authentication (401), the key's rate limit (429), scope (403), schema availability (503),
 * then the endpoint, which validates its parameters (400) before looking anything up (404).
 * {@link #call} runs the same checks after authentication for a caller that is not an HTTP
 * request (MCP tools), so both answer alike. Thread-safe once built.
 */
public final class Routes {
  private final Db db;
  private final String cacheControl;
  private final RateLimit rateLimit;
  private final SchemaWatch schema;
  // Path parameters stay out of the query map, so "?id=" can never replace a path id.
  private final RoutingHandler router = new RoutingHandler(false);
  private final Map<String, Api> apis = new HashMap<>();
  /** {@link #anyMethod} routes by path: a method the router was not given (BREW, TRACE) goes to them too. */
  private final Map<String, HttpHandler> anyMethodRoutes = new HashMap<>();
  private final boolean answerAhead;
  private final KnownKeys knownKeys = new KnownKeys();
  private final LongAdder aheadSent = new LongAdder(), aheadRedone = new LongAdder();
  /**
   * Runs the key statements of requests answered ahead; each only waits for the database.
   * Platform threads, about as many as requests in flight, kept while in use: one waits in the
   * kernel for its socket, where a virtual thread's read takes an extra hand-off through the
   * JDK's poller.
   */
  private static final ExecutorService KEY_CHECKS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "key-check");
    t.setDaemon(true);
    return t;
  });

  /**
   * An API route: the scope it needs, the tables it reads, its endpoint, and whether its
   * statements read one snapshot (else statement by statement, {@link #apiByStatement}).
   */
  private record Api(Scope scope, Set<String> tables, Endpoint endpoint, boolean oneSnapshot) {
    /** The endpoint when it can answer ahead of the key check ({@link #apiByStatement}), else null. */
    Ahead.Endpoint ahead() {
      return !oneSnapshot && endpoint instanceof Ahead.Endpoint a ? a : null;
    }
  }

  /** A read on a request's connection, in one read transaction or statement by statement ({@link #read}). */
  @FunctionalInterface
  private interface Read<T> {
    T on(Connection c) throws Exception;
  }

  /** {@code cacheControl}: the Cache-Control header of every keyed answer (config http.cache_control). */
  public Routes(Db db, String cacheControl, RateLimit rateLimit) {
    this.db = db;
    // SQLite answers the key's statement in about 10 microseconds, less than handing it to a
    // thread; PostgreSQL is a round trip away (docs/CLUSTER.md, "Sizing").
    this.answerAhead = db.store().dialect() == Dialect.POSTGRES;
    this.cacheControl = cacheControl;
    this.rateLimit = rateLimit;
    this.schema = new SchemaWatch();
    router.setFallbackHandler(ex -> ErrorMapper.send(ex, ApiError.notFound("no such endpoint: " + ex.getRequestPath())));
    // The 405 of a path names the methods that path takes: an any-method route (POST /mcp) answers
    // every method itself, or fuzzing found BREW /mcp told to use GET and HEAD.
    router.setInvalidMethodHandler(ex -> {
      HttpHandler own = anyMethodRoutes.get(ex.getRequestPath().replaceFirst("(?<=.)/$", ""));
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
   *
   * <p>An {@link Ahead.Endpoint} here answers, on PostgreSQL, while the key's statement runs
   * instead of after it: for the principal the same key had at its last request here
   * ({@link KnownKeys}). The answer is sent only when the statement finds that principal and the
   * data version the answer assumed; otherwise the request is answered again as usual, and a key
   * over its rate limit is not answered ahead at all. The checks keep their order (401, 429,
   * 403, 503, then the endpoint's own). This hides the round trip (about 0.25 ms over loopback,
   * more to a managed server) behind the endpoint's own work.
   */
  public Routes apiByStatement(String template, Scope scope, Set<String> tables, Endpoint endpoint) {
    return api(template, scope, tables, endpoint, false);
  }

  private Routes api(String template, Scope scope, Set<String> tables, Endpoint endpoint, boolean oneSnapshot) {
    Api api = new Api(scope, tables, endpoint, oneSnapshot);
    apis.put(template, api);
    return open(template, ex -> {
      ex.getResponseHeaders().put(Headers.CACHE_CONTROL, cacheControl);
      Object body = read(api.oneSnapshot(), c -> answer(ex, api, c));
      Json.ok(ex, body);
    });
  }

  /** A keyed request's answer: its key checked, then the route's checks and endpoint. */
  private Object answer(HttpServerExchange ex, Api api, Connection c) throws Exception {
    Map<String, String> path = ex.getAttachment(PathTemplateMatch.ATTACHMENT_KEY).getParameters();
    Params params = new Params(ex);
    byte[] key = ApiKeys.hash(Auth.secret(ex)); // once: the guess and the statement both look it up
    boolean withDataVersion = schema.saw("change_log"), guessing = answerAhead && api.ahead() != null;
    Principal guess = guessing ? knownKeys.get(key) : null;
    Ahead ahead = null;
    Optional<ApiKeys.Resolved> resolved;
    if (guess == null || !rateLimit.wouldAdmit(guess.keyId())) {
      resolved = ApiKeys.resolveHashed(c, key, withDataVersion);
    } else {
      Future<Optional<ApiKeys.Resolved>> check = KEY_CHECKS.submit(() -> ApiKeys.resolveHashed(c, key, withDataVersion));
      try {
        ahead = api.ahead().ahead(guess, params);
      } finally {
        awaitQuietly(check); // the connection is the statement's until it is done, even on a failure here
      }
      resolved = result(check);
    }
    Principal found = resolved.map(ApiKeys.Resolved::principal).orElse(null);
    if (guessing && !Objects.equals(found, guess)) knownKeys.put(key, found);
    ApiKeys.Resolved caller = admit(ex, resolved);
    if (ahead != null) {
      if (!ahead.holdsFor(caller)) ahead = null;
      (ahead == null ? aheadRedone : aheadSent).increment();
    }
    return answer(api, caller.principal(), caller.dataVersion(), params, path, c, ahead);
  }

  /** The key's caller as its statement found it: 401 when it found none, 429 over its rate limit. */
  private ApiKeys.Resolved admit(HttpServerExchange ex, Optional<ApiKeys.Resolved> resolved) {
    ApiKeys.Resolved caller = Auth.admitted(ex, resolved);
    rateLimit.admit(ex, caller.principal().keyId());
    return caller;
  }

  private static void awaitQuietly(Future<?> f) {
    boolean interrupted = false;
    while (true) {
      try {
        f.get();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (ExecutionException e) {
        break; // its failure is reported by result()
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
  }

  /** A finished statement's result, or the exception it failed with (SQLException included). */
  private static <T> T result(Future<T> done) throws Exception {
    try {
      return done.resultNow();
    } catch (IllegalStateException failed) {
      Throwable cause = done.exceptionNow();
      if (cause instanceof Exception e) throw e;
      throw (Error) cause;
    }
  }

  /** Answers counted since the start: sent ahead of the key check, and answered again after it. */
  public long aheadSent() {
    return aheadSent.sum();
  }

  public long aheadRedone() {
    return aheadRedone.sum();
  }

  /**
   * The caller of a keyed request, admitted: its key resolved (401 otherwise) and counted
   * against its rate limit (429 when over it). Every keyed entry point, REST and /mcp, comes here.
   */
  public Principal admit(HttpServerExchange ex, Connection c) throws SQLException {
    return admit(ex, ApiKeys.resolve(c, Auth.secret(ex), false)).principal();
  }


  /**
   * {@link #admit} on a connection of its own, for a caller that reads nothing else (/mcp): one
   * statement, so no transaction (one round trip fewer on PostgreSQL, as {@link #apiByStatement}).
   */
  public Principal admit(HttpServerExchange ex) throws Exception {
    return read(false, c -> admit(ex, c));
  }

  /**
   * The answer of the API route {@code template} (as registered) for an admitted caller, read
   * on a connection of its own as the route reads (one snapshot, or statement by statement):
   * the 200 body, or the {@link ApiError} REST would send.
   */
  public Object call(String template, Principal principal, Params params, Map<String, String> path) throws Exception {
    Api api = apis.get(template);
    if (api == null) throw new IllegalArgumentException("no API route " + template);
    return read(api.oneSnapshot(), c -> answer(api, principal, OptionalLong.empty(), params, path, c, null));
  }

  /** The scope the API route {@code template} needs. */
  public Scope scope(String template) {
    Api api = apis.get(template);
    if (api == null) throw new IllegalArgumentException("no API route " + template);
    return api.scope();
  }

  /** The route's answer after the checks; {@code ahead}: the answer made ahead that holds, or null. */
  private Object answer(Api api, Principal principal, OptionalLong dataVersion, Params params,
      Map<String, String> path, Connection c, Ahead ahead) throws Exception {
    if (!principal.scopes().contains(api.scope())) throw ApiError.forbidden(api.scope());
    schema.require(c, api.tables());
    if (ahead != null) return ahead.get();
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
}
