package minutes.search.text;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Which segments of a transcript a query's matches fall in (decisions.md, "Search for
 * search-heavy clients" and "Transcript windows and in-meeting search"): a segment matches when
 * each clause has a match lying wholly inside it, so a phrase across two segments matches
 * neither. Walks the segments' ranges no further than the last match. Stateless.
 */
public final class SegmentMatches {
  private SegmentMatches() {}

  /** A matching segment to show: its index, where it lies in the joined text, its matches (offsets from its start). */
  public record Segment(int index, int start, int end, List<QueryMatches.Span> spans) {}

  /** The first matching segments to show, and how many match. */
  public record Found(List<Segment> shown, int total) {
    public static final Found NONE = new Found(List.of(), 0);
  }

  /**
   * The segments in which every clause of {@code matches} has a match lying wholly inside the
   * segment (a phrase from one segment into the next belongs to neither), the first
   * {@code wanted} of them kept; {@code table}: the segments of the text matched.
   */
  public static Found inRanges(QueryMatches matches, SegmentRanges table, int wanted) throws IOException {
    long all = matches.clauseCount() == 64 ? -1L : (1L << matches.clauseCount()) - 1;
    List<Segment> shown = new ArrayList<>(wanted);
    int total = 0;
    long seen = 0;
    for (int i = 0; i < matches.count(); i++) {
      int start = matches.start(i), end = matches.end(i);
      if (table.index() >= 0 && start < table.end()) { // in the segment at hand, or in the gap before it
        if (start >= table.start() && end <= table.end()) seen |= 1L << matches.clause(i);
        continue;
      }
      if (seen == all) total = count(matches, table, shown, wanted, total);
      seen = 0;
      boolean more;
      while ((more = table.next()) && table.end() <= start) {
        // matches come by start: the table only moves forward, and no further than the last match
      }
      if (!more) break;
      if (start >= table.start() && end <= table.end()) seen |= 1L << matches.clause(i);
    }
    if (table.index() >= 0 && seen == all) total = count(matches, table, shown, wanted, total);
    return new Found(shown, total);
  }

  /** Counts the table's current segment as matching, and keeps it while fewer than wanted are kept. */
  private static int count(QueryMatches matches, SegmentRanges t, List<Segment> shown, int wanted, int total) {
    if (shown.size() < wanted) shown.add(new Segment(t.index(), t.start(), t.end(), spansIn(matches, t.start(), t.end())));
    return total + 1;
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
