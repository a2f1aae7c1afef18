package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-statement time limit on a real SQLite file: a statement past it stops and is told
 * apart from other failures; the connection stays usable; background reads have no limit, and
 * the limit never stays behind on a pooled connection.
 */
class StatementLimitTest {
  /** A million rows of a recursive count: far above a millisecond on any machine (tens of millions of VM steps). */
  private static final String COSTLY =
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) SELECT count(*) FROM n";

  @TempDir Path dir;

  @Test
  void aStatementPastTheLimitStopsTheConnectionGoesOnAndBackgroundReadsAreUnlimited() throws Exception {
    Path file = dir.resolve("m.db");
    Db.ensureCreated(file);
    // One pooled connection: the unlimited read below gets the very connection that was limited.
    try (Db db = Db.open(file, 1, Duration.ofMillis(1))) {
      try (Connection c = db.readForRequest()) {
        c.setAutoCommit(false);
        SQLException e = assertThrows(SQLException.class, () -> new Sql(COSTLY).count(c));
        assertTrue(StatementLimit.isTimeout(e), e.toString());
        assertTrue(StatementLimit.isTimeout(new RuntimeException("wrapped", e)));
        assertEquals(1, new Sql("SELECT 1").count(c), "each statement has its own time; the connection is fine");
        c.rollback();
      }
      try (Connection c = db.read()) {
        assertEquals(1_000_000, new Sql(COSTLY).count(c));
      }
    }
  }

  @Test
  void otherFailuresAreNotTimeouts() throws Exception {
    Path file = dir.resolve("m.db");
    Db.ensureCreated(file);
    try (Db db = Db.open(file, 1, Duration.ofMillis(1)); Connection c = db.readForRequest()) {
      SQLException e = assertThrows(SQLException.class, () -> new Sql("SELECT * FROM no_such_table").count(c));
      assertFalse(StatementLimit.isTimeout(e));
    }
  }

  @Test
  void withoutALimitRequestConnectionsRunToTheEnd() throws Exception {
    Path file = dir.resolve("m.db");
    Db.ensureCreated(file);
    try (Db db = Db.open(file, 1, Duration.ZERO); Connection c = db.readForRequest()) {
      assertEquals(1_000_000, new Sql(COSTLY).count(c));
    }
  }
}
