package minutes.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import minutes.config.Config;
import minutes.keys.ApiKeys;
import minutes.store.Importer;
import minutes.store.StoreException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The command line: every subcommand is listed here, with the shared {@code --config}.
 * Exit codes: 0 ok, 1 failure, 2 usage. Output goes to the writers given, never to System.out.
 */
@Command(name = "minutes", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
    description = "Self-hosted read-only API over meeting notes, with full-text search.",
    subcommands = {ServeCommand.class, ImportCommand.class, KeysCommand.class, MigrateCommand.class,
        ReindexCommand.class, BackupCommand.class, WebhooksCommand.class, minutes.generate.GenerateCommand.class})
public final class Cli implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--config", scope = ScopeType.INHERIT, paramLabel = "FILE",
      description = "Properties file (default: config/minutes.properties when it exists).")
  Path configFile;

  @CommandLine.Spec CommandSpec spec;

  /** No subcommand means serve. */
  @Override
  public Integer call() throws Exception {
    return ServeCommand.serve(spec);
  }

  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new Cli());
    cl.setOut(out);
    cl.setErr(err);
    cl.setExecutionExceptionHandler((e, line, parsed) -> {
      line.getErr().println("error: " + userMessage(e));
      if (!(e instanceof UserError)) {
        org.slf4j.LoggerFactory.getLogger(Cli.class).debug("command failed", e);
      }
      return 1;
    });
    return cl.execute(args);
  }

  /** The configuration every command uses: the --config file, then MINUTES_* variables. */
  static Config config(CommandSpec spec) {
    return Config.load(((Cli) spec.root().userObject()).configFile, System.getenv());
  }

  /** A write connection to the configured database, migrated first (keys, webhooks). */
  static java.sql.Connection writeMigrated(CommandSpec spec) throws java.sql.SQLException {
    minutes.store.Store store = minutes.store.Store.of(config(spec));
    minutes.store.Migrations.migrate(store);
    return store.write();
  }

  /** A change to one row by its id: false when there is no such row. */
  @FunctionalInterface
  interface ById {
    boolean apply(java.sql.Connection c, String id) throws java.sql.SQLException;
  }

  /**
   * Applies {@code change} to row {@code id} (revoke a key, delete or enable a webhook) and says
   * "{@code done} ID"; one line {@code missing} and exit 1 when there is no such row.
   */
  static int changeById(CommandSpec spec, String id, String done, String missing, ById change) throws java.sql.SQLException {
    try (java.sql.Connection c = writeMigrated(spec)) {
      if (!change.apply(c, id)) throw new UserError(missing);
    }
    spec.commandLine().getOut().println(done + " " + id);
    return 0;
  }

  /** A value of a listing's column: "-" for none. */
  static String dash(String s) {
    return s == null ? "-" : s;
  }

  /** Failures whose message is meant for the user as it is. */
  static String userMessage(Exception e) {
    if (e instanceof UserError || e instanceof Config.ConfigException || e instanceof StoreException
        || e instanceof ApiKeys.KeyException || e instanceof Importer.Refused
        || e instanceof minutes.webhooks.Webhooks.WebhookException) {
      return e.getMessage();
    }
    if (e instanceof java.io.IOException) return "I/O error: " + e.getMessage();
    if (e instanceof java.sql.SQLException) return "database error: " + e.getMessage();
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  /** A failure to report as one line, without a stack trace. */
  static final class UserError extends RuntimeException {
    UserError(String message) {
      super(message);
    }
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"minutes " + minutes.App.version()};
    }
  }
}
