package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import minutes.App;
import minutes.TestStore;
import minutes.config.Config;
import minutes.json.Jackson;
import minutes.keys.ApiKeys;
import minutes.keys.Scope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * api-spec section 7: an endpoint whose tables or columns a pending migration would create
 * answers 503 until it is applied, then serves without a restart.
 */
class PendingMigrationTest {
  private static final String MEETING = "6f1c2a3b-0000-4000-8000-000000000001";

  @TempDir Path dir;

  private final HttpClient client = HttpClient.newHttpClient();

  @Test
  void taskEndpointsAre503UntilTheirTablesAreMigratedThenServeWithoutRestart() throws Exception {
    try (TestStore testStore = TestStore.create(dir)) {
      Store db = testStore.store();
      Migrations.migrateTo(db, "1");
      String key = workspaceAndKey(db);
      try (App app = serveWithoutMigrating(testStore)) {
        assertTaskEndpointsUnavailable(app, key);
        assertEquals(404, get(app, "/api/v1/meetings/" + MEETING + "/transcript", key).statusCode(),
            "endpoints with all their tables keep working");

        Migrations.migrate(db);
        // No wait: Admission re-reads the schema at once when something it needs is missing.
        HttpResponse<String> r = get(app, "/api/v1/action-items", key);
        assertEquals(200, r.statusCode(), r.body());
      }
    }
  }

  /**
   * V6 only adds a column (each task's meeting title): until it runs the task endpoints answer
   * 503, not a 500 from a query naming a missing column; then tasks written before it answer
   * with the title copied from their meeting.
   */
  @Test
  void aMigrationThatAddsAColumnIs503UntilAppliedAndFillsItForEarlierRows() throws Exception {
    try (TestStore testStore = TestStore.create(dir)) {
      Store db = testStore.store();
      Migrations.migrateTo(db, "5");
      String key = workspaceAndKey(db);
      try (Connection c = db.write()) {
        c.createStatement().execute("""
            INSERT INTO meeting(id, workspace_id, title, title_folded, platform, source, status, starts_at,
              created_at, sort_at)
            SELECT '%s', id, 'Weekly Review', 'weekly review', 'zoom', 'calendar', 'completed',
              '2026-03-02T10:00:00Z', '2026-03-01T09:00:00Z', '2026-03-02T10:00:00Z' FROM workspace""".formatted(MEETING));
        c.createStatement().execute("""
            INSERT INTO protocol(id, meeting_id, content_md, generated_at, is_current)
            VALUES ('6f1c2a3b-0000-4000-8000-000000000002', '%s', '# Minutes', '2026-03-02T11:00:00Z', 1)"""
            .formatted(MEETING));
        c.createStatement().execute("""
            INSERT INTO action_item(id, protocol_id, meeting_id, workspace_id, position, task, owner_name, due,
              due_key, verdict, status, is_current, meeting_starts_at)
            SELECT '6f1c2a3b-0000-4000-8000-000000000003', '6f1c2a3b-0000-4000-8000-000000000002', '%s', id, 0,
              'Send the budget', 'Ana', '2026-03-09', '2026-03-09', 'open', 'open', 1, '2026-03-02T10:00:00Z'
            FROM workspace""".formatted(MEETING));
      }
      try (App app = serveWithoutMigrating(testStore)) {
        assertTaskEndpointsUnavailable(app, key);

        Migrations.migrate(db);
        HttpResponse<String> r = get(app, "/api/v1/action-items", key);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode task = Jackson.MAPPER.readTree(r.body()).at("/data/0");
        assertEquals("Send the budget", task.get("task").asText());
        assertEquals(MEETING, task.get("meeting_id").asText());
        assertEquals("Weekly Review", task.get("meeting_title").asText());
        assertEquals("2026-03-02T10:00:00Z", task.get("meeting_starts_at").asText());
        assertEquals(1, Jackson.MAPPER.readTree(r.body()).at("/pagination/total").asInt());
      }
    }
  }

  /**
   * V9 adds each meeting's language: until it runs the meeting endpoints and search answer 503;
   * then a meeting written before it is {@code und}.
   */
  @Test
  void meetingsAre503UntilTheirLanguageIsMigratedThenEarlierMeetingsAreUnd() throws Exception {
    try (TestStore testStore = TestStore.create(dir)) {
      Store db = testStore.store();
      Migrations.migrateTo(db, "8");
      String key = workspaceAndKey(db);
      try (Connection c = db.write()) {
        c.createStatement().execute("""
            INSERT INTO meeting(id, workspace_id, title, title_folded, platform, source, status, starts_at,
              created_at, sort_at)
            SELECT '%s', id, 'Weekly Review', 'weekly review', 'zoom', 'calendar', 'ready',
              '2026-03-02T10:00:00Z', '2026-03-01T09:00:00Z', '2026-03-02T10:00:00Z' FROM workspace""".formatted(MEETING));
      }
      try (App app = serveWithoutMigrating(testStore)) {
        for (String path : List.of("/api/v1/meetings", "/api/v1/meetings/" + MEETING, "/api/v1/search?q=weekly",
            "/api/v1/customers")) {
          HttpResponse<String> r = get(app, path, key);
          assertEquals(503, r.statusCode(), path + ": " + r.body());
        }
        Migrations.migrate(db);
        HttpResponse<String> r = get(app, "/api/v1/meetings/" + MEETING, key);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("und", Jackson.MAPPER.readTree(r.body()).get("language").asText());
        r = get(app, "/api/v1/meetings?language=und", key);
        assertEquals(MEETING, Jackson.MAPPER.readTree(r.body()).at("/data/0/id").asText(), r.body());
      }
    }
  }

  private static String workspaceAndKey(Store db) throws Exception {
    try (Connection c = db.write()) {
      c.createStatement().execute("INSERT INTO workspace(slug, name) VALUES ('acme', 'Acme')");
      return ApiKeys.create(c, "acme", EnumSet.allOf(Scope.class), null, null).secret();
    }
  }

  private App serveWithoutMigrating(TestStore testStore) throws Exception {
    Map<String, String> env = new HashMap<>(testStore.env());
    env.putAll(Map.of("MINUTES_HTTP_PORT", "0", "MINUTES_INDEX_PATH", dir.resolve("index").toString(),
        "MINUTES_DB_AUTO_MIGRATE", "false"));
    Config config = Config.load(Files.createFile(dir.resolve("none.properties")), env);
    return new App(config).start();
  }

  private void assertTaskEndpointsUnavailable(App app, String key) throws Exception {
    for (String path : new String[] {"/api/v1/action-items", "/api/v1/meetings/" + UUID.randomUUID() + "/action-items"}) {
      HttpResponse<String> r = get(app, path, key);
      assertEquals(503, r.statusCode(), r.body());
      assertNotNull(r.headers().firstValue("Retry-After").orElse(null));
      assertEquals("unavailable", Jackson.MAPPER.readTree(r.body()).at("/error/code").asText());
      // Without a key it is still 401 first.
      assertEquals(401, get(app, path, null).statusCode());
    }
  }

  private HttpResponse<String> get(App app, String path, String key) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path));
    if (key != null) b.header("Authorization", "Bearer " + key);
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
