package minutes.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import minutes.App;
import minutes.CliRun;
import minutes.Fixtures;
import minutes.OpenApiCheck;
import minutes.TestLines;
import minutes.TestStore;
import minutes.config.Config;
import minutes.json.Jackson;
import minutes.store.Sql;
import minutes.store.Times;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Change history retention (changes.retention_days, here 2 days) on the run's store: each import
 * prunes what is older, keeping the newest entry; a cursor from before the pruned history is 410
 * cursor_expired naming since; and a node whose search index stopped before it (stopped longer than
 * the history is kept) rebuilds its index instead of missing the changes that were pruned, and
 * never answers a search from the stale index meanwhile. History is aged by rewriting changed_at,
 * as days passing would.
 */
class RetentionTest {
  @TempDir Path dir;
  private TestStore store;
  private Path props;
  private String key;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void database() throws Exception {
    store = TestStore.create(dir);
    props = store.withFixtures(dir, "index.path=" + dir.resolve("index") + "\nchanges.retention_days=2\n");
    key = cli("keys", "create", "--workspace", "acme", "--scopes", "meetings:read").lastLine();
  }

  @AfterEach
  void drop() {
    store.close();
  }

  @Test
  void historyYoungerThanTheRetentionStaysAndOlderHistoryIsPruned() throws Exception {
    long entries = count("SELECT count(*) FROM change_log");
    age(Duration.ofDays(1));
    importLines(TestLines.meeting(new UUID(16, 1).toString(), "zqyoung"));
    assertEquals(entries + 1, count("SELECT count(*) FROM change_log"), "a day old: kept");
    assertEquals(0, count("SELECT pruned_through FROM change_state"));

    age(Duration.ofDays(3));
    importLines(TestLines.meeting(new UUID(16, 2).toString(), "zqold"));
    long newest = count("SELECT max(seq) FROM change_log");
    assertEquals(1, count("SELECT count(*) FROM change_log"), "three days old: pruned, but for this import's entry");
    assertEquals(newest - 1, count("SELECT pruned_through FROM change_state"));
    assertEquals(0, count("SELECT count(*) FROM change_feed WHERE seq < ?", newest));
  }

  @Test
  void aCursorFromBeforeThePrunedHistoryIs410AndAnIndexFromBeforeItIsRebuilt() throws Exception {
    // A node that stops now keeps this index, and this cursor is one of its clients'.
    Path stopped = dir.resolve("stopped-index");
    copyTree(dir.resolve("index"), stopped);
    String old;
    try (App node = node(dir.resolve("index"))) {
      old = json(get(node, "/api/v1/changes")).get("next_cursor").asText();
      assertEquals(200, get(node, "/api/v1/changes?since=" + old).statusCode());
    }
    // While it is away: a meeting is deleted, days pass, and an import prunes the history of that delete.
    importLines(TestLines.delete("meeting", "acme", Fixtures.M4));
    age(Duration.ofDays(3));
    String fresh = new UUID(16, 3).toString();
    importLines(TestLines.meeting(fresh, "zqfresh"));

    try (App node = node(stopped)) {
      HttpResponse<String> expired = get(node, "/api/v1/changes?since=" + old);
      assertEquals(410, expired.statusCode(), expired.body());
      JsonNode error = json(expired).get("error");
      assertEquals("cursor_expired", error.get("code").asText());
      assertEquals("since", error.get("field").asText());
      assertEquals(410, error.get("status").asInt());
      String now = json(get(node, "/api/v1/changes")).get("next_cursor").asText();
      assertEquals(200, get(node, "/api/v1/changes?since=" + now).statusCode(), "starting over works");

      // The stopped index still holds M4, and the entry that deleted it is pruned: the node must
      // rebuild, and no search may answer from the old index meanwhile.
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      HttpResponse<String> kickoff;
      do {
        kickoff = get(node, "/api/v1/search?q=kickoff");
        assertFalse(kickoff.body().contains(Fixtures.M4), "a hit from the stale index: " + kickoff.body());
        assertTrue(kickoff.statusCode() == 200 || kickoff.statusCode() == 503, kickoff.body());
      } while (kickoff.statusCode() != 200 && System.nanoTime() < deadline);
      assertEquals(200, kickoff.statusCode(), kickoff.body());
      assertEquals(0, json(kickoff).get("data").size());
      JsonNode found = json(get(node, "/api/v1/search?q=zqfreshtitle")).get("data");
      assertEquals(1, found.size());
      assertEquals(fresh, found.get(0).get("meeting_id").asText());
    }
  }

  // ------------------------------------------------------------------ helpers

  /** Makes every change so far look {@code age} old, as if that much time had passed since. */
  private void age(Duration age) throws Exception {
    String then = Times.format(Instant.now().minus(age));
    try (Connection c = store.store().write(); var st = c.prepareStatement("UPDATE change_log SET changed_at = ?");
        var feed = c.prepareStatement("UPDATE change_feed SET changed_at = ?")) {
      st.setString(1, then);
      st.executeUpdate();
      feed.setString(1, then);
      feed.executeUpdate();
    }
  }

  private long count(String sql, Object... values) throws Exception {
    try (Connection c = store.store().write()) {
      return new Sql(sql, values).count(c);
    }
  }

  private void importLines(String... lines) {
    cli("import", TestLines.file(dir, lines).toString());
  }

  private CliRun cli(String... args) {
    CliRun r = CliRun.of(props, args);
    assertEquals(0, r.code(), r.err());
    return r;
  }

  private App node(Path index) throws Exception {
    Map<String, String> env = new HashMap<>(store.env());
    env.putAll(Map.of("MINUTES_HTTP_PORT", "0", "MINUTES_INDEX_PATH", index.toString(), "MINUTES_SEARCH_WARMUP_MS", "0"));
    Path none = dir.resolve("node-" + UUID.randomUUID() + ".properties");
    return new App(Config.load(Files.createFile(none), env)).start();
  }

  /** GET with the test's key; the answer is checked against openapi.json like every other. */
  private HttpResponse<String> get(App node, String path) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port() + path))
        .header("Authorization", "Bearer " + key).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    OpenApiCheck.assertConforms("GET", URI.create(path).getRawPath(), r.statusCode(), r.headers(), r.body());
    return r;
  }

  private static JsonNode json(HttpResponse<String> r) throws Exception {
    return Jackson.MAPPER.readTree(r.body());
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (var files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(target);
        else if (!p.getFileName().toString().equals("write.lock")) Files.copy(p, target);
      }
    }
  }
}
