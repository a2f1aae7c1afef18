package minutes.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Totals of list queries, remembered per data version ({@link KeptByVersion}): the data only
 * changes by import, and counting 14,000 meetings on every page request cost more than the page
 * itself. Thread-safe.
 */
public final class Totals {
  private final KeptByVersion<Long> byQuery = new KeptByVersion<>(10_000);

  /** The total of {@code query} (any text that tells filters apart) at {@code version}, when known. */
  public OptionalLong known(long version, String query) {
    return byQuery.get(version, query).map(OptionalLong::of).orElse(OptionalLong.empty());
  }

  public void remember(long version, String query, long total) {
    byQuery.put(version, query, total);
  }

  /**
   * The count query's result, counted by the database once per data version: {@code version} is the
   * one the caller's transaction sees (read once per request), empty on a database from before
   * the change log, where there is nothing to key a total by.
   */
  public long count(Connection c, Optional<Long> version, Sql countQuery) throws SQLException {
    if (version.isEmpty()) return countQuery.count(c);
    String key = countQuery.key();
    OptionalLong known = known(version.get(), key);
    if (known.isPresent()) return known.getAsLong();
    long total = countQuery.count(c);
    remember(version.get(), key, total);
    return total;
  }
}
