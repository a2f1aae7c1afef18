package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import minutes.TestStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read-only indexes an import into empty tables builds after its rows ({@link
 * DeferredIndexes}, SQLite): dropped inside the import's transaction only where the table is
 * still empty, created again with the same definitions before the commit, and as they were
 * after an import that fails. On a SQLite file in both store runs: PostgreSQL defers nothing.
 */
class DeferredIndexesTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void droppedOnlyWhileTheirTableIsEmptyAndBuiltAgainTheSame() throws Exception {
    try (TestStore test = TestStore.createSqlite(dir)) {
      Store store = test.store();
      Map<String, String> schema = migratedIndexes(store);
      assertTrue(schema.keySet().containsAll(DeferredIndexes.SQLITE), "the deferred indexes exist: " + schema.keySet());

      try (Connection c = store.write()) {
        c.setAutoCommit(false);
        DeferredIndexes deferred = DeferredIndexes.dropOnEmptyTables(c, DeferredIndexes.SQLITE);
        Map<String, String> during = indexes(c);
        for (String name : DeferredIndexes.SQLITE) assertTrue(!during.containsKey(name), name + " dropped while the import runs");
        deferred.rebuild(c);
        assertEquals(schema, indexes(c), "built again from their own definitions");
        c.rollback();
      }

      importFile(store, fixtures());
      assertEquals(schema, indexes(store), "after an import into empty tables");
      try (Connection c = store.write()) {
        c.setAutoCommit(false);
        DeferredIndexes.dropOnEmptyTables(c, DeferredIndexes.SQLITE).rebuild(c);
        assertEquals(schema, indexes(c), "tables with rows keep their indexes");
        try (ResultSet rs = c.createStatement().executeQuery("PRAGMA integrity_check")) {
          assertTrue(rs.next());
          assertEquals("ok", rs.getString(1));
        }
        c.rollback();
      }
    }
  }

  @Test
  void anImportThatFailsLeavesTheIndexesAsTheyWere() throws Exception {
    try (TestStore test = TestStore.createSqlite(dir)) {
      Store store = test.store();
      Map<String, String> schema = migratedIndexes(store);
      // The fixtures, then a copy of a meeting with tasks under new meeting and minutes ids: its
      // task ids are taken, which only writing finds (the file passes the check before it).
      String withTasks = Files.readAllLines(fixtures()).stream().filter(l -> l.replace(" ", "").contains("\"action_items\":[{"))
          .findFirst().orElseThrow();
      ObjectNode copy = (ObjectNode) MAPPER.readTree(withTasks);
      copy.put("id", UUID.randomUUID().toString());
      for (JsonNode minutes : copy.path("protocols")) ((ObjectNode) minutes).put("id", UUID.randomUUID().toString());
      Path bad = dir.resolve("bad.ndjson");
      Files.writeString(bad, Files.readString(fixtures()) + copy + "\n");
      Importer.Refused refused = assertThrows(Importer.Refused.class, () -> importFile(store, bad));
      assertTrue(refused.errors().get(0).message().startsWith("conflicts with the database"), refused.errors().toString());
      assertEquals(schema, indexes(store));
      try (Connection c = store.write(); ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM action_item")) {
        assertTrue(rs.next());
        assertEquals(0, rs.getLong(1), "nothing of the file landed");
      }
    }
  }

  private Path fixtures() throws Exception {
    Path file = dir.resolve("fixtures.ndjson");
    if (!Files.exists(file)) {
      try (InputStream in = DeferredIndexesTest.class.getResourceAsStream("/fixtures.ndjson")) {
        Files.copy(in, file);
      }
    }
    return file;
  }

  private static void importFile(Store store, Path file) throws Exception {
    new Importer(store, Importer.Progress.NONE).run(List.of(file));
  }

  /** Migrates a new store and returns its indexes: the schema every case compares with. */
  private static Map<String, String> migratedIndexes(Store store) throws SQLException {
    Migrations.migrate(store);
    return indexes(store);
  }

  private static Map<String, String> indexes(Store store) throws SQLException {
    try (Connection c = store.write()) {
      return indexes(c);
    }
  }

  /** Every index with a definition of its own (not the ones constraints make), by name. */
  private static Map<String, String> indexes(Connection c) throws SQLException {
    Map<String, String> out = new TreeMap<>();
    try (ResultSet rs = c.createStatement().executeQuery(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")) {
      while (rs.next()) out.put(rs.getString(1), rs.getString(2));
    }
    return out;
  }
}
