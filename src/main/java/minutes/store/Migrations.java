package minutes.store;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;

/** Versioned schema changes in {@code resources/db/migration}, applied by Flyway. */
public final class Migrations {
  private Migrations() {}

  /** Flyway on the database, created first (owner-only, with its folder) when it does not exist yet. */
  private static Flyway flyway(Path dbPath, String target) {
    Db.ensureCreated(dbPath); // before Flyway's first connection, which would create it readable by all
    var cfg = Flyway.configure()
        .dataSource(Db.writerDataSource(dbPath))
        .locations("classpath:db/migration")
        .loggers("slf4j");
    if (target != null) cfg.target(target);
    return cfg.load();
  }

  /** Applies every pending migration; returns how many were applied. */
  public static int migrate(Path dbPath) {
    return migrateTo(dbPath, null);
  }

  /** Applies pending migrations up to and including {@code version} (tests and staged upgrades). */
  public static int migrateTo(Path dbPath, String version) {
    return flyway(dbPath, version).migrate().migrationsExecuted;
  }

  /** Descriptions of the migrations not yet applied, in order. */
  public static List<String> pending(Path dbPath) {
    return Arrays.stream(flyway(dbPath, null).info().pending())
        .map(MigrationInfo::getScript)
        .toList();
  }
}
