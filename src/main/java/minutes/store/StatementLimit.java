package minutes.store;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.ProgressHandler;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The time limit on each database statement run to answer a request
 * ({@code db.statement_timeout_ms}): a statement still running when its time is up stops with
 * an error that {@link #isTimeout} recognises, so the request can answer 503 instead of holding
 * a connection and a core. The time counts from the statement's execute call until its last row
 * is read. Background work (in-memory orders, index builds) reads without a limit.
 *
 * <p>This is the seam for a store's own mechanism. SQLite has no statement timeout (sqlite-jdbc's
 * {@code setQueryTimeout} is only a busy timeout), so here SQLite's progress handler, called every
 * few thousand virtual-machine steps, compares the clock with the running statement's deadline
 * and interrupts it. A PostgreSQL twin would set {@code statement_timeout} instead; its signal
 * (SQLState 57014) is already recognised by {@link #isTimeout}.
 *
 * <p>A limited connection also keeps the statements prepared on it with only their SQL
 * ({@code prepareStatement(String)}, every statement a request makes here) and hands them out
 * again for the same SQL ({@link ReusedStatements}); with the limit off, nothing is kept.
 *
 * <p>Thread-safe; a limited connection, like any JDBC connection here, serves one thread at a
 * time, and SQLite calls the progress handler on the thread that runs the statement.
 */
public final class StatementLimit {
  /** No limit: connections are handed out as they are. */
  public static final StatementLimit NONE = new StatementLimit(Duration.ZERO);
  // About 50-100 microseconds of SQLite work between two looks at the clock (a look is one JNI
  // call back into Java), so a statement overruns its limit by well under a millisecond.
  private static final int STEPS_BETWEEN_CHECKS = 10_000;
  private static final String QUERY_CANCELED = "57014"; // PostgreSQL's statement_timeout

  private final long limitNanos;
  private final ReusedStatements statements = new ReusedStatements();

  public StatementLimit(Duration limit) {
    this.limitNanos = limit.toNanos();
  }

  /**
   * The connection with every statement created on it limited; closing it takes the limit off
   * and closes {@code pooled} (returning it to its pool).
   */
  Connection limit(Connection pooled) throws SQLException {
    if (limitNanos == 0) return pooled;
    Deadline deadline = new Deadline();
    SQLiteConnection raw;
    try {
      raw = pooled.unwrap(SQLiteConnection.class);
      ProgressHandler.setHandler(raw, STEPS_BETWEEN_CHECKS, deadline);
    } catch (SQLException | RuntimeException e) {
      pooled.close();
      throw e;
    }
    List<Statement> handedOut = new ArrayList<>(4); // reused statements, closed with the connection as JDBC closes its own
    return proxy(Connection.class, (proxy, method, args) -> {
      String name = method.getName();
      if (name.equals("close")) {
        try {
          for (Statement s : handedOut) s.close(); // gives back the ones still open
          ProgressHandler.clearHandler(raw);
        } finally {
          pooled.close();
        }
        return null;
      }
      // commit, rollback and the like must finish even after a statement ran out of time.
      deadline.armed = false;
      if (name.equals("prepareStatement") && args.length == 1) {
        // Prepared on the connection itself: the pool closes the statements made through it.
        String sql = (String) args[0];
        PreparedStatement reused = proxy(PreparedStatement.class, reused(raw, sql, statements.take(raw, sql), deadline));
        handedOut.add(reused);
        return reused;
      }
      Object result = call(method, pooled, args);
      return result instanceof Statement s ? proxy(method.getReturnType(), limited(s, deadline)) : result;
    });
  }

  /**
   * As {@link #limited}, and closing the statement gives it back to be reused, reset: its
   * result set closed, its parameters cleared. One that failed is closed instead.
   */
  private InvocationHandler reused(SQLiteConnection raw, String sql, PreparedStatement statement, Deadline deadline) {
    InvocationHandler limited = limited(statement, deadline);
    return new InvocationHandler() {
      private ResultSet open;
      private boolean failed, closed;

      @Override
      public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
          case "close" -> {
            if (closed) return null;
            closed = true;
            try {
              if (open != null) open.close();
            } catch (SQLException e) {
              failed = true;
              throw e;
            } finally {
              if (failed) statement.close();
              else statements.giveBack(raw, sql, statement);
            }
            return null;
          }
          case "isClosed" -> {
            return closed;
          }
          default -> {
            if (closed) throw new SQLException("statement closed");
          }
        }
        try {
          Object result = limited.invoke(proxy, method, args);
          if (result instanceof ResultSet rs) open = rs;
          return result;
        } catch (Throwable t) {
          failed = true;
          throw t;
        }
      }
    };
  }

  /** Each execute call starts the statement's clock. */
  private InvocationHandler limited(Statement statement, Deadline deadline) {
    return (proxy, method, args) -> {
      if (method.getName().startsWith("execute")) {
        deadline.at = System.nanoTime() + limitNanos;
        deadline.armed = true;
      }
      return call(method, statement, args);
    };
  }

  /**
   * True when {@code t} or one of its causes is a statement stopped by its time limit. Nothing
   * else in minutes interrupts a statement, so SQLite's "interrupted" means the limit.
   */
  public static boolean isTimeout(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof SQLTimeoutException) return true;
      if (c instanceof SQLiteException e && e.getResultCode() == SQLiteErrorCode.SQLITE_INTERRUPT) return true;
      if (c instanceof SQLException e && QUERY_CANCELED.equals(e.getSQLState())) return true;
      if (c.getCause() == c) break;
    }
    return false;
  }

  /** The running statement's deadline, read by SQLite's progress handler on the same thread. */
  private static final class Deadline extends ProgressHandler {
    long at;
    boolean armed;

    @Override
    protected int progress() {
      return armed && System.nanoTime() - at > 0 ? 1 : 0; // non-zero interrupts the statement
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return (T) Proxy.newProxyInstance(StatementLimit.class.getClassLoader(), new Class<?>[] {type}, handler);
  }

  private static Object call(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
