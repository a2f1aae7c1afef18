package minutes.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import minutes.config.Config;

/**
 * Where the records live: a SQLite file ({@link SqliteStore}, the embedded default) or a
 * PostgreSQL database ({@link PostgresStore}, cluster mode, {@code db.url}). Hands out write
 * connections and the read pools {@link Db} serves from, and answers for itself what differs
 * beyond SQL ({@link Dialect}): its size, its health message, how it is backed up. Callers ask
 * the store, never which one it is. Immutable and cheap: every command makes one from its
 * configuration.
 */
public abstract sealed class Store permits SqliteStore, PostgresStore {
  private final Dialect dialect;

  Store(Dialect dialect) {
    this.dialect = dialect;
  }

  /** The store the configuration names: PostgreSQL when {@code db.url} is set, else the SQLite file {@code db.path}. */
  public static Store of(Config config) {
    return config.usesPostgres() ? postgres(config.dbUrl()) : sqlite(config.dbPath());
  }

  public static Store sqlite(Path file) {
    return new SqliteStore(file);
  }

  public static Store postgres(String jdbcUrl) {
    return new PostgresStore(jdbcUrl);
  }

  public Dialect dialect() {
    return dialect;
  }

  /** For messages and logs: the file, or the URL without its password. */
  public abstract String location();

  /** {@link #location()} with the kind of store, for messages that must say which. */
  public abstract String describe();

  /** Creates what the store needs to exist before its first migration, where the operator does not. */
  public abstract void ensureCreated();

  /** True when the database does not exist yet (a SQLite file not created). */
  public abstract boolean missing();

  /** A new write connection (autocommit on, foreign keys enforced); the caller owns and closes it. */
  public Connection write() throws SQLException {
    return writers().getConnection();
  }

  /** Connections for writers and migrations. */
  public abstract DataSource writers();

  /** Work that must not run in two processes at once, such as loading the demo into an empty database. */
  @FunctionalInterface
  public interface Exclusive<T> {
    T run() throws Exception;
  }

  /** Runs {@code work} while no other process runs exclusive work on this store. */
  public abstract <T> T exclusively(Exclusive<T> work) throws Exception;

  /**
   * What the store takes on disk, read through {@code c} where the database must say: for
   * /metrics. Fails when it cannot be read now.
   */
  public abstract long sizeBytes(Connection c) throws Exception;

  /** What /healthz says when a request connection failed with {@code e}. */
  public abstract String unusable(SQLException e);

  /** Copies the database into a new file as one consistent snapshot, while a server may run. */
  @FunctionalInterface
  public interface Copier {
    /** The copy, a store of its own. */
    Store copyInto(Path file) throws SQLException;
  }

  /**
   * How {@code backup} copies this store; a {@link StoreException} saying what to use instead
   * where it cannot (PostgreSQL has its own tools).
   */
  public abstract Copier backup();

  /**
   * The pools a server reads through: {@code requests}, each statement limited to {@code
   * statementTimeout} by {@code limit} or by the pool itself; {@code background}, without a
   * limit (the same pool where one serves both). Close both (once where they are the same).
   */
  record ReadPools(HikariDataSource requests, HikariDataSource background) {}

  abstract ReadPools readPools(int size, Duration statementTimeout);

  /**
   * The settings both stores' read pools share: read-only connections in autocommit, each request
   * in one read transaction that {@code Routes} begins, so that a count and its page see one snapshot.
   */
  HikariConfig readPool(DataSource source, String name, int size) {
    HikariConfig hc = new HikariConfig();
    hc.setDataSource(source);
    hc.setPoolName(dialect().migrations + "-" + name);
    hc.setMaximumPoolSize(size);
    hc.setMinimumIdle(Math.min(2, size));
    hc.setAutoCommit(true);
    hc.setReadOnly(true);
    return hc;
  }
}
