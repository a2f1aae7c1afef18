package minutes.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import minutes.config.Config;
import minutes.search.index.IndexBuilds;
import minutes.store.Db;
import minutes.store.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code reindex}: rebuilds the search index from the database into a fresh directory and
 * then makes it the live one; a running server keeps answering from the old index until it
 * has switched (docs/SEARCH.md).
 */
@Command(name = "reindex", description = "Rebuild the search index from the database; safe while the server runs.")
final class ReindexCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Config config = Cli.config(spec);
    PrintWriter out = spec.commandLine().getOut();
    ProgressLine bar = new ProgressLine(spec.commandLine().getErr());
    long started = System.nanoTime();
    int threads = IndexBuilds.indexingThreads();
    IndexBuilds.Built b;
    try (Db db = Db.open(Store.of(config), 1)) {
      b = IndexBuilds.rebuild(config.indexPath(), db, threads, (done, total, chars) -> {
        synchronized (bar) { // called from every indexing thread
          double seconds = (System.nanoTime() - started) / 1e9;
          bar.show("indexing", total == 0 ? 1 : (double) done / total, String.format("%,d of %,d meetings, %,.1f MB, %.1f MB/s",
              done, total, chars / 1e6, chars / 1e6 / Math.max(seconds, 1e-9)));
        }
      });
    }
    bar.done();
    out.printf("reindexed %,d meetings, %,.1f MB of text in %.1f s (%.1f MB/s); index %s is %,.1f MB and now live%n",
        b.meetings(), b.chars() / 1e6, b.seconds(), b.chars() / 1e6 / Math.max(b.seconds(), 1e-9), b.name(),
        b.bytes() / 1e6);
    return 0;
  }
}
