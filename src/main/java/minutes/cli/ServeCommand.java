package minutes.cli;

import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.List;
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
    String demoKey = null;
    if (isEmpty(config.dbPath())) {
      demoKey = loadDemo(config, out, spec.commandLine().getErr());
    } else if (config.autoMigrate()) {
      Migrations.migrate(config.dbPath());
    } else {
      List<String> pending = Migrations.pending(config.dbPath());
      if (!pending.isEmpty()) {
        log.warn("{} migration(s) pending ({}); endpoints that need them answer 503 until you run: ./run.sh migrate",
            pending.size(), String.join(", ", pending));
      }
    }
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

  /** True for a missing database or one that holds no workspace yet. */
  private static boolean isEmpty(Path db) throws SQLException {
    if (!Files.exists(db)) return true;
    try (Connection c = Db.openWriter(db)) {
      return !Db.tables(c).contains("workspace")
          || new Sql("SELECT 1 FROM workspace LIMIT 1").one(c, rs -> true).isEmpty();
    }
  }

  private static String loadDemo(Config config, PrintWriter out, PrintWriter err) throws Exception {
    out.println("Empty database " + config.dbPath() + ": loading the demo data...");
    Path file = Files.createTempFile("minutes-demo-", ".ndjson");
    try {
      try (Writer w = Files.newBufferedWriter(file)) {
        DemoData.write(QmsumCorpus.load(QmsumCorpus.DEFAULT_PATH), w);
      }
      if (ImportCommand.run(config, List.of(file), out, err) != 0) throw new Cli.UserError("the demo data did not import");
    } finally {
      Files.deleteIfExists(file);
    }
    try (Connection c = Db.openWriter(config.dbPath())) {
      return ApiKeys.create(c, "demo", EnumSet.allOf(Scope.class), null, "demo").secret();
    }
  }
}
