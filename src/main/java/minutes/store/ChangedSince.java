package minutes.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a search needs of the database besides its index when the data may have changed since
 * the index (a search whose key's statement read the index's own data version needs nothing),
 * read in one statement (each statement is a round trip to PostgreSQL): how far the change
 * history is pruned, and the meetings changed after the index's change_log seq, each once.
 * Immutable.
 */
public record ChangedSince(long prunedThrough, List<String> changed) {
  // change_log unaliased, so that SQLite's query plan names it (SearchSyncTest).
  public static final String SQL = "SELECT change_state.pruned_through, change_log.meeting_id FROM change_state"
      + " LEFT JOIN change_log ON change_log.seq > ? WHERE change_state.id = 1";

  /**
   * Cheap, since seq is change_log's primary key and the range is usually empty. Not {@code
   * SELECT DISTINCT}: SQLite answers that by scanning all of change_log through its meeting_id
   * index, at a cost that grows with every import.
   */
  public static ChangedSince read(Connection c, long seq) throws SQLException {
    long[] prunedThrough = {0};
    Set<String> ids = new LinkedHashSet<>(new Sql(SQL, seq).list(c, rs -> {
      prunedThrough[0] = rs.getLong(1);
      return rs.getString(2);
    }));
    ids.remove(null); // the one row of a range without changes
    return new ChangedSince(prunedThrough[0], List.copyOf(ids));
  }
}
