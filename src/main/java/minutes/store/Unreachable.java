package minutes.store;

import java.sql.SQLException;

/**
 * Tells failures that mean "the database cannot be reached right now" (PostgreSQL down,
 * restarting, out of connections, a connection cut) from faults of a request or of the code.
 * The former are answered 503 with Retry-After and end by themselves once the database is back:
 * the pool replaces broken connections.
 */
public final class Unreachable {
  private Unreachable() {}

  /** True when {@code t} or one of its causes is a connection failure or a server shutting down or starting. */
  public static boolean is(Throwable t) {
    for (; t != null; t = t.getCause()) {
      if (t instanceof SQLException e) {
        for (SQLException x = e; x != null; x = x.getNextException()) {
          String state = x.getSQLState();
          // 08: connection exception; 57P01-57P03: admin or crash shutdown, cannot connect now; 53300: too many connections
          if (state != null && (state.startsWith("08") || state.matches("57P0[1-3]") || state.equals("53300"))) return true;
        }
      }
    }
    return false;
  }
}
