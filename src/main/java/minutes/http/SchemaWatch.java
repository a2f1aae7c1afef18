package minutes.http;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import minutes.store.Dialect;

/**
 * Knows which tables and columns exist, so that an endpoint whose tables or columns
 * ("table.column") a pending migration would create answers 503 (api-spec section 7) and comes
 * alive once {@code migrate} has run, without a restart. Re-reads the schema at most once a
 * second while everything is there, and on each request that needs something missing (so
 * migrate takes effect at once). Thread-safe.
 */
public final class SchemaWatch {
  private static final long REFRESH_NANOS = 1_000_000_000L;
  static final int RETRY_AFTER_SECONDS = 30;

  private volatile Set<String> tablesAndColumns = Set.of();
  private volatile long readAt = Long.MIN_VALUE;

  /**
   * Throws 503 unless every table and column named exists. Reads through the request's own connection: taking
   * a second one from the pool while holding the first deadlocks once every request does so.
   */
  public void require(Connection c, Set<String> needed) throws SQLException {
    if (needed.isEmpty()) return;
    Set<String> known = tablesAndColumns;
    if (!known.containsAll(needed) || System.nanoTime() - readAt > REFRESH_NANOS) known = refresh(c);
    if (!known.containsAll(needed)) {
      throw ApiError.unavailable(RETRY_AFTER_SECONDS,
          "this endpoint needs a database migration that has not been applied yet (run: ./run.sh migrate)");
    }
  }

  /**
   * Whether the last look at the schema saw this table or column, without looking again: for a
   * statement that may read it only where it exists (none is ever dropped).
   */
  public boolean saw(String tableOrColumn) {
    return tablesAndColumns.contains(tableOrColumn);
  }

  private Set<String> refresh(Connection c) throws SQLException {
    Set<String> now = Dialect.of(c).tablesAndColumns(c);
    tablesAndColumns = now;
    readAt = System.nanoTime();
    return now;
  }
}
