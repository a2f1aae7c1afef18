package minutes.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import minutes.TestStore;
import minutes.keys.ApiKeys;
import minutes.keys.Scope;
import minutes.store.DataWatch;
import minutes.store.Db;
import minutes.store.Migrations;
import minutes.store.Sql;
import minutes.store.Store;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A route's statements share one snapshot, so that a count and its page agree while another
 * process commits; a route read statement by statement ({@link Routes#apiByStatement}, search)
 * sees each commit at its next statement. Both on the real server's connections and routing.
 */
class ReadSnapshotTest {
  @TempDir Path dir;
  private TestStore testStore;
  private Db db;
  private HandlerServer server;
  private String key;

  @BeforeEach
  void start() throws Exception {
    testStore = TestStore.create(dir);
    Store store = testStore.store();
    Migrations.migrate(store);
    try (Connection c = store.write()) {
      c.createStatement().execute("CREATE TABLE snapshot_probe (n INTEGER NOT NULL)");
      c.createStatement().execute("INSERT INTO workspace(slug, name) VALUES ('acme', 'Acme')");
      key = ApiKeys.create(c, "acme", EnumSet.of(Scope.MEETINGS_READ), null, "probe").secret();
    }
    db = Db.open(store, 2, Duration.ofSeconds(5));
    Routes routes = new Routes(db, "no-store", 0, DataWatch.NONE)
        .api("/together", Scope.MEETINGS_READ, Set.of(), this::countAroundACommit)
        .apiByStatement("/apart", Scope.MEETINGS_READ, Set.of(), this::countAroundACommit);
    server = new HandlerServer(routes.handler());
  }

  /** Counts the probe's rows, commits one more on another connection, counts again. */
  private Object countAroundACommit(Request r) throws SQLException {
    long before = new Sql("SELECT count(*) FROM snapshot_probe").count(r.db());
    try (Connection writer = testStore.store().write()) {
      writer.createStatement().execute("INSERT INTO snapshot_probe VALUES (1)");
    }
    long after = new Sql("SELECT count(*) FROM snapshot_probe").count(r.db());
    return List.of(before, after);
  }

  @AfterEach
  void stop() {
    if (server != null) server.close();
    if (db != null) db.close();
    if (testStore != null) testStore.close();
  }

  private String get(String path) throws Exception {
    HttpResponse<String> answer = server.get(path, Duration.ofSeconds(10), "Authorization", "Bearer " + key);
    assertEquals(200, answer.statusCode(), answer.body());
    return answer.body();
  }

  @Test
  void aRouteReadsInOneSnapshot() throws Exception {
    assertEquals("[0,0]", get("/together"), "the commit in between is not seen by the second count");
    assertEquals("[1,1]", get("/together"), "the next request sees it");
  }

  @Test
  void aRouteReadStatementByStatementSeesEachCommit() throws Exception {
    assertEquals("[0,1]", get("/apart"));
    assertEquals("[1,2]", get("/apart"));
  }
}
