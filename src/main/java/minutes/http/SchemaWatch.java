package minutes.http;

import java.sql.SQLException;
import java.util.Set;
import minutes.store.Db;

/**
 * Knows which tables exist, so that an endpoint whose tables a pending migration would
 * create answers 503 (api-spec section 7) and comes alive once {@code migrate} has run,
 * without a restart. Re-reads the schema at most once a second. Thread-safe.
 */
public final class SchemaWatch {
  private static final long REFRESH_NANOS = 1_000_000_000L;
  static final int RETRY_AFTER_SECONDS = 30;

  private final Db db;
  private volatile Set<String> tables = Set.of();
  private volatile long readAt = Long.MIN_VALUE;

  public SchemaWatch(Db db) {
    this.db = db;
  }

  public void require(Set<String> needed) throws SQLException {
    if (needed.isEmpty()) return;
    Set<String> known = tables;
    if (!known.containsAll(needed) || System.nanoTime() - readAt > REFRESH_NANOS) known = refresh();
    if (!known.containsAll(needed)) {
      throw ApiError.unavailable(RETRY_AFTER_SECONDS,
          "this endpoint needs a database migration that has not been applied yet (run: ./run.sh migrate)");
    }
  }

  private Set<String> refresh() throws SQLException {
    Set<String> now = Set.copyOf(db.tables());
    tables = now;
    readAt = System.nanoTime();
    return now;
  }
}
