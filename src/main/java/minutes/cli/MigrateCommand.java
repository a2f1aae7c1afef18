package minutes.cli;

import java.util.concurrent.Callable;
import minutes.store.Migrations;
import minutes.store.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code migrate}: applies pending schema migrations; safe while the server runs. */
@Command(name = "migrate", description = "Apply pending database migrations.")
final class MigrateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Store store = Store.of(Cli.config(spec));
    var pending = Migrations.pending(store);
    int applied = Migrations.migrate(store);
    spec.commandLine().getOut().println(applied == 0
        ? "database " + store.location() + " is up to date"
        : "applied " + applied + " migration(s) to " + store.location() + ": " + String.join(", ", pending));
    return 0;
  }
}
