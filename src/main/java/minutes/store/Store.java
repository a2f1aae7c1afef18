package minutes.store;

import com.zaxxer.hikari.HikariConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;
import minutes.config.Config;
import org.postgresql.ds.PGSimpleDataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteOpenMode;

/**
 * Where the records live: a SQLite file (the embedded default) or a PostgreSQL database
 * (cluster mode, {@code db.url}). Hands out write connections and describes the read pool;
 * {@link Db} is the pool a server reads through. Immutable and cheap: every command makes one
 * from its configuration.
 */
public final class Store {
  private static final int SQLITE_BUSY_TIMEOUT_MS = 30_000;
  /** How long a request waits for a pooled PostgreSQL connection before it answers 503. */
  private static final long PG_POOL_WAIT_MS = 3_000;
  /** Backstop for a PostgreSQL server that stops answering without closing the connection. */
  private static final int PG_SOCKET_TIMEOUT_SECONDS = 60;
  private static final int PG_CONNECT_TIMEOUT_SECONDS = 5;

  /** Advisory lock key of {@link #exclusively}; writers use {@link Dialect#WRITER_LOCK}. */
  private static final long EXCLUSIVE_LOCK = Dialect.WRITER_LOCK + 1;

  private final Dialect dialect;
  private final Path file;
  private final String url;

  private Store(Dialect dialect, Path file, String url) {
    this.dialect = dialect;
    this.file = file;
    this.url = url;
  }

  /** The store the configuration names: PostgreSQL when {@code db.url} is set, else the SQLite file {@code db.path}. */
  public static Store of(Config config) {
    return config.usesPostgres() ? postgres(config.dbUrl()) : sqlite(config.dbPath());
  }

  public static Store sqlite(Path file) {
    return new Store(Dialect.SQLITE, file, null);
  }

  public static Store postgres(String jdbcUrl) {
    return new Store(Dialect.POSTGRES, null, jdbcUrl);
  }

  public Dialect dialect() {
    return dialect;
  }

  /** The SQLite file, when this store is one. */
  public Optional<Path> sqliteFile() {
    return Optional.ofNullable(file);
  }

  /** For messages and logs: the file, or the URL without its password. */
  public String location() {
    return file != null ? file.toString() : Config.withoutPassword(url);
  }

  /** {@link #location()} with the kind of store, for messages that must say which. */
  public String describe() {
    return (file != null ? "SQLite database " : "PostgreSQL database ") + location();
  }

