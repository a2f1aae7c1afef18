package minutes.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;
import org.apache.lucene.search.IndexSearcher.LeafSlice;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopFieldDocs;
import org.apache.lucene.util.BytesRef;

/**
 * Matches the costliest searches on all cores, each core taking a share of the documents, and every other search on the caller's thread alone; the answer is the same
 * either way (Lucene merges the parts' top hits in the order a single pass keeps).
 * Thread-safe; one per {@link SearchIndex}.
 *
 * <p>Why not every search: waking a second thread costs about what half of a typical search
 * saves, while a phrase of frequent words reads their positions in most transcripts, where the
 * wake-up is noise. Which searches are costly is told before matching, from index statistics
 * ({@link #positions}). Figures: docs/BENCHMARKS.md, "Search".
 */
final class SplitSearch implements AutoCloseable {
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

  SplitSearch(int cores) {
    this(cores, SPLIT_POSITIONS);
  }

  /** Splits searches that read at least {@code splitPositions} positions over {@code cores} threads. */
  SplitSearch(int cores, long splitPositions) {
    this.parts = Math.max(1, Math.min(MAX_PARTS, cores));
    this.splitPositions = splitPositions;
    this.helpers = parts == 1 ? null : Executors.newFixedThreadPool(parts - 1, r -> {
      Thread t = new Thread(r, "search-helper");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * The best {@code limit} hits of query (made from q), split across cores when q is costly.
   * Fails when matching ran past the searcher's time limit, on whichever thread.
   */
  TopFieldDocs search(IndexSearcher s, Query query, SearchQuery q, int limit) throws IOException, SearchUnavailable {
    IndexSearcher by = s;
    if (helpers != null && handedOut.get() < parts - 1 && positions(s.getIndexReader(), q) >= splitPositions) {
      splits.increment();
      by = splitting(s);
    }
    TopFieldDocs top = by.search(query, Hits.collector(limit));
    // Lucene stops matching at the limit and keeps what it found; part of the hits is no answer.
    if (by.timedOut()) throw new SearchUnavailable(SearchUnavailable.Reason.TIMED_OUT);
    return top;
  }

  /**
   * A searcher like s whose searches run on all cores, each matching an equal share of the
   * documents ({@link #equalShares}). Risk: LeafSlice and segment partitions are
   * @lucene.experimental (new in Lucene 10); SplitSearchTest pins that the slices cover every
   * document once, in equal shares, and that split searches answer exactly as one pass.
   */
  IndexSearcher splitting(IndexSearcher s) {
    return like(new IndexSearcher(s.getIndexReader(), this::handOut) {
      @Override
      protected LeafSlice[] slices(List<LeafReaderContext> leaves) {
        return equalShares(leaves, parts);
      }
    }, s);
  }

  /**
   * The documents in {@code parts} slices of equal size (the last may be smaller), in index
   * order, a segment cut where a share ends. Not Lucene's {@code IndexSearcher.slices(leaves,
   * maxDoc / parts, ..., true)}: it keeps whole every segment smaller than a share and groups
   * segments until a slice exceeds its share, so at 100,000 meetings (segments of 37,652 and
   * 36,855 documents and six of 2,700-4,700) one core got 74,507 of the documents and splitting
   * gained 1.0-1.4x instead of nearly 2x (docs/BENCHMARKS.md, "Equal shares").
   */
  private static LeafSlice[] equalShares(List<LeafReaderContext> leaves, int parts) {
    int total = 0;
    for (LeafReaderContext leaf : leaves) total += leaf.reader().maxDoc();
    int share = Math.max(1, Math.ceilDiv(total, parts));
    List<LeafSlice> slices = new ArrayList<>(parts);
    List<LeafReaderContextPartition> slice = new ArrayList<>();
    int room = share;
    for (LeafReaderContext leaf : leaves) {
      int maxDoc = leaf.reader().maxDoc();
      for (int from = 0; from < maxDoc; ) {
        int to = Math.min(maxDoc, from + room);
        slice.add(from == 0 && to == maxDoc ? LeafReaderContextPartition.createForEntireSegment(leaf)
            : LeafReaderContextPartition.createFromAndTo(leaf, from, to));
        room -= to - from;
        from = to;
        if (room == 0) {
          slices.add(new LeafSlice(slice));
          slice = new ArrayList<>();
          room = share;
        }
      }
    }
    if (!slice.isEmpty()) slices.add(new LeafSlice(slice));
    return slices.toArray(LeafSlice[]::new);
  }

  /** {@code copy}, a new searcher over s's reader, set up as s is: similarity, query cache, time limit. */
  static IndexSearcher like(IndexSearcher copy, IndexSearcher s) {
    copy.setSimilarity(s.getSimilarity());
    copy.setQueryCache(s.getQueryCache());
    copy.setQueryCachingPolicy(s.getQueryCachingPolicy());
    copy.setTimeout(s.getTimeout());
    return copy;
  }

  /** Searches split so far (for /metrics). */
  long splits() {
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
      List<SearchQuery.Placed> layout = SearchQuery.linkedLayout(clause);
      // One term without neighbours is matched as a word, even a pair term ("i think").
      boolean readsPositions = layout.size() > 1 || layout.get(0).linked();
      for (SearchQuery.Placed term : layout) {
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
      Terms terms = leaf.reader().terms(IndexedMeeting.TRANSCRIPT);
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
