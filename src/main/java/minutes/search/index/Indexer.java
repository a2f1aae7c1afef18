package minutes.search.index;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;

/**
 * Copies meetings from the database into an IndexWriter: the calling thread reads (one JDBC
 * connection serves one thread), several threads analyse and index, because analysis is
 * where the time goes. A meeting gone from the database is deleted from the index.
 */
final class Indexer {
  private Indexer() {}

  /** What was indexed: meetings and characters of text, and how many meetings were gone from the database (deleted). */
  record Stats(long meetings, long chars, long deleted) {}

  private static final MeetingDocument END =
      new MeetingDocument("", 0, List.of(), "", "", null, "", "", List.of(), "", "", new byte[0], "");
  /** Below this many meetings, threads cost more than they save. */
  private static final int PARALLEL_FROM = 64;

  /**
   * Indexes the given meetings, read through {@code c} (the caller's read transaction, so
   * that they match the change_log sequence the caller read in it). {@code fresh}: the
   * index holds none of them yet, so no delete-by-id is needed.
   */
  static Stats index(Connection c, List<String> ids, IndexWriter w, boolean fresh, int threads, BuildProgress progress)
      throws SQLException, IOException {
    try (MeetingRows reader = new MeetingRows(c)) {
      if (ids.size() < PARALLEL_FROM || threads <= 1) return sequential(reader, ids, w, fresh, progress);
      return parallel(reader, ids, w, fresh, threads, progress);
    }
  }

  private static Stats sequential(MeetingRows reader, List<String> ids, IndexWriter w, boolean fresh,
      BuildProgress progress) throws SQLException, IOException {
    long chars = 0, done = 0, deleted = 0;
    for (String id : ids) {
      MeetingDocument m = reader.read(id);
      if (m != null) chars += m.textChars();
      else deleted++;
      write(w, id, m, fresh);
      progress.update(++done, ids.size(), chars);
    }
    return new Stats(done, chars, deleted);
  }

  private static Stats parallel(MeetingRows reader, List<String> ids, IndexWriter w, boolean fresh,
      int threads, BuildProgress progress) throws SQLException, IOException {
    BlockingQueue<MeetingDocument> queue = new ArrayBlockingQueue<>(threads * 8);
    AtomicLong done = new AtomicLong(), chars = new AtomicLong();
    long deleted = 0;
    ExecutorService pool = Executors.newFixedThreadPool(threads, Thread.ofPlatform().name("indexer").daemon().factory());
    try {
      List<Future<Void>> workers = new java.util.ArrayList<>();
      for (int i = 0; i < threads; i++) {
        workers.add(pool.submit(() -> {
          for (MeetingDocument m = queue.take(); m != END; m = queue.take()) {
            write(w, m.id(), m, fresh);
            chars.addAndGet(m.textChars());
            progress.update(done.incrementAndGet(), ids.size(), chars.get());
          }
          // Write out what is buffered here and now, in parallel: left to the commit, all
          // buffers would be flushed one after another in the committing thread. Risk:
          // IndexWriter.flushNextBuffer is @lucene.experimental; were it gone, flushing falls to
          // the commit, which bench/search-bench.sh's reindex time would show.
          while (w.flushNextBuffer()) {
            // next buffer
          }
          return null;
        }));
      }
      for (String id : ids) {
        MeetingDocument m = reader.read(id);
        if (m == null) {
          write(w, id, null, fresh);
          done.incrementAndGet();
          deleted++;
          continue;
        }
        while (!queue.offer(m, 100, TimeUnit.MILLISECONDS)) failFast(workers);
      }
      for (int i = 0; i < threads; i++) {
        while (!queue.offer(END, 100, TimeUnit.MILLISECONDS)) failFast(workers);
      }
      for (Future<Void> f : workers) f.get();
      return new Stats(done.get(), chars.get(), deleted);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("indexing interrupted", e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw unwrap(e);
    } finally {
      pool.shutdownNow();
    }
  }

  /** A worker that died leaves the queue full: stop reading and report its failure. */
  private static void failFast(List<Future<Void>> workers) throws IOException, InterruptedException {
    for (Future<Void> f : workers) {
      if (f.isDone()) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          throw unwrap(e);
        }
        throw new IOException("an indexing thread stopped early");
      }
    }
  }

  private static IOException unwrap(java.util.concurrent.ExecutionException e) {
    Throwable cause = e.getCause();
    if (cause instanceof IOException io) return io;
    if (cause instanceof RuntimeException re) throw re;
    if (cause instanceof Error err) throw err;
    return new IOException(cause);
  }

  private static void write(IndexWriter w, String id, MeetingDocument m, boolean fresh) throws IOException {
    Term key = new Term(MeetingDocument.ID, id);
    if (m == null) {
      if (!fresh) w.deleteDocuments(key);
    } else if (fresh) {
      w.addDocument(m.toDocument());
    } else {
      w.updateDocument(key, m.toDocument());
    }
  }
}
