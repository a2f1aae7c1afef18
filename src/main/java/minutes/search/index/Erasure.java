package minutes.search.index;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges deleted documents out of a generation's files (a delete leaves nothing readable behind),
 * on a thread of its own so that the sync thread's updates go on meanwhile. Deletes applied while
 * a merge runs queue the next one, so none is left behind. Thread-safe.
 */
final class Erasure implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Erasure.class);

  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(Thread.ofPlatform().name("search-erase").daemon().factory());
  /** The generation whose deleted documents wait for the merge; null when none does. */
  private final AtomicReference<Generation> queued = new AtomicReference<>();
  /** Whether a failed merge of a generation matters: not once it is closed or replaced (its files go with it). */
  private final Predicate<Generation> stillServed;

  Erasure(Predicate<Generation> stillServed) {
    this.stillServed = stillServed;
  }

  /** Queues the merge that takes deleted documents out of {@code g}'s files. */
  void later(Generation g) {
    if (queued.getAndSet(g) != null) return; // one is queued already and will see this delete
    thread.execute(() -> {
      Generation next = queued.getAndSet(null);
      long started = System.nanoTime();
      try {
        next.eraseDeleted();
        log.info("search index {}: deleted meetings merged out of its files in {} ms", next.name,
            (System.nanoTime() - started) / 1_000_000);
      } catch (IOException | RuntimeException e) {
        if (!stillServed.test(next)) return;
        log.warn("search index {}: merging deleted meetings away failed ({}); the next delete retries", next.name,
            e.toString());
      }
    });
  }

  /** A merge in progress is aborted when its writer closes. */
  @Override
  public void close() {
    thread.shutdownNow();
  }
}
