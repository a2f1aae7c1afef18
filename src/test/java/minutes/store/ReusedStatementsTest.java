package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import minutes.TestStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite request connections reuse a statement prepared for the same SQL: across requests on
 * one pooled connection, with fresh parameters and rows each time; never two users of one
 * statement at once; never one that failed; and one put back with its rows unread holds no
 * snapshot, so the next request sees what was written meanwhile.
 */
class ReusedStatementsTest {
  private static final String SQL = "SELECT value FROM reuse_probe WHERE id = ?";

  @TempDir Path dir;
  private TestStore testStore;
  private Db db;

  @BeforeEach
  void open() throws Exception {
    testStore = TestStore.create(dir);
    assumeFalse(testStore.isPostgres(), "pgjdbc keeps its own prepared statements");
    testStore.store().ensureCreated();
    try (Connection c = testStore.store().write()) {
      c.createStatement().execute("CREATE TABLE reuse_probe (id INTEGER PRIMARY KEY, value TEXT)");
      c.createStatement().execute("INSERT INTO reuse_probe VALUES (1, 'one'), (2, 'two')");
    }
    db = Db.open(testStore.store(), 1, Duration.ofSeconds(5)); // one connection: each request gets the same
  }

  @AfterEach
  void close() {
    if (db != null) db.close();
    if (testStore != null) testStore.close();
  }

  private static String value(Connection c, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(SQL)) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  private static PreparedStatement underlying(PreparedStatement ps) throws SQLException {
    return ps.unwrap(PreparedStatement.class);
  }

  @Test
  void theSameSqlIsPreparedOncePerConnectionAndAnswersAfresh() throws Exception {
    PreparedStatement first;
    try (Connection c = db.readForRequest(); PreparedStatement ps = c.prepareStatement(SQL)) {
      first = underlying(ps);
      ps.setInt(1, 1);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next());
        assertEquals("one", rs.getString(1));
      }
    }
    try (Connection c = db.readForRequest(); PreparedStatement ps = c.prepareStatement(SQL)) {
      assertSame(first, underlying(ps), "the next request on the connection gets the statement back");
      ps.setInt(1, 2);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next());
        assertEquals("two", rs.getString(1));
      }
    }
    try (Connection c = db.readForRequest(); PreparedStatement ps = c.prepareStatement(SQL); ResultSet rs = ps.executeQuery()) {
      assertFalse(rs.next(), "the parameters of the last use are cleared (unset is NULL, no id)");
    }
  }

  @Test
  void twoUsesAtOnceGetTwoStatements() throws Exception {
    try (Connection c = db.readForRequest();
        PreparedStatement outer = c.prepareStatement(SQL);
        PreparedStatement inner = c.prepareStatement(SQL)) {
      assertNotSame(underlying(outer), underlying(inner));
      outer.setInt(1, 1);
      inner.setInt(1, 2);
      try (ResultSet a = outer.executeQuery(); ResultSet b = inner.executeQuery()) {
        assertTrue(a.next() && b.next());
        assertEquals("one", a.getString(1));
        assertEquals("two", b.getString(1));
      }
    }
  }

  @Test
  void closingTheConnectionGivesBackTheStatementsLeftOpen() throws Exception {
    PreparedStatement left;
    try (Connection c = db.readForRequest()) {
      PreparedStatement ps = c.prepareStatement(SQL); // its user never closes it
      left = underlying(ps);
      ps.setInt(1, 1);
      assertTrue(ps.executeQuery().next());
    }
    try (Connection c = db.readForRequest(); PreparedStatement ps = c.prepareStatement(SQL)) {
      assertSame(left, underlying(ps), "given back, reset, when its connection was closed");
    }
  }

  @Test
  void aStatementThatFailedIsNotReused() throws Exception {
    PreparedStatement failed;
    try (Connection c = db.readForRequest(); PreparedStatement ps = c.prepareStatement(SQL)) {
      failed = underlying(ps);
      assertThrows(RuntimeException.class, () -> ps.setInt(3, 1)); // no third parameter
    }
    assertTrue(failed.isClosed());
    try (Connection c = db.readForRequest()) {
      assertEquals("one", value(c, 1));
    }
  }

  @Test
  void rowsLeftUnreadHoldNoSnapshot() throws Exception {
    try (Connection c = db.readForRequest()) {
      // No transaction of its own: a statement not reset would keep SQLite's implicit one open.
      PreparedStatement ps = c.prepareStatement("SELECT value FROM reuse_probe ORDER BY id");
      ResultSet rs = ps.executeQuery();
      assertTrue(rs.next());
      ps.close(); // its result set open, one row read: closing must still reset it
      assertTrue(rs.isClosed());
    }
    try (Connection w = testStore.store().write()) {
      w.createStatement().execute("UPDATE reuse_probe SET value = 'uno' WHERE id = 1");
    }
    try (Connection c = db.readForRequest()) {
      c.setAutoCommit(false);
      assertEquals("uno", value(c, 1));
      c.rollback();
    }
  }
}
