package minutes.store;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteOpenMode;

/** The embedded store: one SQLite file in WAL mode, which the processes of one machine share. Immutable. */
final class SqliteStore extends Store {
  private static final int BUSY_TIMEOUT_MS = 30_000;

  private final Path file;

  SqliteStore(Path file) {
    super(Dialect.SQLITE);
    this.file = file;
  }

  /** None: the one node reads its key and the data version in-process on each request. */
  @Override
  public DataWatch watch() {
    return DataWatch.NONE;
  }

  @Override
  public String location() {
    return file.toString();
  }

  @Override
  public String describe() {
    return "SQLite database " + file;
  }

  /**
   * Creates a missing file with owner-only permissions (meetings are private data) and switches
   * it to WAL, so that readers keep answering while one writer commits.
   */
  @Override
  public void ensureCreated() {
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

  @Override
  public boolean missing() {
    return !Files.exists(file);
  }

  @Override
  public DataSource writers() {
    return dataSource(false);
  }

  /** A file belongs to one machine's processes, which the operator starts: the work simply runs. */
  @Override
  public <T> T exclusively(Exclusive<T> work) throws Exception {
    return work.run();
  }

  /** The file with its write-ahead log. */
  @Override
  public long sizeBytes(Connection c) throws IOException {
    Path wal = file.resolveSibling(file.getFileName() + "-wal");
    return Files.size(file) + (Files.exists(wal) ? Files.size(wal) : 0);
  }

  @Override
  public String unusable(SQLException e) {
    return "database: not usable";
  }

  /** VACUUM INTO: one read transaction, so the server goes on; it copies no free space (erasure). */
  @Override
  public Copier backup() {
    return target -> {
      try (Connection c = write()) {
        new Sql("VACUUM INTO ?", target.toAbsolutePath().toString()).update(c);
      }
      Db.ownerOnly(target, "rw-------");
      return new SqliteStore(target);
    };
  }

  /**
   * Read-only pools: one for requests, whose connections keep their prepared statements
   * ({@link StatementKeepingConnection}) and each get the statement time limit once as the pool
   * opens them ({@link StatementLimit}: SQLite has no statement timeout of its own), and a small
   * one without either for background work.
   */
  @Override
  ReadPools readPools(int size, Duration statementTimeout) {
    return new ReadPools(new HikariDataSource(readPool(requests(statementTimeout), "request", size)),
        new HikariDataSource(readPool(dataSource(true), "background", Db.BACKGROUND_CONNECTIONS)));
  }

  /** Read-only connections that keep their statements, each given the time limit (unless zero) as the pool opens it. */
  private SQLiteDataSource requests(Duration statementTimeout) {
    SQLiteDataSource ds = new SQLiteDataSource(config(true)) {
      @Override
      public SQLiteConnection getConnection(String user, String password) throws SQLException {
        SQLiteConnection c = new StatementKeepingConnection(url(), file.toAbsolutePath().toString(),
            getConfig().toProperties());
        if (!statementTimeout.isZero()) StatementLimit.install(c, statementTimeout);
        return c;
      }
    };
    ds.setUrl(url());
    return ds;
  }

  private SQLiteDataSource dataSource(boolean readOnly) {
    SQLiteDataSource ds = new SQLiteDataSource(config(readOnly));
    ds.setUrl(url());
    return ds;
  }

  private String url() {
    return "jdbc:sqlite:" + file.toAbsolutePath();
  }

  private static SQLiteConfig config(boolean readOnly) {
    SQLiteConfig cfg = new SQLiteConfig();
    cfg.enforceForeignKeys(true);
    cfg.setBusyTimeout(BUSY_TIMEOUT_MS);
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
    return cfg;
  }
}
