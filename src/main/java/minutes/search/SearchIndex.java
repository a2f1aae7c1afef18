package minutes.search;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import minutes.config.Config;
import minutes.http.ApiError;
import minutes.keys.Principal;
import minutes.store.Db;
import minutes.store.Sql;
import minutes.store.Store;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopFieldCollectorManager;
import org.apache.lucene.search.TopFieldDocs;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.BytesRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The search index of a running server: answers searches from the live generation, and a
 * background thread keeps it in step with SQLite (change_log), switches to a generation
 * that {@code reindex} built, and builds the first one when there is none. Thread-safe.
 *
 * <p>No leak, ever: visibility is a filter inside the Lucene query, and a meeting changed in
 * SQLite after the seq the searcher reflects is excluded until the index has caught up.
 */
public final class SearchIndex implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SearchIndex.class);
  /** How often the sync thread looks at change_log and CURRENT: "searchable within 2 s". */
  static final long POLL_MILLIS = 200;
  static final int RETRY_AFTER_SECONDS = 5;
  /** start() waits this long for a first build, so that a small database is searchable at once. */
  static final long FIRST_BUILD_WAIT_MILLIS = 5000;
  private static final Sort ORDER = new Sort(SortField.FIELD_SCORE,
      new SortField(IndexedMeeting.SORT_AT, SortField.Type.LONG, true));
  private static final String[] CONTENT_FIELDS = {IndexedMeeting.PROTOCOL, IndexedMeeting.TRANSCRIPT};

  private final Path root;
  private final Db db;
  private final int threads;
  private final Analyzer analyzer = new SearchAnalyzer();
  private final SplitSearch split = new SplitSearch(Runtime.getRuntime().availableProcessors());
  private final Thread sync;
  /** The generation searches use; null while no usable index exists (503). */
  private volatile Generation live;
  /** A generation a search could not read: the sync thread verifies it, and rebuilds if it is damaged. */
  private volatile Generation suspect;
  private static final String DAMAGED = "search index {} is damaged ({}): rebuilding it from the database, as `reindex` "
      + "would; search answers 503 until the new index is live";
  private static final String AHEAD = "search index {} is ahead of the database (another database?): rebuilding it";
  private volatile boolean closed;
  private final java.util.concurrent.CountDownLatch firstLive = new java.util.concurrent.CountDownLatch(1);

  private SearchIndex(Path root, Db db) {
    this.root = root;
    this.db = db;
    this.threads = indexingThreads();
    this.sync = new Thread(this::syncLoop, "search-sync");
    this.sync.setDaemon(true);
  }

  /**
   * Opens the live generation when there is one (it is searchable at once; what changed
   * since its last commit is excluded until the sync thread has applied it) and starts the
   * sync thread, which builds the first generation when none exists. Waits a few seconds
   * for that build; a longer one goes on in the background while search answers 503.
   */
  public static SearchIndex start(Config config, Db db) {
    SearchIndex index = open(config.indexPath(), db);
    index.sync.start();
    try {
      index.firstLive.await(FIRST_BUILD_WAIT_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return index;
  }

  /** Opens the live generation, if any, without starting the sync thread (tests step it with {@link #syncOnce}). */
  static SearchIndex open(Path root, Db db) {
    SearchIndex index = new SearchIndex(root, db);
    try {
      String name = IndexDirs.current(root);
      Generation g = name == null ? null : Generation.open(root, name);
      if (g != null && g.currentFormat()) {
        try {
          g.verify(); // a damaged file fails here, not later as a 500 or a wrong hit
        } catch (IOException | RuntimeException e) {
          g.close();
          throw e;
        }
        index.publish(g);
        IndexDirs.deleteUnused(root, name); // what a reindex killed half-way left behind
      } else if (g != null) {
        g.close(); // written by an older version: the sync thread rebuilds it
      }
    } catch (IOException | RuntimeException e) {
      if (damaged(e)) {
        log.error(DAMAGED, root, e.toString()); // the sync thread's first round rebuilds it
      } else {
        log.warn("search index under {} not usable yet ({}); search answers 503 until it is", root, e.toString());
      }
    }
    return index;
  }

  private void publish(Generation g) {
    live = g;
    firstLive.countDown();
  }

  /** The live generation's directory name under {@code root}, or null when there is none (e.g. for backups). */
  public static String liveGeneration(Path root) throws IOException {
    return IndexDirs.current(root);
  }

  /** Threads a full build or a catch-up indexes with: one per core. */
  public static int indexingThreads() {
    return Runtime.getRuntime().availableProcessors();
  }

  /** True when searches can be answered (healthz). */
  public boolean ready() {
    return live != null;
  }

  Analyzer analyzer() {
    return analyzer;
  }

  /** Searches matched on all cores since start, for /metrics (see {@link SplitSearch}). */
  public long splitSearches() {
    return split.splits();
  }

  /** What the live index holds, for /metrics: documents, bytes on disk, change_log seq applied. */
  public record Stats(long documents, long bytes, long seq) {}

  /** The live index's {@link Stats}, or null while there is none (or it is being replaced this instant). */
  public Stats stats() throws IOException {
    Generation g = live;
    if (g == null) return null;
    try {
      return new Stats(g.numDocs(), IndexDirs.size(g.path), g.seq());
    } catch (AlreadyClosedException e) {
      return null;
    }
  }

  // ------------------------------------------------------------------ search

  /** The hits of q that the principal may see, best first, at most one per meeting. */
  List<SearchHit> search(Connection db, Principal principal, SearchQuery q, int limit)
      throws IOException, SQLException {
    while (true) {
      Generation g = live;
      if (g == null) {
        throw ApiError.unavailable(RETRY_AFTER_SECONDS, "the search index is being built; try again in a few seconds");
      }
      long seq = g.seq(); // before acquire: the searcher is at least this fresh
      IndexSearcher s;
      try {
        s = g.acquire();
      } catch (AlreadyClosedException e) {
        continue; // replaced by a new generation a moment ago: use that one
      }
      try {
        return q.isEmpty() ? List.of() : search(s, db, principal, q, limit, seq);
      } catch (IOException e) {
        // Local files that cannot be read: damage, never the caller's fault. Check it, answer 503 meanwhile.
        suspect = g;
        log.error("search index {} could not be read ({}): verifying it", g.name, e.toString());
        throw ApiError.unavailable(RETRY_AFTER_SECONDS, "the search index could not be read; it is being checked "
            + "and rebuilt if damaged; try again in a few seconds");
      } finally {
        g.release(s);
      }
    }
  }

  private List<SearchHit> search(IndexSearcher s, Connection db, Principal principal, SearchQuery q, int limit,
      long seq) throws IOException, SQLException {
    Query[] fields = fields(q);
    TopFieldDocs top = split.search(s, matching(fields, principal, changedSince(db, seq)), q, limit);
    ScoreDoc[] docs = top.scoreDocs;
    if (docs.length == 0) return List.of();

    Hit[] hits = new Hit[docs.length];
    for (int i = 0; i < docs.length; i++) hits[i] = new Hit(docs[i].doc, (Float) ((FieldDoc) docs[i]).fields[0]);
    // Doc values, scorers and postings are read leaf by leaf in document order.
    Hit[] byDoc = hits.clone();
    Arrays.sort(byDoc, Comparator.comparingInt(h -> h.doc));
    describe(s, fields, byDoc);
    highlight(s, q, byDoc);
    List<SearchHit> out = new ArrayList<>(hits.length);
    for (Hit h : hits) {
      out.add(new SearchHit(h.meta.id(), h.meta.title(), h.meta.platform(), h.meta.startsAt(), h.meta.createdAt(),
          Double.parseDouble(Float.toString(h.rank)), h.snippet, h.field.equals(IndexedMeeting.TITLE) ? "title" : h.field));
    }
    return out;
  }

  /** The query in title, minutes and transcript, in that order (the order {@link #describe} relies on). */
  static Query[] fields(SearchQuery q) {
    return new Query[] {q.inTitle(), q.inField(IndexedMeeting.PROTOCOL), q.inField(IndexedMeeting.TRANSCRIPT)};
  }

  /**
   * The meetings the principal may see that match, each scored by its best field: one
   * document per meeting, so at most one hit per meeting. Meetings changed in SQLite since the
   * searcher's seq ({@code pending}) are left out until the index has caught up with them.
   */
  static Query matching(Query[] fields, Principal principal, List<BytesRef> pending) {
    BooleanQuery.Builder b = new BooleanQuery.Builder()
        .add(new DisjunctionMaxQuery(Arrays.asList(fields), 0f), Occur.MUST)
        .add(new TermQuery(new Term(IndexedMeeting.WORKSPACE, Long.toString(principal.workspaceId()))), Occur.FILTER);
    if (principal.isPersonal()) {
      b.add(new TermQuery(new Term(IndexedMeeting.VIEWER, IndexedMeeting.viewerTerm(principal.userEmail()))),
          Occur.FILTER);
    }
    if (!pending.isEmpty()) b.add(new TermInSetQuery(IndexedMeeting.ID, pending), Occur.MUST_NOT);
    return b.build();
  }

  /**
   * The best {@code limit} by rank, then date. No total is ever shown, so non-competitive
   * documents may be skipped as soon as {@code limit} hits are in, not after Lucene's default
   * of 1,000: p99 of matching 13.0 -> 10.7 ms at 20,000 meetings, with the same top documents
   * for all 300 bench queries. Skipping keeps documents that tie with the lowest rank kept so
   * far; the date decides among them.
   */
  static TopFieldCollectorManager collector(int limit) {
    return new TopFieldCollectorManager(ORDER, limit, null, limit);
  }

  /** A hit being assembled: its document, display values, best field and rank. */
  private static final class Hit {
    final int doc;
    /** The score the hits were ordered by (ORDER's first key). */
    final float rank;
    IndexedMeeting.Meta meta;
    String field;
    String snippet;

    Hit(int doc, float rank) {
      this.doc = doc;
      this.rank = rank;
    }
  }

  /**
   * Reads each hit's display values and names the field it matched best in. The rank is the
   * score the hits were ordered by; the field is the first of title, protocol and transcript
   * (ties go to the earlier one) that scores it. A hit that neither its title nor its minutes
   * explain is a transcript hit, so the transcript, by far the costliest field to score, is
   * never scored again. {@code byDoc}: the hits in document order.
   */
  private static void describe(IndexSearcher s, Query[] fields, Hit[] byDoc) throws IOException {
    boolean titleRanks = false;
    for (Hit h : byDoc) titleRanks |= h.rank == SearchQuery.TITLE_RANK;
    Weight title = titleRanks ? weight(s, fields[0]) : null, protocol = weight(s, fields[1]);
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    LeafReaderContext leaf = null;
    Scorer titleScorer = null, protocolScorer = null;
    BinaryDocValues meta = null;
    for (Hit h : byDoc) {
      if (leaf == null || h.doc >= leaf.docBase + leaf.reader().maxDoc()) {
        leaf = leaves.get(ReaderUtil.subIndex(h.doc, leaves));
        titleScorer = title == null ? null : title.scorer(leaf);
        protocolScorer = protocol.scorer(leaf);
        meta = DocValues.getBinary(leaf.reader(), IndexedMeeting.META);
      }
      int local = h.doc - leaf.docBase;
      if (!meta.advanceExact(local)) throw new IllegalStateException("a search document without display values");
      h.meta = IndexedMeeting.Meta.decode(meta.binaryValue());
      if (h.rank == SearchQuery.TITLE_RANK && at(titleScorer, local)) {
        h.field = IndexedMeeting.TITLE;
        continue;
      }
      // The same score summed in another order may differ in its last bit: that is a tie.
      boolean byProtocol = at(protocolScorer, local) && protocolScorer.score() >= h.rank * (1 - 1e-6f);
      h.field = byProtocol ? IndexedMeeting.PROTOCOL : IndexedMeeting.TRANSCRIPT;
    }
  }

  private static Weight weight(IndexSearcher s, Query q) throws IOException {
    return s.createWeight(s.rewrite(q), ScoreMode.COMPLETE, 1f);
  }

  /**
   * Moves the scorer (null: nothing in this leaf matches) to doc; true when doc matches. A
   * phrase is checked at doc only: its iterator would verify every candidate up to the next
   * match, which for the hits of "to work" meant reading "work" in most minutes of the index.
   * Call it for ascending documents, each once: matches() uses up the phrase's positions there.
   */
  private static boolean at(Scorer scorer, int doc) throws IOException {
    if (scorer == null) return false;
    TwoPhaseIterator phrase = scorer.twoPhaseIterator();
    DocIdSetIterator candidates = phrase == null ? scorer.iterator() : phrase.approximation();
    int at = candidates.docID() < doc ? candidates.advance(doc) : candidates.docID();
    return at == doc && (phrase == null || phrase.matches());
  }

  /**
   * Title hits show the title, marked; content hits the best window of their field, found
   * from postings offsets, so that only the characters shown are ever looked at.
   */
  private void highlight(IndexSearcher s, SearchQuery q, Hit[] byDoc) throws IOException {
    Set<String> words = q.words();
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    LeafReaderContext leaf = null;
    Passages[] passages = new Passages[CONTENT_FIELDS.length];
    StoredFields stored = null;
    for (Hit h : byDoc) {
      if (h.field.equals(IndexedMeeting.TITLE)) {
        h.snippet = Snippets.title(analyzer, h.meta.title(), words);
        continue;
      }
      if (leaf == null || h.doc >= leaf.docBase + leaf.reader().maxDoc()) {
        leaf = leaves.get(ReaderUtil.subIndex(h.doc, leaves));
        Arrays.fill(passages, null);
        stored = leaf.reader().storedFields();
      }
      int f = h.field.equals(CONTENT_FIELDS[0]) ? 0 : 1;
      if (passages[f] == null) passages[f] = new Passages(leaf.reader(), h.field, q.clauses);
      int local = h.doc - leaf.docBase;
      Passages.Best best = passages[f].best(local, Snippets.PASSAGE_WIDTH);
      StoredText.Slice text = StoredText.read(stored, local, h.field, length -> {
        int[] w = Snippets.window(length, best.start(), best.end());
        return new int[] {w[0], Math.min(length, w[1] + 1)}; // +1: render looks at the next character
      });
      int[] window = Snippets.window(text.length(), best.start(), best.end());
      h.snippet = Snippets.render(text.text(), text.base(), text.length(), window[0], window[1], best.spans());
    }
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
        pause = 2000;
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** One round of the sync thread; package-visible so that tests can step it. */
  synchronized void syncOnce() throws IOException, SQLException {
    if (closed) return;
    String pointed = IndexDirs.current(root);
    Generation g = live;
    if (pointed == null) {
      if (g == null) {
        log.info("no search index under {}: building it; search answers 503 until it is ready", root);
        Built built = rebuildNow();
        log.info("search index {} built: {} meetings in {} s", built.name, built.meetings, String.format("%.1f", built.seconds));
      }
      return; // the next round opens what CURRENT names
    }
    if (g != null && g == suspect) {
      suspect = null;
      try {
        g.verify();
        log.info("search index {} verified: intact", g.name);
      } catch (IOException | RuntimeException e) {
        log.error(DAMAGED, g.name, e.toString());
        live = null;
        g.close();
        rebuildNow();
        return;
      }
    }
    if (g == null || !g.name.equals(pointed)) {
      switchTo(pointed);
      return;
    }
    if (catchUp(g, db, threads) < 0) {
      log.warn(AHEAD, g.name);
      live = null;
      g.close();
      rebuildNow();
    }
  }

  /** A full build from SQLite into a new generation, which the next round switches to. */
  private Built rebuildNow() throws IOException, SQLException {
    return rebuild(root, db, threads, Progress.NONE);
  }

  /** Opens the generation CURRENT names, brings it up to date, then lets searches use it. */
  private void switchTo(String name) throws IOException, SQLException {
    Generation next;
    try {
      next = Generation.open(root, name);
    } catch (LockObtainFailedException e) {
      log.debug("search index {} is still held by its builder; will retry", name);
      return;
    } catch (IOException | RuntimeException e) {
      if (!damaged(e)) throw e;
      log.error(DAMAGED, name, e.toString());
      rebuildNow();
      return;
    }
    try {
      if (!next.currentFormat()) {
        next.close();
        log.warn("search index {} was written by an older version: rebuilding it", name);
        rebuildNow();
        return;
      }
      next.verify();
      if (catchUp(next, db, threads) < 0) {
        next.close();
        log.warn(AHEAD, name);
        rebuildNow();
        return;
      }
    } catch (IOException | SQLException | RuntimeException e) {
      next.close();
      if (!damaged(e)) throw e;
      log.error(DAMAGED, name, e.toString());
      rebuildNow();
      return;
    }
    Generation old = live;
    publish(next);
    if (old != null) old.close(); // searches holding its searcher finish on it; new ones retry on next
    IndexDirs.deleteUnused(root, name);
    log.info("search answers from index {} ({} meetings, change_log seq {})", name, next.numDocs(), next.seq());
  }

  /**
   * Applies every change_log entry after the generation's seq, reading the meetings in the
   * same read transaction as the entries, and commits with the new seq. Returns the number of
   * meetings applied, or -1 when the index is ahead of the database (it belongs to another).
   */
  static int catchUp(Generation g, Db db, int threads) throws IOException, SQLException {
    try (Connection c = db.read()) {
      c.setAutoCommit(false);
      try {
        long max = Db.dataVersion(c);
        if (max < g.seq()) return -1;
        if (max == g.seq()) return 0;
        List<String> ids = new ArrayList<>();
        for (BytesRef id : changedSince(c, g.seq())) ids.add(id.utf8ToString());
        Indexer.index(c, ids, g.writer, false, threads, Progress.NONE);
        g.commit(max);
        return ids.size();
      } finally {
        c.rollback();
      }
    }
  }

  /**
   * True for what Lucene reports when index files are damaged or missing (checksum, truncation,
   * garbage headers, a deleted file): a rebuild from the database repairs it. Other failures
   * (a full disk, permissions) are not repaired by rebuilding and are retried and logged instead.
   */
  static boolean damaged(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof org.apache.lucene.index.CorruptIndexException
          || t instanceof org.apache.lucene.index.IndexFormatTooOldException
          || t instanceof org.apache.lucene.index.IndexFormatTooNewException
          || t instanceof java.io.EOFException
          || t instanceof java.nio.file.NoSuchFileException
          || t instanceof java.io.FileNotFoundException) {
        return true;
      }
    }
    return false;
  }

  static final String CHANGED_SINCE = "SELECT meeting_id FROM change_log WHERE seq > ?";

  /**
   * Meetings changed after seq: cheap, since seq is the primary key and the range is usually
   * empty. Not {@code SELECT DISTINCT}: SQLite answers that by scanning all of change_log
   * through its meeting_id index (0.8 ms a search at 20,000 entries, growing with every import).
   */
  static List<BytesRef> changedSince(Connection c, long seq) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(CHANGED_SINCE)) {
      ps.setLong(1, seq);
      try (ResultSet rs = ps.executeQuery()) {
        Set<BytesRef> ids = new LinkedHashSet<>();
        while (rs.next()) ids.add(new BytesRef(rs.getString(1)));
        return List.copyOf(ids);
      }
    }
  }

  // ------------------------------------------------------------------ full builds

  /** Reports how far a build has got; called from every indexing thread. */
  @FunctionalInterface
  public interface Progress {
    void update(long meetingsDone, long meetingsTotal, long charsDone);

    Progress NONE = (done, total, chars) -> {};
  }

  /** What a full build produced. */
  public record Built(String name, long meetings, long chars, double seconds, long bytes, long seq) {}

  /**
   * Builds a new generation from SQLite (one read transaction: the data and the change_log
   * seq recorded in the commit match), then makes it the live one by flipping CURRENT.
   */
  public static Built rebuild(Path root, Db db, int threads, Progress progress)
      throws IOException, SQLException {
    long started = System.nanoTime();
    Path dir = IndexDirs.createNext(root);
    boolean flipped = false;
    try {
      long seq;
      Indexer.Stats stats;
      try (Generation g = Generation.create(dir); Connection c = db.read()) {
        c.setAutoCommit(false);
        try {
          seq = Db.dataVersion(c);
          List<String> ids = new Sql("SELECT id FROM meeting ORDER BY sort_at DESC, id").list(c, rs -> rs.getString(1));
          stats = Indexer.index(c, ids, g.writer, true, threads, progress);
        } finally {
          c.rollback();
        }
        g.commit(seq);
      }
      String name = dir.getFileName().toString();
      IndexDirs.flip(root, name);
      flipped = true;
      IndexDirs.deleteUnused(root, name); // a running server keeps its own until it has switched
      return new Built(name, stats.meetings(), stats.chars(), (System.nanoTime() - started) / 1e9,
          IndexDirs.size(dir), seq);
    } finally {
      if (!flipped) IndexDirs.deleteTree(dir);
    }
  }

  /**
   * After an import: when no server holds the index, applies the import to it (or builds
   * the first one) so that the next server starts up to date. A running server holds the
   * write lock and applies the import itself within a poll interval. Returns a line for the user.
   */
  public static String updateAfterImport(Config config) throws IOException, SQLException {
    Path root = config.indexPath();
    int threads = indexingThreads();
    try (Db db = Db.open(Store.of(config), 1)) {
      String name = IndexDirs.current(root);
      if (name != null) {
        Generation g;
        try {
          g = Generation.open(root, name);
        } catch (LockObtainFailedException e) {
          return "search index: the running server applies this import";
        }
        try (g) {
          int applied = g.currentFormat() ? catchUp(g, db, threads) : -1;
          if (applied >= 0) return String.format("search index updated (%,d meetings)", applied);
        }
      }
      Built b = rebuild(root, db, threads, Progress.NONE);
      return String.format("search index built (%,d meetings)", b.meetings());
    }
  }

  /** Stops the sync thread (an interrupted build is discarded) and closes the live generation. */
  @Override
  public void close() {
    closed = true;
    sync.interrupt();
    split.close();
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
