package minutes.cli;

import java.util.concurrent.Callable;
import minutes.config.Config;
import minutes.store.Migrations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code migrate}: applies pending schema migrations; safe while the server runs. */
@Command(name = "migrate", description = "Apply pending database migrations.")
final class MigrateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Config config = Cli.config(spec);
    var pending = Migrations.pending(config.dbPath());
    int applied = Migrations.migrate(config.dbPath());
    spec.commandLine().getOut().println(applied == 0
        ? "database " + config.dbPath() + " is up to date"
        : "applied " + applied + " migration(s) to " + config.dbPath() + ": " + String.join(", ", pending));
    return 0;
  }
}
