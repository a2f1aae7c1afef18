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
   * The character ranges of a transcript's segments in the text they were joined into, in order:
   * per segment the gap since the previous one's end and its length, as variable-length ints
   * (two bytes for most segments), the {@link #SEGMENTS} value of an indexed meeting. Written
   * once ({@link #add}), read forward only ({@link #next}), so that a search reads the ranges
   * only up to its last match and keeps none of them. Not thread-safe.
   */
  static final class SegmentTable {
    private byte[] bytes;
    private int size, at;
    /** The range of the segment read last (or written last); {@code index}: its position, -1 before the first. */
    int index = -1, start, end;

    /** An empty table to {@link #add} to. */
    SegmentTable() {
      bytes = new byte[64];
    }

    /** A stored table to read with {@link #next}. */
    SegmentTable(byte[] stored) {
      bytes = stored;
      size = stored.length;
    }

    /** The next segment: characters [start, end) of the joined text, after the previous one's end. */
    void add(int start, int end) {
      writeVInt(start - this.end);
      writeVInt(end - start);
      this.end = end;
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

    /** Moves to the next segment; false after the last. */
    boolean next() {
      if (at == size) return false;
      start = end + readVInt();
      end = start + readVInt();
      index++;
      return true;
    }

    private int readVInt() {
      int value = 0;
      for (int shift = 0; ; shift += 7) {
        byte b = bytes[at++];
        value |= (b & 0x7F) << shift;
        if (b >= 0) return value;
      }
    }
  }

  /**
   * The first {@code wanted} matching segments (their positions in the transcript), each with its
   * length in the joined text and its matches, offsets from its start; and how many match.
   */
  record Found(int[] segments, int[] lengths, List<List<Passages.Span>> spans, int total) {
    static final Found NONE = new Found(new int[0], new int[0], List.of(), 0);
  }

  /**
   * The segments in which every clause of {@code matches} has a match lying wholly inside the
   * segment (a phrase from one segment into the next belongs to neither); {@code table}: the
   * segments' ranges in the text matched.
   */
  static Found find(Passages matches, SegmentTable table, int wanted) {
    long all = matches.clauseCount() == 64 ? -1L : (1L << matches.clauseCount()) - 1;
    int[] shown = new int[wanted], starts = new int[wanted], ends = new int[wanted];
    int total = 0;
    long seen = 0;
    for (int i = 0; i < matches.count(); i++) {
      int start = matches.start(i), end = matches.end(i);
      if (table.index >= 0 && start < table.end) { // in the segment at hand, or in the gap before it
        if (start >= table.start && end <= table.end) seen |= 1L << matches.clause(i);
        continue;
      }
      if (seen == all) total = shown(shown, starts, ends, total, table);
      seen = 0;
      boolean more;
      while ((more = table.next()) && table.end <= start) {
        // matches come by start: the table only moves forward, and no further than the last match
      }
      if (!more) break;
      if (start >= table.start && end <= table.end) seen |= 1L << matches.clause(i);
    }
    if (table.index >= 0 && seen == all) total = shown(shown, starts, ends, total, table);
    int n = Math.min(total, wanted);
    int[] lengths = new int[n];
    List<List<Passages.Span>> spans = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      lengths[k] = ends[k] - starts[k];
      spans.add(spansIn(matches, starts[k], ends[k]));
    }
    return new Found(Arrays.copyOf(shown, n), lengths, spans, total);
  }

  /** Counts the table's current segment as matching, and keeps it while fewer than wanted are kept. */
  private static int shown(int[] shown, int[] starts, int[] ends, int total, SegmentTable table) {
    if (total < shown.length) {
      shown[total] = table.index;
      starts[total] = table.start;
      ends[total] = table.end;
    }
    return total + 1;
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
