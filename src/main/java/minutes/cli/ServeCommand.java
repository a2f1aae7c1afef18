package minutes.cli;

import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import minutes.App;
import minutes.config.Config;
import minutes.generate.DemoData;
import minutes.generate.QmsumCorpus;
import minutes.keys.Scope;
import minutes.keys.ApiKeys;
import minutes.store.Db;
import minutes.store.Store;
import minutes.store.Migrations;
import minutes.store.Sql;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * {@code serve} (also the default): starts the API. On a database without any workspace it
 * first loads the bundled demo data through the normal import and prints a demo key.
 */
@Command(name = "serve", description = "Start the server (loads demo data on an empty database).")
final class ServeCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    return serve(spec);
  }

  static int serve(CommandSpec spec) throws Exception {
    Config config = Cli.config(spec);
    PrintWriter out = spec.commandLine().getOut();
    Store store = Store.of(config);
    // Nodes started together on one empty PostgreSQL database: one loads the demo, the others wait and find it there.
    String demoKey = store.exclusively(() -> isEmpty(store) ? loadDemo(config, store, out, spec.commandLine().getErr()) : null);
    if (demoKey == null) migrateOrWarn(config, store); // loading the demo migrated already
    App app = new App(config).start();
    CountDownLatch stopped = new CountDownLatch(1);
    Thread shutdown = new Thread(() -> {
      app.close();
      stopped.countDown();
    }, "shutdown");
    onStopSignal(shutdown); // before saying we serve: a stop sent right after must be graceful too
    // Any other way the JVM ends (System.exit, SIGHUP) still closes the index and database.
    Runtime.getRuntime().addShutdownHook(new Thread(app::close, "shutdown-hook"));
    String base = "http://" + config.httpHost() + ":" + app.port();
    if (demoKey != null) {
      out.println();
      out.println("Demo data loaded. Demo key (all scopes, workspace 'demo'):");
      out.println("  " + demoKey);
      out.println("Try:");
      out.println("  curl -H 'Authorization: Bearer " + demoKey + "' " + base + "/api/v1/meetings");
      out.println();
    }
    out.println("minutes is serving on " + base + " (Ctrl-C to stop)");
    out.flush();
    stopped.await();
    return 0;
  }

  /**
   * The first SIGTERM or SIGINT starts a graceful stop; a second one exits at once. A plain
   * shutdown hook cannot do this: the JVM ignores further signals while its hooks run.
   */
  private static void onStopSignal(Thread shutdown) {
    AtomicBoolean signalled = new AtomicBoolean();
    SignalHandler handler = signal -> {
      if (signalled.getAndSet(true)) {
        log.warn("second SIG{}: exiting now, without waiting for requests in flight", signal.getName());
        Runtime.getRuntime().halt(128 + signal.getNumber());
      }
      log.info("SIG{}: stopping gracefully (send it again to exit at once)", signal.getName());
      shutdown.start();
    };
    Signal.handle(new Signal("TERM"), handler);
    Signal.handle(new Signal("INT"), handler);
  }

  private static void migrateOrWarn(Config config, Store store) {
    if (config.autoMigrate()) {
      Migrations.migrate(store);
      return;
    }
    List<String> pending = Migrations.pending(store);
    if (!pending.isEmpty()) {
      log.warn("{} migration(s) pending ({}); endpoints that need them answer 503 until you run: ./run.sh migrate",
          pending.size(), String.join(", ", pending));
    }
  }

  /**
   * True for a missing database or one that holds no workspace and never had an import: a
   * database whose workspaces were all deleted stays empty, without the demo coming back.
   */
  private static boolean isEmpty(Store store) throws SQLException {
    if (store.missing()) return true;
    try (Connection c = store.write()) {
      Set<String> tables = store.dialect().tables(c);
      if (!tables.contains("workspace")) return true;
      if (new Sql("SELECT 1 FROM workspace LIMIT 1").one(c, rs -> true).isPresent()) return false;
      return !tables.contains("change_state") || Db.knownImportCount(c).orElse(0L) == 0;
    }
  }

  private static String loadDemo(Config config, Store store, PrintWriter out, PrintWriter err) throws Exception {
    out.println("Empty database " + store.location() + ": loading the demo data...");
    Path file = Files.createTempFile("minutes-demo-", ".ndjson");
    try {
      try (Writer w = Files.newBufferedWriter(file)) {
        DemoData.write(QmsumCorpus.load(QmsumCorpus.DEFAULT_PATH), w);
      }
      if (ImportCommand.run(config, List.of(file), out, err) != 0) throw new Cli.UserError("the demo data did not import");
    } finally {
      Files.deleteIfExists(file);
    }
    try (Connection c = store.write()) {
      return ApiKeys.create(c, "demo", EnumSet.allOf(Scope.class), null, "demo").secret();
    }
  }
}
