package minutes.store;

import java.util.Arrays;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;

/**
 * Versioned schema changes, applied by Flyway: {@code resources/db/migration/sqlite} and
 * {@code .../postgresql} hold the same versions, each written for its store. Safe to run from
 * several processes at once (Flyway locks the history table; on PostgreSQL with an advisory lock).
 */
public final class Migrations {
  private Migrations() {}

  /** Flyway on the store, a SQLite file created first (owner-only, with its folder) when it does not exist yet. */
  private static Flyway flyway(Store store, String target) {
    store.ensureCreated(); // before Flyway's first connection, which would create the file readable by all
    var cfg = Flyway.configure()
        .dataSource(store.writers())
        .locations("classpath:db/migration/" + store.dialect().migrations)
        .loggers("slf4j");
    if (target != null) cfg.target(target);
    return cfg.load();
  }

  /** Applies every pending migration; returns how many were applied. */
  public static int migrate(Store store) {
    return migrateTo(store, null);
  }

  /** Applies pending migrations up to and including {@code version} (tests and staged upgrades). */
  public static int migrateTo(Store store, String version) {
    return flyway(store, version).migrate().migrationsExecuted;
  }

  /** Descriptions of the migrations not yet applied, in order. */
  public static List<String> pending(Store store) {
    return Arrays.stream(flyway(store, null).info().pending())
        .map(MigrationInfo::getScript)
        .toList();
  }
}