  /**
   * Creates a missing SQLite file with owner-only permissions (meetings are private data) and
   * switches it to WAL, so that readers keep answering while one writer commits. Nothing to
   * do for PostgreSQL, whose database the operator creates.
   */
  public void ensureCreated() {
    if (file == null) return;
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) Files.createDirectories(parent);
      if (!Files.exists(file)) {
        Files.createFile(file);
        Db.ownerOnly(file, "rw-------");
      }
    } catch (IOException e) {
      throw new StoreException("cannot create database file " + file + ": " + e.getMessage(), e);
    }
    try (Connection c = write()) {
      // journal_mode is persistent, so readers opened later see WAL too.
      c.createStatement().execute("PRAGMA journal_mode=WAL");
    } catch (SQLException e) {
      throw new StoreException("cannot open " + describe() + ": " + e.getMessage(), e);
    }
  }

  /** True when the SQLite file does not exist yet; a PostgreSQL database always exists. */
  public boolean missing() {
    return file != null && !Files.exists(file);
  }

  /** A new write connection (autocommit on, foreign keys enforced); the caller owns and closes it. */
  public Connection write() throws SQLException {
    return writers().getConnection();
  }

  /** Work that must not run in two processes at once, such as loading the demo into an empty database. */
  @FunctionalInterface
  public interface Exclusive<T> {
    T run() throws Exception;
  }

  /**
   * Runs {@code work} while no other process runs exclusive work on this store: on PostgreSQL
   * under a session advisory lock, held on a connection of its own. A SQLite file belongs to
   * one machine's processes, which the operator starts; there it simply runs.
   */
  public <T> T exclusively(Exclusive<T> work) throws Exception {
    if (file != null) return work.run();
    try (Connection lock = write(); var st = lock.createStatement()) {
      st.execute("SELECT pg_advisory_lock(" + EXCLUSIVE_LOCK + ")");
      try {
        return work.run();
      } finally {
        st.execute("SELECT pg_advisory_unlock(" + EXCLUSIVE_LOCK + ")");
      }
    }
  }

  /** Connections for writers and migrations. */
  public DataSource writers() {
    if (file != null) return sqlite(false);
    PGSimpleDataSource ds = postgres();
    ds.setReWriteBatchedInserts(true); // a batch of inserts becomes one multi-row INSERT
    return ds;
  }

  /**
   * The read pool's settings: read-only connections, each request in one transaction that
   * sees one snapshot. On PostgreSQL that takes REPEATABLE READ (its default, READ COMMITTED,
   * would let a count and its page see different imports), and a short wait for a connection,
   * so that a database that is down answers 503 quickly instead of holding requests.
   */
  HikariConfig readPool(String name, int size, Duration statementTimeout) {
    HikariConfig hc = new HikariConfig();
    if (file != null) {
      hc.setDataSource(sqlite(true));
    } else {
      PGSimpleDataSource ds = postgres();
      // The server ends a statement past the limit (SQLState 57014, StatementLimit.isTimeout).
      if (!statementTimeout.isZero()) ds.setOptions("-c statement_timeout=" + statementTimeout.toMillis());
      hc.setDataSource(ds);
    }
    hc.setPoolName(dialect.migrations + "-" + name);
    hc.setMaximumPoolSize(size);
    hc.setMinimumIdle(Math.min(2, size));
    hc.setAutoCommit(true);
    hc.setReadOnly(true);
    if (file == null) {
      hc.setTransactionIsolation("TRANSACTION_REPEATABLE_READ");
      hc.setConnectionTimeout(PG_POOL_WAIT_MS);
      // Start even while PostgreSQL is down: requests answer 503 until it is back.
      hc.setInitializationFailTimeout(-1);
    }
    return hc;
  }

  private SQLiteDataSource sqlite(boolean readOnly) {
    SQLiteConfig cfg = new SQLiteConfig();
    cfg.enforceForeignKeys(true);
    cfg.setBusyTimeout(SQLITE_BUSY_TIMEOUT_MS);
    cfg.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    cfg.setTempStore(SQLiteConfig.TempStore.MEMORY);
    cfg.setCacheSize(-32_000); // KiB: 32 MB page cache per connection
    if (readOnly) {
      cfg.setReadOnly(true);
      cfg.setOpenMode(SQLiteOpenMode.READONLY);
    } else {
      // A writer takes the write lock when its transaction begins, not at its first write: a
      // transaction that read first and then wrote after another writer committed would fail
      // at once with SQLITE_BUSY instead of waiting its turn (two imports at once did).
      cfg.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
      // Deleted records are overwritten with zeros in their pages, and freed pages whole, so that
      // deleted text does not linger in the file's free space (decisions.md "Deleting data"; the
      // write-ahead log is emptied after a delete, Dialect.eraseDeleted). Replacing a meeting
      // zeroes its old version the same way.
      cfg.setPragma(SQLiteConfig.Pragma.SECURE_DELETE, "true");
    }
    SQLiteDataSource ds = new SQLiteDataSource(cfg);
    ds.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
    return ds;
  }

  private PGSimpleDataSource postgres() {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setURL(url); // user and password travel in the URL (decisions.md)
    ds.setApplicationName("minutes");
    ds.setConnectTimeout(PG_CONNECT_TIMEOUT_SECONDS);
    ds.setSocketTimeout(PG_SOCKET_TIMEOUT_SECONDS);
    ds.setTcpKeepAlive(true);
    return ds;
  }
}
