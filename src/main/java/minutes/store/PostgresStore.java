package minutes.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import minutes.config.Config;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The cluster store: one PostgreSQL database that any number of nodes share ({@code db.url}).
 * The operator creates the database; user and password travel in the URL. Immutable.
 */
final class PostgresStore extends Store {
  /** How long a request waits for a pooled connection before it answers 503. */
  private static final long POOL_WAIT_MS = 3_000;
  /** Backstop for a server that stops answering without closing the connection. */
  private static final int SOCKET_TIMEOUT_SECONDS = 60;
  private static final int CONNECT_TIMEOUT_SECONDS = 5;
  /** Advisory lock key of {@link #exclusively}; writers use {@link Dialect#WRITER_LOCK}. */
  private static final long EXCLUSIVE_LOCK = Dialect.WRITER_LOCK + 1;

  private final String url;

  PostgresStore(String url) {
    super(Dialect.POSTGRES);
    this.url = url;
  }

  @Override
  public String location() {
    return Config.withoutPassword(url);
  }

  @Override
  public String describe() {
    return "PostgreSQL database " + location();
  }

  /** Nothing: the operator creates the database. */
  @Override
  public void ensureCreated() {}

  @Override
  public boolean missing() {
    return false;
  }

  @Override
  public DataSource writers() {
    PGSimpleDataSource ds = dataSource();
    ds.setReWriteBatchedInserts(true); // a batch of inserts becomes one multi-row INSERT
    return ds;
  }

  /** Under a session advisory lock, held on a connection of its own: nodes on other machines wait. */
  @Override
  public <T> T exclusively(Exclusive<T> work) throws Exception {
    try (Connection lock = write(); var st = lock.createStatement()) {
      st.execute("SELECT pg_advisory_lock(" + EXCLUSIVE_LOCK + ")");
      try {
        return work.run();
      } finally {
        st.execute("SELECT pg_advisory_unlock(" + EXCLUSIVE_LOCK + ")");
      }
    }
  }

  @Override
  public long sizeBytes(Connection c) throws SQLException {
    return new Sql("SELECT pg_database_size(current_database())").count(c);
  }

  /** A node of a cluster says whether it cannot reach the database or reaches one it cannot use. */
  @Override
  public String unusable(SQLException e) {
    return "database (PostgreSQL): " + (Unreachable.is(e) ? "not reachable" : "not usable");
  }

  @Override
  public Copier backup() {
    throw new StoreException("backup copies a SQLite database; on PostgreSQL back up the database with pg_dump or "
        + "point-in-time recovery, and rebuild each node's search index with `reindex` after a restore "
        + "(docs/CLUSTER.md#backup-and-restore)", null);
  }

  /**
   * Requests read in REPEATABLE READ (the default, READ COMMITTED, would let a count and its page
   * see different imports), each statement ended by the server past the limit (SQLState 57014,
   * {@link StatementLimit#isTimeout}); background work has a small pool of its own without one.
   */
  @Override
  ReadPools readPools(int size, Duration statementTimeout) {
    PGSimpleDataSource limited = dataSource();
    if (!statementTimeout.isZero()) limited.setOptions("-c statement_timeout=" + statementTimeout.toMillis());
    return new ReadPools(new HikariDataSource(readPool(limited, "request", size)),
        new HikariDataSource(readPool(dataSource(), "background", Db.BACKGROUND_CONNECTIONS)));
  }

  /** A database that is down answers 503 quickly instead of holding requests; the server starts meanwhile. */
  @Override
  HikariConfig readPool(DataSource source, String name, int size) {
    HikariConfig hc = super.readPool(source, name, size);
    hc.setTransactionIsolation("TRANSACTION_REPEATABLE_READ");
    hc.setConnectionTimeout(POOL_WAIT_MS);
    hc.setInitializationFailTimeout(-1);
    return hc;
  }

  private PGSimpleDataSource dataSource() {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setURL(url);
    ds.setApplicationName("minutes");
    ds.setConnectTimeout(CONNECT_TIMEOUT_SECONDS);
    ds.setSocketTimeout(SOCKET_TIMEOUT_SECONDS);
    ds.setTcpKeepAlive(true);
    return ds;
  }
}
