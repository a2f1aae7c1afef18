package minutes.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.concurrent.Callable;
import minutes.config.Config;
import minutes.search.IndexBuilds;
import minutes.store.Db;
import minutes.store.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code backup --out DIR}: a consistent copy of the database and the search index, safe
 * while the server runs. The index is copied first, then the database, so the copied index
 * is never ahead of the copied database; then the index copy is brought to the database copy's
 * state with every deleted document merged away, so that a backup taken after a delete holds
 * none of the deleted text (VACUUM INTO copies no free space).
 */
@Command(name = "backup", description = "Copy the database and the search index to a new folder; safe while the server runs.")
final class BackupCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Folder to create; must not exist yet.")
  Path out;

  @Override
  public Integer call() throws Exception {
    Config config = Cli.config(spec);
    PrintWriter print = spec.commandLine().getOut();
    Store store = Store.of(config);
    if (store.sqliteFile().isEmpty()) {
      throw new Cli.UserError("backup copies a SQLite database; on PostgreSQL back up the database with pg_dump or "
          + "point-in-time recovery, and rebuild each node's search index with `reindex` after a restore "
          + "(docs/CLUSTER.md#backup-and-restore)");
    }
    if (Files.exists(out)) throw new Cli.UserError(out + " already exists; choose a new folder");
    if (!Files.isRegularFile(config.dbPath())) throw new Cli.UserError("no database at " + config.dbPath());
    Files.createDirectories(out);
    // A backup holds every meeting: as private as what it copies (database 0600, index 0700).
    Db.ownerOnly(out, "rwx------");
    String generation = IndexBuilds.copyLive(config.indexPath(), out.resolve("index"));
    Path db = out.resolve("minutes.db");
    // VACUUM INTO writes one consistent snapshot (a read transaction) without blocking the server.
    try (Connection c = store.write();
        PreparedStatement ps = c.prepareStatement("VACUUM INTO ?")) {
      ps.setString(1, db.toAbsolutePath().toString());
      ps.execute();
    }
    Db.ownerOnly(db, "rw-------");
    if (generation != null) IndexBuilds.settleBackup(out.resolve("index"), Store.sqlite(db));
    print.printf("backed up database (%,.1f MB) and %s to %s%n", Files.size(db) / 1e6,
        generation == null ? "no search index (none built yet, or one of another format: the server builds one from the database)"
            : "search index " + generation, out);
    return 0;
  }
}
