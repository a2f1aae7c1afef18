package minutes.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import minutes.TestStore;
import minutes.keys.ApiKeys;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.store.Db;
import minutes.store.Migrations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Answers made ahead of the key check ({@link Routes#apiByStatement} with an
 * {@link Ahead.Endpoint}), over the real routing, pool and store: on PostgreSQL a known key's
 * request is answered ahead when its statement confirms the principal and the data version the
 * answer assumed; after a new data version, a revoked key or a key over its rate limit the
 * answer is the usual one (or the usual refusal), never the one made ahead. On SQLite nothing
 * is answered ahead.
 */
class AheadTest {
  @TempDir Path dir;
  private TestStore testStore;
  private Db db;
  private HandlerServer server;
  private Routes routes;
  private ApiKeys.Created key;
  private final AtomicInteger madeAhead = new AtomicInteger();
  /** The data version the probe's answers ahead assume. */
  private volatile long assumed;

  /** Answers its data version as usual, and "ahead at" the assumed one ahead; refuses "bad" either way. */
  private final Ahead.Endpoint probe = new Ahead.Endpoint() {
    @Override
    public Object answer(Request r) {
      if (r.params().first("bad").isPresent()) throw ApiError.badParam("bad", "refused");
      return "usual at " + r.versionSeen().orElse(-1);
    }

    @Override
    public Ahead ahead(Principal principal, Params params) {
      madeAhead.incrementAndGet();
      if (params.first("bad").isPresent()) return Ahead.refusal(principal, ApiError.badParam("bad", "refused ahead"));
      return Ahead.answer(principal, "ahead at " + assumed, assumed);
    }
  };

  @BeforeEach
  void migrate() throws Exception {
    testStore = TestStore.create(dir);
    Migrations.migrate(testStore.store());
    try (Connection c = testStore.store().write()) {
      c.createStatement().execute("INSERT INTO workspace(slug, name) VALUES ('acme', 'Acme')");
      key = ApiKeys.create(c, "acme", EnumSet.of(Scope.MEETINGS_READ), null, "probe");
    }
    db = Db.open(testStore.store(), 2, Duration.ofSeconds(5));
  }

  private void serve(int ratePerMinute) {
    routes = new Routes(db, "no-store", new RateLimit(ratePerMinute))
        .apiByStatement("/probe", Scope.MEETINGS_READ, Set.of("change_log"), probe);
    server = new HandlerServer(new ErrorMapper(new Metrics(db, () -> null, () -> 0), routes.handler()));
  }

  @AfterEach
  void stop() {
    if (server != null) server.close();
    if (db != null) db.close();
    if (testStore != null) testStore.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return server.get(path, Duration.ofSeconds(10), "Authorization", "Bearer " + key.secret());
  }

  private String ok(String path) throws Exception {
    HttpResponse<String> answer = get(path);
    assertEquals(200, answer.statusCode(), answer.body());
    return answer.body();
  }

  private long newVersion() throws Exception {
    try (Connection c = testStore.store().write()) {
      c.createStatement().execute("INSERT INTO change_log(meeting_id, changed_at) VALUES ('m1', '2026-11-26T00:00:00Z')");
      return Db.dataVersion(c);
    }
  }

  @Test
  void aKnownKeyIsAnsweredAheadOnlyAtTheVersionItsStatementReads() throws Exception {
    serve(0);
    long v1 = newVersion();
    assumed = v1;
    ok("/probe"); // the first request of the key and of the schema's look: no guess, no version read
    if (!testStore.isPostgres()) {
      assertEquals("\"usual at " + v1 + "\"", ok("/probe"));
      assertEquals(0, madeAhead.get(), "SQLite answers the key's statement sooner than a thread could start");
      return;
    }
    assertEquals("\"ahead at " + v1 + "\"", ok("/probe"), "the key is known from its first request");
    long v2 = newVersion();
    assertEquals("\"usual at " + v2 + "\"", ok("/probe"), "the statement read a newer version than the answer assumed");
    assumed = v2;
    assertEquals("\"ahead at " + v2 + "\"", ok("/probe"));
    assertEquals(2, routes.aheadSent());
    assertEquals(1, routes.aheadRedone());
  }

  @Test
  void aRevokedKeyIsRefusedBeforeWhatWasMadeAheadForIt() throws Exception {
    serve(0);
    assumed = newVersion();
    ok("/probe");
    ok("/probe");
    assertEquals(400, get("/probe?bad=1").statusCode(), "a refusal holds at any version");
    try (Connection c = testStore.store().write()) {
      ApiKeys.revoke(c, key.id());
    }
    int before = madeAhead.get();
    assertEquals(401, get("/probe?bad=1").statusCode(), "401 comes before the endpoint's 400");
    assertEquals(401, get("/probe").statusCode());
    assertEquals(testStore.isPostgres() ? before + 1 : 0, madeAhead.get(), "a key refused once is no longer known");
  }

  @Test
  void aKeyOverItsRateLimitIsNotAnsweredAhead() throws Exception {
    serve(1); // one request a minute: the second is over the limit
    assumed = newVersion();
    ok("/probe");
    assertEquals(429, get("/probe").statusCode());
    assertEquals(0, madeAhead.get(), "no work for a request that will be refused");
  }
}
