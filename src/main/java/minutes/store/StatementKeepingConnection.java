package minutes.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.sqlite.SQLiteConnection;
import org.sqlite.jdbc4.JDBC4Connection;
import org.sqlite.jdbc4.JDBC4PreparedStatement;

/**
 * A SQLite request connection that keeps each prepared statement, when closed, for the next
 * prepare of the same SQL text, as pgjdbc does on its own for PostgreSQL: SQLite parses and
 * plans a statement anew on every prepare, and a request runs a few statements, each on a
 * connection the pool hands out again at once. A statement is either out (prepared and not
 * yet closed) or kept: its result set closed, which resets it, and its parameters cleared. At
 * most {@link #KEPT} are kept, the least recently used closed first; closing the connection
 * closes them. The pool opens these connections ({@code SqliteStore}), so nothing is added per
 * request. Not thread-safe: a pooled connection serves one thread at a time.
 */
final class StatementKeepingConnection extends JDBC4Connection {
  static final int KEPT = 64;

  private final Map<String, Kept> kept = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Kept> eldest) {
      if (size() <= KEPT) return false;
      eldest.getValue().closeForGood();
      return true;
    }
  };

  StatementKeepingConnection(String url, String file, Properties settings) throws SQLException {
    super(url, file, settings);
  }

  /**
   * A kept statement for sql, or a new one; only plain ones (forward, read-only, closed at commit)
   * are kept, and the driver refuses the others as it does on any connection.
   */
  @Override
  public PreparedStatement prepareStatement(String sql, int type, int concurrency, int holdability)
      throws SQLException {
    if (type != ResultSet.TYPE_FORWARD_ONLY || concurrency != ResultSet.CONCUR_READ_ONLY
        || holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT) {
      return super.prepareStatement(sql, type, concurrency, holdability);
    }
    Kept statement = kept.remove(sql);
    return statement != null ? statement : new Kept(this, sql);
  }

  @Override
  public void close() throws SQLException {
    for (Kept statement : kept.values()) statement.closeForGood();
    kept.clear();
    super.close();
  }

  /** How many statements are kept now (for tests). */
  int keptCount() {
    return kept.size();
  }

  /** A statement whose close keeps it for its connection's next prepare of the same SQL. */
  private final class Kept extends JDBC4PreparedStatement {
    private final String sql;

    Kept(SQLiteConnection connection, String sql) throws SQLException {
      super(connection, sql);
      this.sql = sql;
    }

    @Override
    public void close() throws SQLException {
      if (isClosed() || StatementKeepingConnection.this.isClosed()) {
        super.close();
        return;
      }
      if (rs.isOpen()) rs.close(); // resets the statement
      clearParameters();
      Kept other = kept.put(sql, this);
      if (other != null && other != this) other.closeForGood(); // the same SQL was out twice at once
    }

    void closeForGood() {
      try {
        super.close();
      } catch (SQLException e) {
        // Closing a statement of an open connection does not fail; a closed one is closed already.
      }
    }
  }
}
