package minutes.search.index;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import minutes.App;
import minutes.RunsAlone;
import minutes.TestStore;
import minutes.config.Config;
import minutes.json.Jackson;
import minutes.store.Migrations;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * /healthz of a real server while its index is rebuilt because its format changed (issue 31):
 * it names why ("being rebuilt, since it was written by another version of Lucene"), in the words
 * of search's own 503, not "not built yet"; once the rebuild is done it is 200.
 *
 * <p>The rebuild is held without a sleep or a hook: the server starts, as after an upgrade with
 * {@code db.auto_migrate=false}, on a database whose migrations are pending (no change_log yet),
 * so every rebuild fails and is retried every 2 s until the test migrates the database. Such a
 * server starts without waiting out the seconds it gives a first build that could succeed.
 */
@RunsAlone("the server starts within 5 s while its first build fails")
class HealthWhileRebuildingTest {
  @TempDir Path dir;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @ParameterizedTest
  @EnumSource(value = OtherFormat.class, names = {"OTHER_LUCENE_VERSION", "UNKNOWN_CODEC"})
  void healthzSaysWhyTheIndexIsRebuiltThenTurnsHealthy(OtherFormat other) throws Exception {
    try (TestStore store = TestStore.create(dir)) {
      Migrations.migrateTo(store.store(), "1");
      Path root = dir.resolve("index");
      String old = generationOf(root, other);
      long starting = System.nanoTime();
      try (App app = serve(store)) {
        long startMillis = (System.nanoTime() - starting) / 1_000_000;
        assertTrue(startMillis < SearchIndex.FIRST_BUILD_WAIT_MILLIS,
            "a failed first build ends the start's wait for it; started in " + startMillis + " ms");
        HttpResponse<String> pending = get(app, "/healthz");
        assertEquals(503, pending.statusCode(), pending.body());
        assertEquals("5", pending.headers().firstValue("Retry-After").orElse(null));
        assertEquals("application/json; charset=utf-8", pending.headers().firstValue("Content-Type").orElse(null));
        JsonNode body = Jackson.MAPPER.readTree(pending.body());
        assertEquals(List.of("error"), fieldNames(body), pending.body());
        JsonNode error = body.get("error");
        assertEquals(List.of("status", "code", "field", "message"), fieldNames(error), pending.body());
        assertEquals(503, error.get("status").asInt());
        assertEquals("unavailable", error.get("code").asText());
        assertTrue(error.get("field").isNull(), pending.body());
        assertEquals("search index: being rebuilt, since " + other.differs(), error.get("message").asText());

        Migrations.migrate(store.store()); // the next round of the sync thread rebuilds
        HttpResponse<String> healthy = awaitHealthy(app, Duration.ofSeconds(60));
        assertEquals("{\"status\":\"ok\"}", healthy.body());
        String now = IndexDirs.current(root);
        assertNotEquals(old, now, "rebuilt, not opened");
        IndexFormat.check(root.resolve(now));
      }
    }
  }

  /** A live generation under {@code root} as a server before the upgrade left it, then made of the other format. */
  private static String generationOf(Path root, OtherFormat other) throws Exception {
    Path gen = IndexDirs.createNext(root);
    try (Generation g = Generation.create(gen)) {
      g.commit(0);
    }
    String name = gen.getFileName().toString();
    IndexDirs.flip(root, name);
    other.applyTo(gen);
    return name;
  }

  private App serve(TestStore store) throws Exception {
    Map<String, String> env = new HashMap<>(store.env());
    env.putAll(Map.of("MINUTES_HTTP_PORT", "0", "MINUTES_INDEX_PATH", dir.resolve("index").toString(),
        "MINUTES_DB_AUTO_MIGRATE", "false"));
    return new App(Config.load(Files.createFile(dir.resolve("none.properties")), env)).start();
  }

  /** Polls /healthz until it is 200; fails past {@code timeout}, with the last answer. */
  private HttpResponse<String> awaitHealthy(App app, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      HttpResponse<String> r = get(app, "/healthz");
      if (r.statusCode() == 200) return r;
      assertEquals(503, r.statusCode(), r.body());
      if (System.nanoTime() > deadline) fail("/healthz still " + r.statusCode() + " after " + timeout + ": " + r.body());
      Thread.sleep(50); // a poll interval, not a wait for the rebuild: the deadline bounds that
    }
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private HttpResponse<String> get(App app, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
