package minutes.search.query;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import minutes.search.index.MeetingDocument;
import minutes.search.text.PhraseLayout;
import minutes.search.text.SearchQuery;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;
import org.apache.lucene.search.IndexSearcher.LeafSlice;
import org.apache.lucene.util.BytesRef;

/**
 * Matches the costliest searches on all cores, each core taking a share of the documents, and
 * every other search on the caller's thread alone; the answer is the same either way (Lucene
 * merges the parts' top hits in the order a single pass keeps). Thread-safe; one per
 * SearchIndex.
 *
 * <p>Why not every search: waking a second thread costs about what half of a typical search
 * saves, while a phrase of frequent words reads their positions in most transcripts, where the
 * wake-up is noise. Which searches are costly is told before matching, from index statistics
 * ({@link #positions}). Figures: docs/BENCHMARKS.md, "Search".
 */
public final class SplitSearch implements AutoCloseable {
  /** Transcript positions a search must read, by {@link #positions}, to be split (calibrated on the bench queries). */
  static final long SPLIT_POSITIONS = 50_000;
  /** Parts at most, whatever the cores: one user's phrase should not take over a large machine. */
  static final int MAX_PARTS = 4;

  private final int parts;
  private final long splitPositions;
  private final LongAdder splits = new LongAdder();
  /** Runs all parts but the first, which the caller runs; null when there is one core. */
  private final ExecutorService helpers;
  /**
   * Parts handed to helpers and not finished. While every helper has one, a search is not
   * split: under load all cores are busy anyway, and the caller would end up matching both
   * parts itself after the cost of cutting them.
   */
  private final AtomicInteger handedOut = new AtomicInteger();

  public SplitSearch(int cores) {
    this(cores, SPLIT_POSITIONS);
  }

  /** Splits searches that read at least {@code splitPositions} positions over {@code cores} threads. */
  SplitSearch(int cores, long splitPositions) {
    this.parts = Math.max(1, Math.min(MAX_PARTS, cores));
    this.splitPositions = splitPositions;
    this.helpers = parts == 1 ? null
        : Executors.newFixedThreadPool(parts - 1, Thread.ofPlatform().name("search-helper").daemon().factory());
  }

  /**
   * The searcher to run the searches of q (within {@code workspace}) on: s itself, or one that
   * splits them across cores when q is costly.
   */
  public IndexSearcher searcher(IndexSearcher s, SearchQuery q, long workspace) throws IOException {
    if (helpers == null || handedOut.get() >= parts - 1 || positions(s.getIndexReader(), q) < splitPositions) return s;
    splits.increment();
    return splitting(s, workspace);
  }

  /**
   * A searcher like s whose searches run on all cores, each matching an equal share of the
   * workspace's documents ({@link #equalShares}). Risk: LeafSlice, LeafReaderContextPartition
   * and IndexSearcher(IndexReader, Executor) are @lucene.experimental (new in Lucene 10);
   * SplitSearchTest pins that the slices cover every document once, in equal shares, and
   * that split searches answer exactly as one pass.
   */
  public IndexSearcher splitting(IndexSearcher s, long workspace) {
    return like(new IndexSearcher(s.getIndexReader(), this::handOut) {
      @Override
      protected LeafSlice[] slices(List<LeafReaderContext> leaves) {
        return equalShares(leaves, parts, workspace);
      }
    }, s);
  }

  /**
   * Every document in at most {@code parts} slices, in index order, each holding an equal share
   * of the workspace's documents (the last may hold fewer), a segment cut where a share ends.
   * Each segment keeps a workspace's documents together ({@link MeetingDocument#INDEX_ORDER}),
   * so equal shares of all documents would give one core most of a workspace and another core
   * the rest of the index, which the search skips. Any cut answers alike; only the balance
   * depends on it. Not Lucene's {@code IndexSearcher.slices(leaves, maxDoc / parts, ..., true)}:
   * it keeps whole every segment smaller than a share and groups segments until a slice
   * exceeds its share, so at 100,000 meetings (segments of 37,652 and 36,855 documents and six
   * of 2,700-4,700) one core got 74,507 of the documents and splitting gained 1.0-1.4x instead
   * of nearly 2x (docs/BENCHMARKS.md, "Equal shares").
   */
  private static LeafSlice[] equalShares(List<LeafReaderContext> leaves, int parts, long workspace) {
    int[][] counted = new int[leaves.size()][];
    long total = 0;
    for (int i = 0; i < counted.length; i++) {
      counted[i] = workspaceDocs(leaves.get(i), workspace);
      total += counted[i][1] - counted[i][0];
    }
    int share = (int) Math.max(1, Math.ceilDiv(total, parts));
    List<LeafSlice> slices = new ArrayList<>(parts);
    List<LeafReaderContextPartition> slice = new ArrayList<>();
    int room = share;
    for (int i = 0; i < counted.length; i++) {
      LeafReaderContext leaf = leaves.get(i);
      int maxDoc = leaf.reader().maxDoc(), from = 0, at = counted[i][0], end = counted[i][1];
      while (slices.size() < parts - 1 && end - at >= room) { // a share ends in this segment
        int cut = at + room;
        slice.add(partition(leaf, from, cut));
        slices.add(new LeafSlice(slice));
        slice = new ArrayList<>();
        room = share;
        from = at = cut;
      }
      room -= end - at;
      if (from < maxDoc) slice.add(partition(leaf, from, maxDoc));
    }
    if (!slice.isEmpty()) slices.add(new LeafSlice(slice));
    return slices.toArray(LeafSlice[]::new);
  }

