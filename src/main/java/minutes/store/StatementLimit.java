package minutes.store;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import org.sqlite.ProgressHandler;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The time limit on each database statement run to answer a request
 * ({@code db.statement_timeout_ms}): a statement still running when its time is up stops with
 * an error that {@link #isTimeout} recognises, so the request can answer 503 instead of holding
 * a connection and a core. The time counts from the statement's execute call until its last row
 * is read ({@link Sql} starts and stops the clock). Background work (in-memory orders, index
 * builds) reads on connections without a limit.
 *
 * <p>PostgreSQL has its own ({@code statement_timeout}, set on the request pool's connections;
 * SQLState 57014). SQLite has none (sqlite-jdbc's {@code setQueryTimeout} is only a busy
 * timeout), so each connection of SQLite's request pool gets, once as the pool opens it, a
 * progress handler that SQLite calls every few thousand virtual-machine steps on the thread
 * running the statement: it compares the clock with the time that thread's statement started.
 *
 * <p>Thread-safe: the clock is per thread, and a connection serves one thread at a time.
 */
public final class StatementLimit {
  // About 50-100 microseconds of SQLite work between two looks at the clock (a look is one JNI
  // call back into Java), so a statement overruns its limit by well under a millisecond.
  private static final int STEPS_BETWEEN_CHECKS = 10_000;
  private static final String QUERY_CANCELED = "57014"; // PostgreSQL's statement_timeout

  /** When the statement this thread runs through {@link Sql} started (nanoTime); 0: none runs. */
  private static final ThreadLocal<long[]> STARTED = ThreadLocal.withInitial(() -> new long[1]);

  private StatementLimit() {}

  /** Limits every statement later run on {@code c} through {@link Sql} to {@code limit} (not zero). */
  static void install(SQLiteConnection c, Duration limit) throws SQLException {
    long limitNanos = limit.toNanos();
    ProgressHandler.setHandler(c, STEPS_BETWEEN_CHECKS, new ProgressHandler() {
      @Override
      protected int progress() {
        long started = STARTED.get()[0];
        return started != 0 && System.nanoTime() - started > limitNanos ? 1 : 0; // non-zero interrupts it
      }
    });
  }

  /**
   * Starts this thread's statement clock; returns what {@link #stop} needs to restore, so that a
   * statement run while reading another's rows leaves the outer one's clock as it was.
   */
  static long start() {
    long[] started = STARTED.get();
    long outer = started[0];
    started[0] = System.nanoTime();
    return outer;
  }

  /** Stops the clock {@link #start} started; commit, rollback and the like are never limited. */
  static void stop(long outer) {
    STARTED.get()[0] = outer;
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
}
