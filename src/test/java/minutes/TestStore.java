package minutes;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import minutes.store.Migrations;
import minutes.store.Store;

/**
 * A fresh, empty database for one test, on the store the run is for: the suite runs once on
 * SQLite and once on a real PostgreSQL server (system property {@code minutes.test.store},
 * set per run by the build; PostgreSQL's superuser URL in MINUTES_TEST_PG_URL, from
 * scripts/with-postgres.sh). A PostgreSQL database is created here and dropped on close.
 */
public final class TestStore implements AutoCloseable {
  private static final AtomicInteger NEXT = new AtomicInteger();
  /** PostgreSQL: the database every migration was applied to once in this JVM, copied by {@link #createMigrated}. */
  private static String migratedTemplate;

  private final Store store;
  private final String database; // PostgreSQL: the database to drop; SQLite: null
  private final Path sqliteFile;

  private TestStore(Store store, String database, Path sqliteFile) {
    this.store = store;
    this.database = database;
    this.sqliteFile = sqliteFile;
  }

  /** True when this run of the suite is the PostgreSQL one. */
  public static boolean postgres() {
    return "postgresql".equals(System.getProperty("minutes.test.store", "sqlite"));
  }

  /** A new empty database: the SQLite file {@code dir/minutes.db}, or a new PostgreSQL database. */
  public static TestStore create(Path dir) {
    return postgres() ? createPostgres("") : createSqlite(dir);
  }

  /**
   * A new database with every migration applied, for tests of what is stored rather than of
   * migrations or of an empty database (those take {@link #create}). On PostgreSQL a copy of a
   * database migrated once per test JVM: copying took ~510 ms where creating and migrating took
   * ~780, and the suite's PostgreSQL run makes a database for most of its test classes.
   */
  public static TestStore createMigrated(Path dir) {
    if (!postgres()) {
      TestStore test = createSqlite(dir);
      Migrations.migrate(test.store);
      return test;
    }
    return createPostgres("TEMPLATE " + migratedTemplate());
  }

  private static synchronized String migratedTemplate() {
    if (migratedTemplate == null) {
      TestStore template = createPostgres("");
      // Flyway's connections close when it returns: PostgreSQL copies no database someone is connected to.
      Migrations.migrate(template.store);
      Runtime.getRuntime().addShutdownHook(new Thread(template::close));
      migratedTemplate = template.database;
    }
    return migratedTemplate;
  }

  /** A new SQLite file {@code dir/minutes.db}, whichever store the run is for (to compare the two). */
  public static TestStore createSqlite(Path dir) {
    Path file = dir.resolve("minutes.db");
    return new TestStore(Store.sqlite(file), null, file);
  }

  private static TestStore createPostgres(String options) {
    String name = "minutes_t" + ProcessHandle.current().pid() + "_" + NEXT.incrementAndGet();
    try (Connection c = DriverManager.getConnection(adminUrl()); Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + name + " " + options);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create PostgreSQL database " + name + ": " + e.getMessage(), e);
    }
    return new TestStore(Store.postgres(urlOf(name)), name, null);
  }

  /** The superuser URL of the test server; the run fails here when there is none. */
  static String adminUrl() {
    String url = System.getenv("MINUTES_TEST_PG_URL");
    if (url == null || url.isBlank()) {
      throw new IllegalStateException("the PostgreSQL run needs MINUTES_TEST_PG_URL; run the suite with ./run.sh test, "
          + "which starts a throwaway PostgreSQL server (scripts/with-postgres.sh)");
    }
    return url;
  }

  private static String urlOf(String database) {
    return adminUrl().replaceFirst("/[^/?]*(\\?|$)", "/" + database + "$1");
  }

  public Store store() {
    return store;
  }

  public boolean isPostgres() {
    return database != null;
  }

  /** The SQLite file; tests that read the file itself (permissions, raw bytes) need it. */
  public Path sqliteFile() {
    if (sqliteFile == null) throw new IllegalStateException("not a SQLite store");
    return sqliteFile;
  }

  /** The settings an operator would give for this store, as MINUTES_* variables. */
  public Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    if (isPostgres()) {
      env.put("MINUTES_DB_URL", urlOf(database));
    } else {
      env.put("MINUTES_DB_PATH", sqliteFile.toString());
    }
    return env;
  }

  /** The same settings as lines of a properties file. */
  public String properties() {
    return isPostgres() ? "db.url=" + urlOf(database) + "\n" : "db.path=" + sqliteFile + "\n";
  }

  /**
   * Writes {@code dir/minutes.properties} for this store with {@code moreProperties} (lines such as
   * index.path=...), imports the fixtures through the import command with it, and returns the file.
   */
  public Path withFixtures(Path dir, String moreProperties) throws java.io.IOException {
    Path props = dir.resolve("minutes.properties");
    java.nio.file.Files.writeString(props, properties() + moreProperties);
    Path data = dir.resolve("fixtures.ndjson");
    try (var in = TestStore.class.getResourceAsStream("/fixtures.ndjson")) {
      java.nio.file.Files.copy(in, data);
    }
    CliRun imported = CliRun.of(props, "import", data.toString());
    if (imported.code() != 0) throw new IllegalStateException("the fixtures did not import: " + imported.err());
    return props;
  }

  /** Drops a PostgreSQL database, closing what is still connected to it. */
  @Override
  public void close() {
    if (database == null) return;
    try (Connection c = DriverManager.getConnection(adminUrl()); Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot drop PostgreSQL database " + database + ": " + e.getMessage(), e);
    }
  }
}
