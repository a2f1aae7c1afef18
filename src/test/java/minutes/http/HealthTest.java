package minutes.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import minutes.TestStore;
import minutes.store.Db;
import minutes.store.Migrations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * /healthz answers at once while background work holds every background connection of a
 * PostgreSQL node (right after a start the list orders are built on them for about a second,
 * and a health check that waited for one answered late, or 503 after the pool's wait).
 */
class HealthTest {
  @TempDir Path dir;

  @Test
  void answersWhileBackgroundWorkHoldsItsConnections() throws Exception {
    try (TestStore testStore = TestStore.create(dir)) {
      assumeTrue(testStore.isPostgres(), "SQLite serves requests and background work from one pool");
      Migrations.migrate(testStore.store());
      try (Db db = Db.open(testStore.store(), 2, Duration.ofSeconds(5))) {
        List<Connection> held = new ArrayList<>();
        try {
          for (int i = 0; i < Db.BACKGROUND_CONNECTIONS; i++) held.add(db.read());
          try (HandlerServer server = new HandlerServer(new Health(db, () -> null))) {
            HttpResponse<String> answer = server.get("/healthz", Duration.ofSeconds(2));
            assertEquals(200, answer.statusCode(), answer.body());
            assertEquals("{\"status\":\"ok\"}", answer.body());
          }
        } finally {
          for (Connection c : held) c.close();
        }
      }
    }
  }
}
