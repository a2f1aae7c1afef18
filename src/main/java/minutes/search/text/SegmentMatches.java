package minutes.search.text;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import minutes.search.text.SearchQuery.Match;

/**
 * Which segments of a transcript a query's matches fall in (decisions.md, "Search for
 * search-heavy clients", "Transcript windows and in-meeting search" and "Finding what people
 * ask"): a clause is in a segment when one of its matches lies wholly inside it, so a phrase
 * across two segments is in neither; which segments match, and which come first, is a
 * {@link Rule}. Stateless.
 */
public final class SegmentMatches {
  private SegmentMatches() {}

  /** A matching segment to show: its index, where it lies in the joined text, its matches (offsets from its start). */
  public record Segment(int index, int start, int end, List<QueryMatches.Span> spans) {}

  /** The matching segments to show, and how many match. */
  public record Found(List<Segment> shown, int total) {
    public static final Found NONE = new Found(List.of(), 0);
  }

  /**
   * Which segments match and which are shown first (decisions.md, "Finding what people ask"):
   * with {@link Match#ALL} a segment holds every clause, with {@link Match#MOST} any; shown in
   * time order, or {@code byRank}: the segments holding more of the clauses that count first
   * ({@code counted}, a bit per clause), then by their {@link #rank}, then in time order.
   * {@code weights}: each clause's ({@link WordWeights}).
   */
  public record Rule(Match match, boolean byRank, long counted, float[] weights) {
    public static Rule of(SearchQuery q, Match match, boolean byRank) {
      return new Rule(match, byRank, q.counted(), q.weights());
    }
  }

  /** Saturation and length normalisation of a segment's rank, and a segment's typical length in characters. */
  static final float K1 = 1.2f, B = 0.75f, TYPICAL_CHARS = 120f;

  /**
   * A segment's rank in (0, 1): the weighted mean, over the query's clauses, of each clause's
   * occurrences in the segment saturated and normalised by the segment's length (BM25's form with
   * fixed constants, as the meetings' ranks: no statistics of other segments or meetings).
   * {@code tf}: each clause's matches in the segment; {@code chars}: the segment's {@link SegmentRanges#length}.
   */
  static float rank(int[] tf, float[] weights, int chars) {
    float sum = 0, all = 0;
    float norm = K1 * (1 - B + B * chars / TYPICAL_CHARS);
    for (int c = 0; c < tf.length; c++) {
      all += weights[c];
      if (tf[c] > 0) sum += weights[c] * tf[c] / (tf[c] + norm);
    }
    return sum / all;
  }

  /**
   * The segments that match under {@code rule}: a clause counts for a segment when one of its
   * matches lies wholly inside it (a phrase from one segment into the next belongs to neither).
   * The first {@code wanted} in the rule's order are kept; {@code table}: the segments of the text
   * matched. Walks every match once, and the segments no further than the last match.
   */
  public static Found find(QueryMatches matches, SegmentRanges table, int wanted, Rule rule) throws IOException {
    int clauses = matches.clauseCount();
    long all = clauses == 64 ? -1L : (1L << clauses) - 1;
    int[] tf = new int[clauses];
    List<Kept> kept = new ArrayList<>(wanted + 1);
    int total = 0;
    long seen = 0;
    for (int i = 0; i <= matches.count(); i++) {
      boolean last = i == matches.count();
      int start = last ? 0 : matches.start(i), end = last ? 0 : matches.end(i);
      if (!last && table.index() >= 0 && start < table.end()) { // in the segment at hand, or in the gap before it
        if (start >= table.start() && end <= table.end()) seen |= hold(tf, matches.clause(i));
        continue;
      }
      if (seen != 0 && (rule.match == Match.MOST || seen == all)) { // the segment at hand is done
        total++;
        float rank = rule.byRank ? rank(tf, rule.weights, table.length()) : 0;
        keep(kept, wanted, rule, new Kept(table.index(), table.start(), table.end(), Long.bitCount(seen & rule.counted), rank));
      }
      if (seen != 0) Arrays.fill(tf, 0);
      seen = 0;
      if (last) break;
      boolean more;
      while ((more = table.next()) && table.end() <= start) {
        // matches come by start: the table only moves forward, and no further than the last match
      }
      if (!more) break;
      if (start >= table.start() && end <= table.end()) seen |= hold(tf, matches.clause(i));
    }
    List<Segment> shown = new ArrayList<>(kept.size());
    for (Kept k : kept) shown.add(new Segment(k.index, k.start, k.end, spansIn(matches, k.start, k.end)));
    return new Found(shown, total);
  }

  /** A matching segment and what orders it. */
  private record Kept(int index, int start, int end, int words, float rank) {}

  private static final Comparator<Kept> BEST_FIRST = Comparator.comparingInt((Kept k) -> -k.words)
      .thenComparing((Kept k) -> -k.rank).thenComparingInt(Kept::index);

  /** Counts a match of clause c in the segment at hand; returns its bit. */
  private static long hold(int[] tf, int c) {
    tf[c]++;
    return 1L << c;
  }

  /** Adds k to the first {@code wanted} in the rule's order (segments arrive in time order). */
  private static void keep(List<Kept> kept, int wanted, Rule rule, Kept k) {
    if (!rule.byRank) {
      if (kept.size() < wanted) kept.add(k);
      return;
    }
    int at = Collections.binarySearch(kept, k, BEST_FIRST);
    at = at < 0 ? -at - 1 : at;
    if (at >= wanted) return;
    kept.add(at, k);
    if (kept.size() > wanted) kept.remove(wanted);
  }

  /** The matches lying wholly inside [start, end), offsets relative to start, by start. */
  public static List<QueryMatches.Span> spansIn(QueryMatches matches, int start, int end) {
    int lo = 0, hi = matches.count();
    while (lo < hi) { // the first match starting at or after start
      int mid = (lo + hi) >>> 1;
      if (matches.start(mid) < start) lo = mid + 1;
      else hi = mid;
    }
    List<QueryMatches.Span> out = new ArrayList<>();
    for (int i = lo; i < matches.count() && matches.start(i) < end; i++) {
      if (matches.end(i) <= end) out.add(new QueryMatches.Span(matches.start(i) - start, matches.end(i) - start, matches.clause(i)));
    }
    return out;
  }

  /**
   * Matches found in a segment's collapsed text (its words one space apart, as the index joins
   * them) moved onto the segment's own text: a match starts and ends inside words, whose
   * characters both texts hold in the same order.
   */
  public static List<QueryMatches.Span> inOwnText(String text, List<QueryMatches.Span> spans) {
    int[] at = new int[text.length() + 1]; // per character of the collapsed text, its place in text
    int n = 0;
    for (int i = 0; i < text.length(); ) {
      while (i < text.length() && MarkdownText.isSpace(text.charAt(i))) i++;
      if (i == text.length()) break;
      if (n > 0) at[n++] = i - 1; // the one space between two words
      while (i < text.length() && !MarkdownText.isSpace(text.charAt(i))) at[n++] = i++;
    }
    List<QueryMatches.Span> out = new ArrayList<>(spans.size());
    for (QueryMatches.Span sp : spans) out.add(new QueryMatches.Span(at[sp.start()], at[sp.end() - 1] + 1, sp.clause()));
    return out;
  }
}
