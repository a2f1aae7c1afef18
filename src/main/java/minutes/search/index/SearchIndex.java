package minutes.search.index;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import minutes.config.Config;
import minutes.store.ChangedSince;
import minutes.store.Db;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.BytesRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The search index of a running server: answers searches from the live generation, and a
 * background thread keeps it in step with the database (change_log), switches to a generation
 * that {@code reindex} built, and builds the first one when there is none. When it applies a
 * delete, a second thread merges the deleted text out of the index files (erasure) while
 * searches and updates go on. Thread-safe.
 *
 * <p>No leak, ever: visibility is a filter inside the Lucene query, a meeting changed in
 * the database after the seq the searcher reflects is excluded until the index has caught up, and an
 * index older than the change history kept answers no search (it cannot know what it missed).
 */
public final class SearchIndex implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SearchIndex.class);
  /** How often the sync thread looks at change_log and CURRENT: "searchable within 2 s". */
  static final long POLL_MILLIS = 200;
  /**
   * start() waits this long for a first build, so that a small database is searchable at once;
   * a first round that fails (a pending migration, the database away) ends the wait sooner.
   */
  static final long FIRST_BUILD_WAIT_MILLIS = 5000;

  private final Path root;
  private final Db db;
  private final int threads = IndexBuilds.indexingThreads();
  private final Thread sync = Thread.ofPlatform().name("search-sync").daemon().unstarted(this::syncLoop);
  /** The generation searches use; null while no usable index exists (503). */
  private volatile Generation live;
  /**
   * While {@link #live} is null: what the index is, as /healthz and search's 503 say it after
   * "search index: " ("being rebuilt, since it was written by another version of Lucene"), or
   * null for a first build ("not built yet"). Set before live is cleared.
   */
  private volatile String pending;
  /** A generation a search could not read: the sync thread verifies it, and rebuilds if it is damaged. */
  private volatile Generation suspect;
  /** What the index is while there is none live, as {@link #unavailable()} and search's 503 say it ({@link #pending}). */
  static final String REBUILT_SINCE = "being rebuilt, since ", FILES_DAMAGED = REBUILT_SINCE + "its files are damaged",
      DANGLING = REBUILT_SINCE + "the generation its CURRENT file names is missing",
      UNUSABLE = "not usable yet: its files cannot be opened (the server log says why; it retries every 2 s)";
  private volatile boolean closed;
  /** Counted down when a generation goes live or a sync round fails: what start() waits for. */
  private final CountDownLatch firstOutcome = new CountDownLatch(1);
  private final Erasure erasure = new Erasure(g -> !closed && g == live);

  private SearchIndex(Path root, Db db) {
    this.root = root;
    this.db = db;
  }

  /**
   * Opens the live generation when there is one (it is searchable at once; what changed
   * since its last commit is excluded until the sync thread has applied it) and starts the
   * sync thread, which builds the first generation when none exists. Waits a few seconds
   * for that build; a longer one goes on in the background while search answers 503, and a
   * failed one is retried there every 2 s: waiting out the seconds would only delay the
   * start of a server whose other endpoints can answer.
   */
  public static SearchIndex start(Config config, Db db) {
    SearchIndex index = open(config.indexPath(), db);
    index.sync.start();
    try {
      index.firstOutcome.await(FIRST_BUILD_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return index;
  }

  /** Opens the live generation, if any, without starting the sync thread (tests and benchmarks; tests step it with {@link #syncOnce}). */
  public static SearchIndex open(Path root, Db db) {
    SearchIndex index = new SearchIndex(root, db);
    String name = null;
    try {
      name = IndexDirs.current(root);
      if (name == null && IndexDirs.pointerDangles(root)) index.pending = DANGLING;
      if (name != null) {
        index.publish(openVerified(root, name));
        IndexDirs.deleteUnused(root, name); // what a reindex killed half-way left behind
      }
    } catch (IOException | RuntimeException e) {
      if (CheckedFiles.damaged(e) && name != null && IndexDirs.superseded(root, name)) {
        log.info("search index {} was replaced while opening it; opening the new one", name); // the first sync round does
      } else if (CheckedFiles.damaged(e)) {
        index.pending = rebuilding(root, e); // the sync thread's first round rebuilds it
      } else {
        index.pending = UNUSABLE;
        log.warn("search index under {} not usable yet ({}); search answers 503 until it is", root, e.toString());
      }
    }
    return index;
  }

  /** Opens a generation and checks the files that changed since they were known good; closes it if that fails. */
  private static Generation openVerified(Path root, String name) throws IOException {
    Generation g = Generation.open(root, name);
    try {
      g.verify(false); // a file damaged since it was written fails here, not later as a 500 or a wrong hit
    } catch (IOException | RuntimeException e) {
      g.close();
      throw e;
    }
    return g;
  }

  private void publish(Generation g) {
    live = g;
    firstOutcome.countDown();
  }

  /** True when searches can be answered. */
  public boolean ready() {
    return live != null;
  }

  /**
   * Null when searches can be answered, else what /healthz says of the search index: "search
   * index: not built yet" during a first build, else e.g. "search index: being rebuilt, since it
   * was written by another version of Lucene", in the words of search's own 503 (SearchApi).
   */
  public String unavailable() {
    if (live != null) return null;
    String state = pending;
    return "search index: " + (state == null ? "not built yet" : state);
  }


  /**
   * What the live index holds, for /metrics: documents, deleted documents whose text still stands
   * in its files (0 once erasure merged them away), bytes on disk, change_log seq applied.
   */
  public record Stats(long documents, long deletedDocuments, long bytes, long seq) {}

  /** The live index's {@link Stats}, or null while there is none (or it is being replaced this instant). */
  public Stats stats() throws IOException {
    Generation g = live;
    if (g == null) return null;
    try {
      long[] counts = g.documentsAndSeq();
      return new Stats(counts[0], counts[1], IndexDirs.size(g.path), counts[2]);
    } catch (AlreadyClosedException e) {
      return null;
    }
  }

  // ------------------------------------------------------------------ search

  /** A search's work on one searcher of the live generation. */
  @FunctionalInterface
  public interface SearcherWork<T> {
    /**
     * {@code changed}: the ids of meetings changed in the database since the searcher's data,
     * which the answer must leave out until the index has caught up with them.
     */
    T on(IndexSearcher searcher, List<BytesRef> changed) throws IOException, SQLException, SearchUnavailable;
  }

  /**
   * {@code work} done on the live generation's searcher. {@code db}: the request's connection,
   * to see which meetings changed since the searcher's data; {@code dataVersion}: the data
   * version it read first, or the newest the node has heard of ({@code store.DataWatch}, at
   * most milliseconds behind the database while it is trusted), if any (then an index at that
   * version needs no statement and no look at the change history: nothing changed since, and
   * history is never pruned up to the newest entry). Its statements need not share a snapshot: a later one sees at least the
   * changes up to that version, and leaving out more changed meetings is always right. Fails
   * with {@link SearchUnavailable} while there is no usable index, and when the index cannot be
   * read (the sync thread then verifies it).
   */
  public <T> T search(Connection db, OptionalLong dataVersion, SearcherWork<T> work) throws SQLException, SearchUnavailable {
    while (true) { // a generation replaced a moment ago: search the new one
      Generation g = live;
      if (g == null) throw new SearchUnavailable(SearchUnavailable.Reason.BUILDING, pending);
      long seq = g.seq(); // before acquire: the searcher is at least this fresh
      List<BytesRef> changed = dataVersion.isPresent() && dataVersion.getAsLong() == seq
          ? List.of()
          : changedSince(db, seq);
      IndexSearcher s;
      try {
        s = g.acquire();
      } catch (AlreadyClosedException e) {
        continue;
      } catch (IOException e) {
        throw unreadable(g, e);
      }
      try {
        return work.on(s, changed);
      } catch (IOException e) {
        throw unreadable(g, e);
      } finally {
        try {
          g.release(s);
        } catch (IOException e) {
          log.warn("releasing a searcher of {}: {}", g.name, e.toString());
        }
      }
    }
  }

  /**
   * The meetings changed after the index's change_log seq, which its answer leaves out. Changes
   * up to the pruned number are gone from change_log, so that exclusion could not see them:
   * such an index (a node stopped for longer than the history is kept) is being rebuilt by the
   * sync thread, and answers nothing meanwhile.
   */
  private static List<BytesRef> changedSince(Connection db, long seq) throws SQLException, SearchUnavailable {
    ChangedSince since = ChangedSince.read(db, seq);
    if (seq < since.prunedThrough()) {
      throw new SearchUnavailable(SearchUnavailable.Reason.BUILDING, REBUILT_SINCE + IndexBuilds.OLDER_THAN_HISTORY);
    }
    return since.changed().stream().map(BytesRef::new).toList();
  }

  /** Local files that cannot be read: damage, never the caller's fault. Check it; 503 meanwhile. */
  private SearchUnavailable unreadable(Generation g, IOException e) {
    suspect = g;
    log.error("search index {} could not be read ({}): verifying it", g.name, e.toString());
    return new SearchUnavailable(SearchUnavailable.Reason.UNREADABLE);
  }

  // ------------------------------------------------------------------ keeping in step

  private void syncLoop() {
    while (!closed) {
      long pause = POLL_MILLIS;
      try {
        syncOnce();
      } catch (Exception e) {
        if (closed) return;
        // Typically a database without change_log yet (pending migration): say so, not a trace every 2 s.
        log.warn("search index sync failed; retrying in 2 s: {}", e.toString());
        log.debug("search index sync failure", e);
        firstOutcome.countDown();
        pause = 2000;
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** One round of the sync thread; public so that tests can step it. */
  public synchronized void syncOnce() throws IOException, SQLException {
    if (closed) return;
    String pointed = IndexDirs.current(root);
    Generation g = live;
    if (pointed == null) {
      if (g == null) {
        if (pending == null && IndexDirs.pointerDangles(root)) pending = DANGLING;
        log.info("no search index under {}: building it; search answers 503 until it is ready", root);
        IndexBuilds.Built built = IndexBuilds.rebuild(root, db, threads, BuildProgress.NONE);
        log.info("search index {} built: {} meetings in {} s", built.name(), built.meetings(), String.format("%.1f", built.seconds()));
      }
      return; // the next round opens what CURRENT names
    }
    if (g != null && g == suspect) {
      suspect = null;
      try {
        g.verify(true); // a read failed: every file, not only those that look changed
        log.info("search index {} verified: intact", g.name);
      } catch (IOException | RuntimeException e) {
        rebuildInstead(g, rebuilding(g.name, e));
        return;
      }
    }
    if (g == null || !g.name.equals(pointed)) {
      switchTo(pointed);
      return;
    }
    caughtUp(g);
  }

  /**
   * Says in the log why a generation is rebuilt (another format is what an upgrade brings, damage
   * is an error) and returns it as /healthz and search's 503 say it ({@link #pending}).
   */
  private static String rebuilding(Object generation, Exception e) {
    if (e instanceof IndexFormat.Other other) {
      log.warn("search index {}: {}; rebuilding it from the database, search answers 503 until the new index is live",
          generation, e.getMessage());
      return REBUILT_SINCE + other.differs;
    }
    log.error("search index {} is damaged ({}): rebuilding it from the database, as `reindex` would; search answers "
        + "503 until the new index is live", generation, e.toString());
    return FILES_DAMAGED;
  }

  /**
   * Stops answering from {@code g} (null: one that could not be opened) and builds a new
   * generation from the database, which the next round switches to. {@code why}: what /healthz
   * and search's 503 say meanwhile, unless another generation still answers.
   */
  private void rebuildInstead(Generation g, String why) throws IOException, SQLException {
    if (live == null || live == g) {
      pending = why; // before live is cleared
      live = null;
    }
    if (g != null) g.close();
    IndexBuilds.rebuild(root, db, threads, BuildProgress.NONE);
  }

  /** Applies the change_log entries {@code g} lacks; false when it cannot follow the log and is rebuilt instead. */
  private boolean caughtUp(Generation g) throws IOException, SQLException {
    IndexBuilds.CatchUp done = IndexBuilds.catchUp(g, db, threads);
    if (done.rebuild() != null) {
      log.warn("search index {} cannot follow the change log, since {}: rebuilding it", g.name, done.rebuild());
      rebuildInstead(g, REBUILT_SINCE + done.rebuild());
      return false;
    }
    if (done.deleted() > 0) erasure.later(g);
    return true;
  }

  /**
   * Opens the generation CURRENT named when read (package-private: tests name one that a later
   * build has replaced since), brings it up to date, then lets searches use it.
   */
  void switchTo(String name) throws IOException, SQLException {
    Generation next = null;
    try {
      next = openVerified(root, name);
      if (!caughtUp(next)) return;
    } catch (LockObtainFailedException e) { // only opening takes the lock
      log.debug("search index {} is still held by its builder; will retry", name);
      return;
    } catch (IOException | SQLException | RuntimeException e) {
      if (next != null) next.close(); // null: it failed to open
      if (!CheckedFiles.damaged(e)) throw e;
      if (!IndexDirs.superseded(root, name)) rebuildInstead(null, rebuilding(name, e));
      return; // either way, the next round opens what CURRENT names
    }
    Generation old = live;
    publish(next);
    if (old != null) old.close(); // searches holding its searcher finish on it; new ones retry on next
    IndexDirs.deleteUnused(root, name);
    log.info("search answers from index {} ({} meetings, change_log seq {})", name, next.numDocs(), next.seq());
  }

  /** Stops the sync thread (an interrupted build is discarded) and closes the live generation. */
  @Override
  public void close() {
    closed = true;
    sync.interrupt();
    erasure.close(); // a merge in progress is aborted when its writer closes below
    synchronized (this) { // waits for a sync round in progress
      Generation g = live;
      live = null;
      if (g != null) {
        try {
          g.close();
        } catch (IOException e) {
          log.warn("closing the search index: {}", e.toString());
        }
      }
    }
  }
}
