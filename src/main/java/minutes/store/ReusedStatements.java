package minutes.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sqlite.SQLiteConnection;

/**
 * Prepared statements kept per SQLite connection and handed out again for the same SQL text,
 * as pgjdbc does on its own for PostgreSQL: preparing was 3.4 % of a search's server CPU under
 * load, for the key check alone (docs/BENCHMARKS.md). A statement is either out, in the one
 * thread that holds its connection, or kept, reset and without parameters; at most
 * {@link #PER_CONNECTION} are kept per connection, the least recently used closed first.
 * Thread-safe.
 */
final class ReusedStatements {
  private static final int PER_CONNECTION = 64;

  private final Map<SQLiteConnection, Map<String, PreparedStatement>> kept = new HashMap<>();

  /** A statement for sql on c: a kept one, or a new one when none is kept (or it is out). */
  PreparedStatement take(SQLiteConnection c, String sql) throws SQLException {
    PreparedStatement ps;
    synchronized (this) {
      ps = forConnection(c).remove(sql);
    }
    return ps != null && !ps.isClosed() ? ps : c.prepareStatement(sql);
  }

  /** Keeps ps for the next {@link #take} of sql on c; its result set must be closed (which resets it). */
  void giveBack(SQLiteConnection c, String sql, PreparedStatement ps) throws SQLException {
    if (ps.isClosed()) return; // its connection was closed meanwhile
    ps.clearParameters();
    PreparedStatement other;
    synchronized (this) {
      other = forConnection(c).put(sql, ps);
    }
    if (other != null) other.close(); // the same SQL was out twice at once on c
  }

  /**
   * The kept statements of c. A connection the pool has retired is closed, and its statements
   * with it: their entries go when the pool opens a new connection in its place.
   */
  private Map<String, PreparedStatement> forConnection(SQLiteConnection c) {
    Map<String, PreparedStatement> forC = kept.get(c);
    if (forC == null) {
      kept.keySet().removeIf(ReusedStatements::closed);
      forC = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
          if (size() <= PER_CONNECTION) return false;
          close(eldest.getValue());
          return true;
        }
      };
      kept.put(c, forC);
    }
    return forC;
  }

  private static boolean closed(SQLiteConnection c) {
    try {
      return c.isClosed();
    } catch (SQLException e) {
      return true;
    }
  }

  private static void close(PreparedStatement ps) {
    try {
      ps.close();
    } catch (SQLException e) {
      // Closing a statement of an open connection does not fail; a closed one is closed already.
    }
  }
}