  private static LeafReaderContextPartition partition(LeafReaderContext leaf, int from, int to) {
    return from == 0 && to == leaf.reader().maxDoc() ? LeafReaderContextPartition.createForEntireSegment(leaf)
        : LeafReaderContextPartition.createFromAndTo(leaf, from, to);
  }

  /**
   * The documents [from, to) of the workspace in the segment: one run in {@link
   * MeetingDocument#INDEX_ORDER}, deleted ones included as the postings include them.
   */
  private static int[] workspaceDocs(LeafReaderContext leaf, long workspace) {
    try {
      // Risk: Terms and TermsEnum are @lucene.experimental (the postings API); SplitSearchTest
      // pins the shares this counts.
      Terms terms = leaf.reader().terms(MeetingDocument.WORKSPACE);
      TermsEnum e = terms == null ? null : terms.iterator();
      if (e == null || !e.seekExact(new BytesRef(Long.toString(workspace)))) return new int[] {0, 0};
      int first = e.postings(null, PostingsEnum.NONE).nextDoc();
      return new int[] {first, first + e.docFreq()};
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code copy}, a new searcher over s's reader, set up as s is: similarity, query cache, time limit. */
  public static IndexSearcher like(IndexSearcher copy, IndexSearcher s) {
    copy.setSimilarity(s.getSimilarity());
    copy.setQueryCache(s.getQueryCache());
    copy.setQueryCachingPolicy(s.getQueryCachingPolicy());
    copy.setTimeout(s.getTimeout());
    return copy;
  }

  /** Searches split so far (for /metrics). */
  public long splits() {
    return splits.sum();
  }

  /** Gives a part to a helper; package-visible so that tests can keep the helpers busy. */
  void handOut(Runnable part) {
    handedOut.incrementAndGet();
    try {
      helpers.execute(() -> {
        try {
          part.run();
        } finally {
          handedOut.decrementAndGet();
        }
      });
    } catch (RuntimeException e) { // rejected: closing
      handedOut.decrementAndGet();
      throw e;
    }
  }

  /**
   * About how many transcript positions matching q reads: its phrases' terms (as
   * {@link SearchQuery#linkedLayout} reads them) in every meeting that holds all of q's
   * rarest clause, at their average count per meeting. Words alone read no positions (and
   * their scores let Lucene skip most meetings): 0.
   */
  static long positions(IndexReader reader, SearchQuery q) throws IOException {
    if (q.clauses.stream().allMatch(c -> c.size() == 1)) return 0; // no lookups for the commonest queries
    long meetings = Long.MAX_VALUE;
    double perMeeting = 0;
    for (List<String> clause : q.clauses) {
      List<PhraseLayout.Placed> layout = PhraseLayout.linkedLayout(clause);
      // One term without neighbours is matched as a word, even a pair term ("i think").
      boolean readsPositions = layout.size() > 1 || layout.get(0).linked();
      for (PhraseLayout.Placed term : layout) {
        long[] stats = stats(reader, term.term());
        meetings = Math.min(meetings, stats[0]);
        if (readsPositions && stats[0] > 0) perMeeting += (double) stats[1] / stats[0];
      }
    }
    return (long) (meetings * perMeeting);
  }

  /** The transcript's document count and total occurrences of term, over all segments. */
  private static long[] stats(IndexReader reader, String term) throws IOException {
    BytesRef bytes = new BytesRef(term);
    long[] stats = new long[2];
    for (LeafReaderContext leaf : reader.leaves()) {
      Terms terms = leaf.reader().terms(MeetingDocument.TRANSCRIPT);
      if (terms == null) continue;
      TermsEnum e = terms.iterator();
      if (e.seekExact(bytes)) {
        stats[0] += e.docFreq();
        stats[1] += e.totalTermFreq();
      }
    }
    return stats;
  }

  @Override
  public void close() {
    if (helpers != null) helpers.shutdownNow();
  }
}
