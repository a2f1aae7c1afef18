package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import minutes.Property;
import minutes.StoreIndependent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statements kept by a SQLite request connection answer as freshly prepared ones do: the same
 * generated steps (prepare, bind, read some or all rows, close the rows or not, the same SQL out
 * twice at once, more distinct SQL than are kept) run in lockstep on a plain connection, the
 * simple way, and on a {@link StatementKeepingConnection}, and read the same rows. The server's
 * request pool hands out such connections.
 */
@StoreIndependent
class StatementKeepingConnectionTest {
  @TempDir Path dir;

  private Path database() throws SQLException {
    Path file = dir.resolve("t.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t(i INTEGER PRIMARY KEY, s TEXT)");
      st.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60) "
          + "INSERT INTO t SELECT i, 'row ' || i FROM n");
    }
    return file;
  }

  private static StatementKeepingConnection keeping(Path file) throws SQLException {
    return new StatementKeepingConnection("jdbc:sqlite:" + file, file.toString(), new Properties());
  }

  /** One of {@code kinds} distinct SQL texts, each with two parameters. */
  private static String sql(int kind) {
    return "SELECT i, s FROM t WHERE i > ? AND i % " + (kind + 2) + " = ? ORDER BY i";
  }

  /** Binds and runs ps, reads up to {@code rows} rows (all when negative), closing the rows or not. */
  private static List<String> run(PreparedStatement ps, int after, int rest, int rows, boolean closeRows)
      throws SQLException {
    ps.setInt(1, after);
    ps.setInt(2, rest);
    List<String> read = new ArrayList<>();
    ResultSet rs = ps.executeQuery();
    while ((rows < 0 || read.size() < rows) && rs.next()) read.add(rs.getInt(1) + ":" + rs.getString(2));
    if (closeRows) rs.close();
    return read;
  }

  @Test
  void keptStatementsReadWhatFreshOnesRead() throws Exception {
    Path file = database();
    Property.forAll("kept statements against fresh ones", 200, 40, c -> {
      int kinds = c.chance(0.3) ? StatementKeepingConnection.KEPT + 10 : c.between(1, 6);
      try (Connection plain = DriverManager.getConnection("jdbc:sqlite:" + file);
          StatementKeepingConnection kept = keeping(file)) {
        List<PreparedStatement> out = new ArrayList<>();
        List<PreparedStatement> handedOut = new ArrayList<>();
        int steps = c.size() + (kinds > 6 ? 2 * kinds : 0);
        for (int step = 0; step < steps; step++) {
          String sql = sql(c.nextInt(kinds));
          int after = c.between(-1, 61), rest = c.nextInt(3), rows = c.chance(0.5) ? -1 : c.nextInt(5);
          boolean closeRows = c.chance(0.7);
          List<String> expected;
          try (PreparedStatement fresh = plain.prepareStatement(sql)) {
            expected = run(fresh, after, rest, rows, true);
          }
          PreparedStatement ps = kept.prepareStatement(sql);
          handedOut.add(ps);
          assertEquals(expected, run(ps, after, rest, rows, closeRows), sql + " after " + after + " rest " + rest);
          if (c.chance(0.2)) out.add(ps); // still out while the same SQL is prepared again
          else ps.close();
          if (!out.isEmpty() && c.chance(0.3)) out.remove(c.nextInt(out.size())).close();
          assertTrue(kept.keptCount() <= StatementKeepingConnection.KEPT, "kept " + kept.keptCount());
        }
        for (PreparedStatement ps : out) ps.close();
        kept.close();
        for (PreparedStatement ps : handedOut) assertTrue(ps.isClosed(), "closed with its connection");
      }
    });
  }

  @Test
  void aClosedStatementIsHandedOutAgainAndOneStillOutIsNot() throws Exception {
    Path file = database();
    try (StatementKeepingConnection c = keeping(file)) {
      PreparedStatement first = c.prepareStatement(sql(0));
      PreparedStatement whileOut = c.prepareStatement(sql(0));
      assertNotSame(first, whileOut);
      first.close();
      whileOut.close();
      PreparedStatement again = c.prepareStatement(sql(0));
      assertTrue(again == first || again == whileOut, "a kept one");
      assertEquals(List.of("2:row 2", "4:row 4"), run(again, 0, 0, 2, true), "parameters bound anew");
      again.close();
      assertSame(again, c.prepareStatement(sql(0)));
    }
  }

  @Test
  void aKeptStatementHoldsNoReadTransactionThatWouldStopACheckpoint() throws Exception {
    Path file = database();
    try (Connection writer = DriverManager.getConnection("jdbc:sqlite:" + file); Statement w = writer.createStatement()) {
      w.executeQuery("PRAGMA journal_mode=WAL").close(); // as the server's database is
      StatementKeepingConnection c = keeping(file);
      PreparedStatement ps = c.prepareStatement(sql(0));
      assertEquals(1, run(ps, 0, 0, 1, false).size());
      ps.close(); // its rows not read to the end nor closed: keeping it must end its read
      w.execute("INSERT INTO t(s) VALUES ('written after')");
      try (ResultSet rs = w.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
        assertTrue(rs.next());
        assertEquals(0, rs.getInt(1), "the checkpoint was not blocked by a reader");
      }
      c.close();
    }
  }

  @Test
  void theServersRequestPoolKeepsStatementsAndKeepsTheTimeLimit() throws Exception {
    Path file = database();
    try (Db db = Db.open(Store.sqlite(file), 2, Duration.ofMillis(50))) {
      try (Connection c = db.readForRequest()) {
        assertEquals(60L, new Sql("SELECT count(*) FROM t").count(c));
        assertEquals(1, c.unwrap(StatementKeepingConnection.class).keptCount(), "the statement kept");
      }
      try (Connection c = db.readForRequest()) {
        SQLException stopped = assertThrows(SQLException.class, () -> new Sql(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000000) SELECT count(*) FROM n")
            .count(c));
        assertTrue(StatementLimit.isTimeout(stopped), stopped.toString());
        assertEquals(60L, new Sql("SELECT count(*) FROM t").count(c), "usable after the limit");
      }
    }
  }
}
