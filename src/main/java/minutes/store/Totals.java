package minutes.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Totals of list queries, remembered per data version: the data only changes by import, and
 * counting 14,000 meetings on every page request cost more than the page itself. A total is
 * keyed by the version the request's read transaction sees, so it is never one of another
 * snapshot. Thread-safe.
 */
public final class Totals {
  private static final int MAX_ENTRIES = 10_000; // bounded: filters come from users

  private final ConcurrentHashMap<String, Long> byQuery = new ConcurrentHashMap<>();

  public long count(Connection c, Sql countQuery) throws SQLException {
    long version;
    try {
      version = Db.dataVersion(c);
    } catch (SQLException noChangeLogYet) {
      return countQuery.count(c); // a database before migration 3: nothing to key a total by
    }
    String key = version + " " + countQuery.key();
    Long known = byQuery.get(key);
    if (known != null) return known;
    long total = countQuery.count(c);
    if (byQuery.size() >= MAX_ENTRIES) byQuery.clear();
    byQuery.put(key, total);
    return total;
  }
}
