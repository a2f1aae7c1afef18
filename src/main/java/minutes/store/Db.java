package minutes.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import javax.sql.DataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteOpenMode;

/**
 * The SQLite database: a pool of read-only connections for serving, and single write
 * connections for import, keys and migrations. Thread-safe.
 *
 * <p>WAL mode lets one writer (an import in another process) commit while readers keep
 * answering from their snapshot.
 */
public final class Db implements AutoCloseable {
  private static final int BUSY_TIMEOUT_MS = 30_000;

  private final Path path;
  private final HikariDataSource readPool;
  private final StatementLimit limit;

  private Db(Path path, int poolSize, StatementLimit limit) {
    this.path = path;
    this.limit = limit;
    HikariConfig hc = new HikariConfig();
    hc.setDataSource(dataSource(path, true));
    hc.setPoolName("sqlite-read");
    hc.setMaximumPoolSize(poolSize);
    hc.setMinimumIdle(Math.min(2, poolSize));
    hc.setAutoCommit(true);
    hc.setReadOnly(true);
    readPool = new HikariDataSource(hc);
  }

  /** Opens the database for commands, without time limits; the file must exist (see {@link #ensureCreated}). */
  public static Db open(Path path, int poolSize) {
    return new Db(path, poolSize, StatementLimit.NONE);
  }

  /** Opens the database for serving: {@link #readForRequest} limits each statement to {@code statementTimeout} (zero: no limit). */
  public static Db open(Path path, int poolSize, Duration statementTimeout) {
    return new Db(path, poolSize, new StatementLimit(statementTimeout));
  }

  /**
   * Creates the file with owner-only permissions when it does not exist yet, and switches
   * it to WAL. Meetings are private data, so the file is never world-readable.
   */
  public static void ensureCreated(Path path) {
    try {
      Path parent = path.toAbsolutePath().getParent();
      if (parent != null) Files.createDirectories(parent);
      if (!Files.exists(path)) {
        Files.createFile(path);
        ownerOnly(path, "rw-------");
      }
    } catch (IOException e) {
      throw new StoreException("cannot create database file " + path + ": " + e.getMessage(), e);
    }
    try (Connection c = openWriter(path)) {
      // journal_mode is persistent, so readers opened later see WAL too.
      c.createStatement().execute("PRAGMA journal_mode=WAL");
    } catch (SQLException e) {
      throw new StoreException("cannot open database " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * Sets POSIX permissions such as "rw-------" on what holds meeting data (database, index,
   * backups); on a file system without them there is nothing to tighten.
   */
  public static void ownerOnly(Path path, String permissions) {
    try {
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(permissions));
    } catch (UnsupportedOperationException | IOException notPosix) {
      // Not a POSIX file system (or not ours to change): nothing to tighten.
    }
  }

  /** A pooled read-only connection without a time limit, for background work; close it to return it. */
  public Connection read() throws SQLException {
    return readPool.getConnection();
  }

  /**
   * A pooled read-only connection for answering a request: each statement on it stops at the
   * statement time limit ({@link StatementLimit#isTimeout} tells that failure). Close it to return it.
   */
  public Connection readForRequest() throws SQLException {
    return limit.limit(readPool.getConnection());
  }

  /** A new write connection with foreign keys on; the caller owns and closes it. */
  public Connection write() throws SQLException {
    return openWriter(path);
  }

  public Path path() {
    return path;
  }

  /** {@link #dataVersion}, or empty on a database from before the change log (migration 3). */
  public static java.util.Optional<Long> knownDataVersion(Connection c) {
    try {
      return java.util.Optional.of(dataVersion(c));
    } catch (SQLException noChangeLogYet) {
      return java.util.Optional.empty();
    }
  }

  /**
   * The data version a read transaction sees: the last change_log seq (0 while it is empty).
   * Every import that changes a meeting (and so its tasks, participants or visibility)
   * appends to change_log.
   */
  public static long dataVersion(Connection c) throws SQLException {
    return new Sql("SELECT coalesce(max(seq), 0) FROM change_log").count(c);
  }

  /** The id of the workspace with this slug. */
  public static java.util.Optional<Long> workspaceId(Connection c, String slug) throws SQLException {
    return new Sql("SELECT id FROM workspace WHERE slug = ?", slug).one(c, rs -> rs.getLong(1));
  }

  /** Names of the tables that exist now: endpoints whose tables are missing answer 503. */
  public static Set<String> tables(Connection c) throws SQLException {
    return Set.copyOf(new Sql("SELECT name FROM sqlite_schema WHERE type = 'table'").list(c, rs -> rs.getString(1)));
  }

  /**
   * How many rows of {@code fromWhere} ("table WHERE ...", fixed SQL) each workspace has, e.g.
   * for in-memory orders to size their arrays exactly.
   */
  public static java.util.Map<Long, Integer> rowsPerWorkspace(Connection c, String fromWhere) throws SQLException {
    java.util.Map<Long, Integer> counts = new java.util.HashMap<>();
    new Sql("SELECT workspace_id, count(*) FROM " + fromWhere + " GROUP BY workspace_id")
        .list(c, rs -> counts.put(rs.getLong(1), rs.getInt(2)));
    return counts;
  }

  public static Connection openWriter(Path path) throws SQLException {
    return dataSource(path, false).getConnection();
  }

  public static DataSource writerDataSource(Path path) {
    return dataSource(path, false);
  }

  private static SQLiteDataSource dataSource(Path path, boolean readOnly) {
    SQLiteConfig cfg = new SQLiteConfig();
    cfg.enforceForeignKeys(true);
    cfg.setBusyTimeout(BUSY_TIMEOUT_MS);
    cfg.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    cfg.setTempStore(SQLiteConfig.TempStore.MEMORY);
    cfg.setCacheSize(-32_000); // KiB: 32 MB page cache per connection
    if (readOnly) {
      cfg.setReadOnly(true);
      cfg.setOpenMode(SQLiteOpenMode.READONLY);
    }
    SQLiteDataSource ds = new SQLiteDataSource(cfg);
    ds.setUrl("jdbc:sqlite:" + path.toAbsolutePath());
    return ds;
  }

  @Override
  public void close() {
    readPool.close();
  }
}
