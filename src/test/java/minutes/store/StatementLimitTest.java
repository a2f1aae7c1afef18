package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import minutes.TestStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-statement time limit on the run's store (SQLite's progress handler, PostgreSQL's
 * statement_timeout): a statement past it stops and is told apart from other failures; the
 * connection stays usable; background reads have no limit, and the limit never stays behind
 * on a pooled connection.
 */
class StatementLimitTest {
  /** A million rows of a recursive count: hundreds of milliseconds on either store, far above the limit. */
  private static final String COSTLY =
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) SELECT count(*) FROM n";

  /** Far above a trivial statement even on a loaded machine, far below COSTLY. */
  private static final Duration LIMIT = Duration.ofMillis(50);

  @TempDir Path dir;
  private TestStore testStore;

  @AfterEach
  void dropDatabase() {
    if (testStore != null) testStore.close();
  }

  private Store store() {
    testStore = TestStore.create(dir); // no tables: the statements read none
    testStore.store().ensureCreated();
    return testStore.store();
  }

  @Test
  void aStatementPastTheLimitStopsTheConnectionGoesOnAndBackgroundReadsAreUnlimited() throws Exception {
    // One pooled connection: on SQLite the unlimited read below gets the very connection that was limited.
    try (Db db = Db.open(store(), 1, LIMIT)) {
      try (Connection c = db.readForRequest()) {
        c.setAutoCommit(false);
        SQLException e = assertThrows(SQLException.class, () -> new Sql(COSTLY).count(c));
        assertTrue(StatementLimit.isTimeout(e), e.toString());
        assertTrue(StatementLimit.isTimeout(new RuntimeException("wrapped", e)));
        c.rollback(); // as every request ends; PostgreSQL needs it before the next statement
        assertEquals(1, new Sql("SELECT 1").count(c), "each statement has its own time; the connection is fine");
      }
      try (Connection c = db.read()) {
        assertEquals(1_000_000, new Sql(COSTLY).count(c));
      }
    }
  }

  @Test
  void aStatementRunWhileReadingAnothersRowsLeavesTheOuterOneLimited() throws Exception {
    Store store = store();
    org.junit.jupiter.api.Assumptions.assumeFalse(testStore.isPostgres(), "PostgreSQL computes the rows before sending the first");
    // SQLite steps into the costly arm of the UNION only after the first row was read.
    String firstRowThenCostly = "SELECT 1 UNION ALL SELECT * FROM (" + COSTLY + ")";
    try (Db db = Db.open(store, 1, LIMIT); Connection c = db.readForRequest()) {
      SQLException e = assertThrows(SQLException.class, () -> new Sql(firstRowThenCostly).list(c, rs -> new Sql("SELECT 1").count(c)));
      assertTrue(StatementLimit.isTimeout(e), e.toString());
    }
  }

  @Test
  void otherFailuresAreNotTimeouts() throws Exception {
    try (Db db = Db.open(store(), 1, LIMIT); Connection c = db.readForRequest()) {
      SQLException e = assertThrows(SQLException.class, () -> new Sql("SELECT * FROM no_such_table").count(c));
      assertFalse(StatementLimit.isTimeout(e));
    }
  }

  @Test
  void withoutALimitRequestConnectionsRunToTheEnd() throws Exception {
    try (Db db = Db.open(store(), 1, Duration.ZERO); Connection c = db.readForRequest()) {
      assertEquals(1_000_000, new Sql(COSTLY).count(c));
    }
  }
}
