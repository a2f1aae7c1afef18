package minutes.cli;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import minutes.config.Config;
import minutes.store.Importer;
import minutes.store.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code import FILE...}: loads NDJSON (decisions.md); all lines land or none does. Safe while
 * the server runs: it keeps answering from its snapshot and sees the import once committed.
 */
@Command(name = "import", description = "Import NDJSON files (- for standard input); all or nothing.")
final class ImportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE") List<String> files;

  @Override
  public Integer call() throws Exception {
    Config config = Cli.config(spec);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<Path> paths = new ArrayList<>();
    Path spooled = null;
    try {
      for (String f : files) {
        if (f.equals("-")) {
          // Both passes read the input, so standard input is kept on disk, never in memory.
          if (spooled == null) {
            spooled = Files.createTempFile("minutes-import-", ".ndjson");
            try (InputStream in = System.in) {
              Files.copy(in, spooled, StandardCopyOption.REPLACE_EXISTING);
            }
          }
          paths.add(spooled);
        } else {
          Path p = Path.of(f);
          if (!Files.isRegularFile(p)) throw new Cli.UserError("no such file: " + f);
          paths.add(p);
        }
      }
      return run(config, paths, out, err);
    } finally {
      if (spooled != null) Files.deleteIfExists(spooled);
    }
  }

  static int run(Config config, List<Path> paths, PrintWriter out, PrintWriter err) throws Exception {
    ProgressLine bar = new ProgressLine(err);
    Importer importer = new Importer(Store.of(config), Duration.ofDays(config.changesRetentionDays()), (phase, lines, read, total) ->
        bar.show(phase, total == 0 ? 1 : (double) read / total,
            String.format("%,d lines, %,.1f of %,.1f MB", lines, read / 1e6, total / 1e6)));
    Importer.Summary s;
    try {
      s = importer.run(paths);
    } catch (Importer.Refused refused) {
      bar.done();
      for (Importer.LineError e : refused.errors()) err.println(e);
      if (refused.errors().size() < refused.badLines()) {
        err.println("... and more; only the first " + refused.errors().size() + " faults are listed");
      }
      err.println("import refused: " + refused.getMessage());
      return 1;
    }
    bar.done();
    out.printf("imported %,d lines: %,d workspaces, %,d users, %,d companies, %,d meetings, %,d tasks, %,d deletes "
            + "(%.1f MB in %.1f s: %,.0f meetings/s, %.1f MB/s)%n",
        s.lines(), s.workspaces(), s.users(), s.companies(), s.meetings(), s.tasks(), s.deletes(), s.bytes() / 1e6,
        s.seconds(), s.meetings() / Math.max(s.seconds(), 1e-9), s.bytes() / 1e6 / Math.max(s.seconds(), 1e-9));
    if (s.erasure().complete() && !s.erasure().done().isEmpty()) {
      out.printf("erased what the deletes removed: %s (%.1f s)%n", s.erasure().done(), s.erasure().seconds());
    } else if (!s.erasure().complete()) {
      // The data is in; only the bytes of what it deleted may still stand in the store's files.
      err.printf("the import is complete, but erasure is not: %s%n", s.erasure().done());
    }
    try {
      out.println(minutes.search.IndexBuilds.updateAfterImport(config));
    } catch (java.io.IOException e) {
      // The data is in: say so, or the user takes the import for failed (e.g. a read-only index folder).
      err.println("the import is complete, but the search index could not be updated: " + e.getMessage()
          + "; a running server catches up by itself, otherwise run `reindex` once that is fixed");
      return 1;
    }
    return s.erasure().complete() ? 0 : 1;
  }
}
