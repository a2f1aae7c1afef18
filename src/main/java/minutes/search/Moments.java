package minutes.search;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import minutes.store.TranscriptSegments;

/**
 * A hit's moments (decisions.md, "Search for search-heavy clients"): the transcript segments in
 * which every word and phrase of the query occurs, as GET /meetings/{id}/transcript/search finds
 * them. The index finds and counts them without reading any text: each segment's character
 * range in the indexed transcript is stored beside it ({@link SegmentTable}), and a segment
 * matches when each clause has a match ({@link Passages}) that lies inside it; a phrase across
 * two segments matches neither. The few segments shown are then read from the database and
 * marked exactly as the transcript search marks them ({@link SegmentSearch}). Stateless.
 */
final class Moments {
  private Moments() {}

  /** Stored field: the segments' character ranges in the indexed transcript. */
  static final String SEGMENTS = "transcript.segments";

  /**
   * Builds a transcript's {@link #SEGMENTS} value while its segments are joined for the index:
   * per segment, in order, the gap since the previous segment's end and its length, as
   * variable-length ints (two bytes for most segments). Not thread-safe.
   */
  static final class SegmentTable {
    private byte[] bytes = new byte[64];
    private int size, end;

    /**
     * The next segment, which took the joined text from {@code before} to {@code after}
     * characters: a separating space, when there was text before, and then its own text.
     */
    void add(int before, int after) {
      int start = after == before || before == 0 ? before : before + 1;
      writeVInt(start - end);
      writeVInt(after - start);
      end = after;
    }

    private void writeVInt(int value) {
      if (bytes.length - size < 5) bytes = Arrays.copyOf(bytes, 2 * bytes.length);
      while ((value & ~0x7F) != 0) {
        bytes[size++] = (byte) ((value & 0x7F) | 0x80);
        value >>>= 7;
      }
      bytes[size++] = (byte) value;
    }

    byte[] bytes() {
      return Arrays.copyOf(bytes, size);
    }

    /** The starts and ends of the segments of a stored value, as {starts, ends}. */
    static int[][] read(byte[] stored) {
      int[] starts = new int[16], ends = new int[16];
      int n = 0, at = 0, end = 0;
      while (at < stored.length) {
        int[] value = new int[2];
        for (int k = 0; k < 2; k++) {
          int v = 0;
          for (int shift = 0; ; shift += 7) {
            byte b = stored[at++];
            v |= (b & 0x7F) << shift;
            if (b >= 0) break;
          }
          value[k] = v;
        }
        if (n == starts.length) {
          starts = Arrays.copyOf(starts, 2 * n);
          ends = Arrays.copyOf(ends, 2 * n);
        }
        starts[n] = end + value[0];
        ends[n] = end = starts[n] + value[1];
        n++;
      }
      return new int[][] {Arrays.copyOf(starts, n), Arrays.copyOf(ends, n)};
    }
  }

  /**
   * The first {@code wanted} matching segments (their positions in the transcript), each with its
   * length in the indexed text and its matches ({@link #spansIn}), and how many segments match.
   */
  record Found(int[] segments, int[] lengths, List<List<Passages.Span>> spans, int total) {
    static final Found NONE = new Found(new int[0], new int[0], List.of(), 0);
  }

  /**
   * The segments in which every clause of {@code matches} (found in the transcript field) has a
   * match lying wholly inside the segment; {@code table}: {@link SegmentTable#read}.
   */
  static Found find(Passages matches, int[][] table, int wanted) {
    int[] starts = table[0], ends = table[1];
    long all = matches.clauseCount() == 64 ? -1L : (1L << matches.clauseCount()) - 1;
    int[] first = new int[wanted];
    int total = 0, segment = -1, k = 0;
    long seen = 0;
    for (int i = 0; i < matches.count(); i++) {
      int start = matches.start(i), end = matches.end(i);
      while (k < ends.length && ends[k] <= start) k++; // matches come by start: k only moves forward
      if (k == ends.length || start < starts[k] || end > ends[k]) continue; // across segments
      if (k != segment) {
        if (seen == all) total = add(first, total, segment);
        segment = k;
        seen = 0;
      }
      seen |= 1L << matches.clause(i);
    }
    if (segment >= 0 && seen == all) total = add(first, total, segment);
    int[] shown = Arrays.copyOf(first, Math.min(total, wanted)), lengths = new int[shown.length];
    List<List<Passages.Span>> spans = new ArrayList<>(shown.length);
    for (int i = 0; i < shown.length; i++) {
      lengths[i] = ends[shown[i]] - starts[shown[i]];
      spans.add(spansIn(matches, starts[shown[i]], ends[shown[i]]));
    }
    return new Found(shown, lengths, spans, total);
  }

  /** The matches lying wholly inside [start, end), offsets relative to start, by start. */
  static List<Passages.Span> spansIn(Passages matches, int start, int end) {
    int lo = 0, hi = matches.count();
    while (lo < hi) { // the first match starting at or after start
      int mid = (lo + hi) >>> 1;
      if (matches.start(mid) < start) lo = mid + 1;
      else hi = mid;
    }
    List<Passages.Span> out = new ArrayList<>();
    for (int i = lo; i < matches.count() && matches.start(i) < end; i++) {
      if (matches.end(i) <= end) out.add(new Passages.Span(matches.start(i) - start, matches.end(i) - start, matches.clause(i)));
    }
    return out;
  }

  private static int add(int[] first, int total, int segment) {
    if (total < first.length) first[total] = segment;
    return total + 1;
  }

  /**
   * The moments of hits, their segments read from the database in one statement and marked as
   * the transcript search marks them. A segment the index holds with its text as stored (no
   * whitespace collapsed: the same length) is marked where the index found its matches;
   * another is matched again in its text by the transcript search, and left out if its text
   * changed since the index read it and no longer matches. {@code found}: per meeting id.
   */
  static Map<String, List<SearchHit.Moment>> read(Connection db, SearchQuery query, Map<String, Found> found)
      throws SQLException {
    Map<String, int[]> wanted = new HashMap<>();
    found.forEach((id, f) -> wanted.put(id, f.segments()));
    Map<String, Map<Integer, TranscriptSegments.Segment>> rows = TranscriptSegments.read(db, wanted);
    Map<String, List<SearchHit.Moment>> out = new HashMap<>();
    SegmentSearch again = null;
    for (Map.Entry<String, Found> e : found.entrySet()) {
      Found f = e.getValue();
      Map<Integer, TranscriptSegments.Segment> of = rows.getOrDefault(e.getKey(), Map.of());
      List<SearchHit.Moment> moments = new ArrayList<>(f.segments().length);
      for (int i = 0; i < f.segments().length; i++) {
        TranscriptSegments.Segment s = of.get(f.segments()[i]);
        if (s == null) continue;
        String snippet;
        if (s.text().length() == f.lengths()[i]) {
          snippet = Snippets.segment(s.text(), f.spans().get(i));
        } else {
          if (again == null) again = SegmentSearch.of(query);
          List<SegmentSearch.Found> marked = again.find(List.of(s.text()), 1);
          if (marked.isEmpty()) continue;
          snippet = marked.get(0).snippet();
        }
        moments.add(new SearchHit.Moment(s.index(), s.speakerName(), s.startMs(), s.endMs(), snippet));
      }
      out.put(e.getKey(), moments);
    }
    return out;
  }
}
