package minutes.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import minutes.config.Config;
import minutes.search.index.IndexBuilds;
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
    Store.Copier database = store.backup(); // a store this command cannot copy says what to use instead
    if (Files.exists(out)) throw new Cli.UserError(out + " already exists; choose a new folder");
    if (store.missing()) throw new Cli.UserError("no database at " + store.location());
    Files.createDirectories(out);
    // A backup holds every meeting: as private as what it copies (database 0600, index 0700).
    Db.ownerOnly(out, "rwx------");
    String generation = IndexBuilds.copyLive(config.indexPath(), out.resolve("index"));
    Path db = out.resolve("minutes.db");
    Store copy = database.copyInto(db);
    if (generation != null) IndexBuilds.settleBackup(out.resolve("index"), copy);
    print.printf("backed up database (%,.1f MB) and %s to %s%n", Files.size(db) / 1e6,
        generation == null ? "no search index (none built yet, or one of another format: the server builds one from the database)"
            : "search index " + generation, out);
    return 0;
  }
}
