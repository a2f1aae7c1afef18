package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.EnumSet;
import minutes.App;
import minutes.config.Config;
import minutes.keys.Scope;
import minutes.keys.ApiKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** api-spec section 7: an endpoint whose tables a pending migration would create answers 503 until it is applied. */
class PendingMigrationTest {
  @TempDir Path dir;

  @Test
  void taskEndpointsAre503UntilMigrateRunsThenServeWithoutRestart() throws Exception {
    Path db = dir.resolve("minutes.db");
    Migrations.migrateTo(db, "1");
    String key;
    try (Connection c = Db.openWriter(db)) {
      c.createStatement().execute("INSERT INTO workspace(slug, name) VALUES ('acme', 'Acme')");
      key = ApiKeys.create(c, "acme", EnumSet.allOf(Scope.class), null, null).secret();
    }
    Config config = new Config("127.0.0.1", 0, db, dir.resolve("index"), false, 2, false, "private, no-store", false, 10, java.util.List.of(), null);
    try (App app = new App(config).start()) {
      HttpClient client = HttpClient.newHttpClient();
      String base = "http://127.0.0.1:" + app.port();
      for (String path : new String[] {"/api/v1/action-items", "/api/v1/meetings/" + java.util.UUID.randomUUID() + "/action-items"}) {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(base + path))
            .header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(503, r.statusCode(), r.body());
        assertNotNull(r.headers().firstValue("Retry-After").orElse(null));
        assertEquals("unavailable", minutes.http.Json.MAPPER.readTree(r.body()).at("/error/code").asText());
        // Without a key it is still 401 first.
        assertEquals(401, client.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
            HttpResponse.BodyHandlers.ofString()).statusCode());
      }
      HttpResponse<String> meetings = client.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/meetings"))
          .header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, meetings.statusCode(), "endpoints with all their tables keep working");

      Migrations.migrate(db);
      // No wait: SchemaWatch re-reads the schema at once when a table it needs is missing.
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/action-items"))
          .header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), r.body());
    }
  }
}
