package minutes.search;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import minutes.store.TranscriptSegments;
import org.apache.lucene.index.StoredFields;

/**
 * A hit's moments (decisions.md, "Search for search-heavy clients"): the transcript segments in
 * which every word and phrase of the query occurs, as GET /meetings/{id}/transcript/search finds
 * them. The index finds and counts them without reading any text: each segment's character
 * range in the indexed transcript is stored beside it ({@link SegmentTable}), and a segment
 * matches when each clause has a match ({@link Passages}) that lies inside it; a phrase across
 * two segments matches neither. The index also holds each segment's speaker and times, so a
 * shown segment whose text the index holds verbatim is marked in the index's text where the
 * index found its matches; only a segment whose whitespace the index collapsed is read from the
 * database and matched again in its own text by the transcript search ({@link SegmentSearch}).
 * A meeting changed since the searcher's data is never a hit, so the index's copy is the
 * database's. Stateless.
 */
final class Moments {
  private Moments() {}

  /** Stored field: the segments' character ranges in the indexed transcript, speakers and times. */
  static final String SEGMENTS = "transcript.segments";

  /**
   * A transcript's segments in order, the {@link #SEGMENTS} value of an indexed meeting: the
   * speakers' names (UTF-8), then per segment the gap since the previous one's end in the joined
   * text and its length, its speaker (an index into the names) and whether the index holds its
   * text verbatim, its start (a difference from the previous start) and its end (0: none), all
   * variable-length. Written once ({@link #add}), read forward only ({@link #next}), so that a
   * search reads the segments only up to its last match and keeps none of them. Not thread-safe.
   */
  static final class SegmentTable {
    private byte[] bytes;
    private int size, at;
    private final List<String> speakers = new ArrayList<>();
    private final Map<String, Integer> speakerIndex = new HashMap<>();
    /** The segment read last (or written last); {@code index}: its position, -1 before the first. */
    int index = -1, start, end;
    String speaker;
    long startMs;
    /** Null when the segment has no end. */
    Long endMs;
    /** The indexed text of the segment is the segment's text, character for character. */
    boolean verbatim;

    /** An empty table to {@link #add} to. */
    SegmentTable() {
      bytes = new byte[64];
    }

    /** A stored table to read with {@link #next}. */
    SegmentTable(byte[] stored) {
      bytes = stored;
      size = stored.length;
      if (size == 0) return;
      for (int n = (int) readVLong(); n > 0; n--) {
        int length = (int) readVLong();
        speakers.add(new String(bytes, at, length, StandardCharsets.UTF_8));
        at += length;
      }
    }

    /** The next segment, of a text matched here ({@link SegmentSearch}): its range alone. */
    void add(int start, int end) {
      add(start, end, "", 0, null, true);
    }

    /** The next segment: characters [start, end) of the joined text, after the previous one's end. */
    void add(int start, int end, String speaker, long startMs, Long endMs, boolean verbatim) {
      Integer s = speakerIndex.computeIfAbsent(speaker, name -> {
        speakers.add(name);
        return speakers.size() - 1;
      });
      writeVLong(start - this.end);
      writeVLong(end - start);
      writeVLong((long) s << 1 | (verbatim ? 1 : 0));
      writeVLong(zigZag(startMs - this.startMs));
      writeVLong(endMs == null ? 0 : 1 + zigZag(endMs - startMs));
      this.end = end;
      this.startMs = startMs;
    }

    byte[] bytes() {
      byte[] segments = Arrays.copyOf(bytes, size);
      bytes = new byte[64];
      size = 0;
      writeVLong(speakers.size());
      for (String name : speakers) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        writeVLong(utf8.length);
        ensure(utf8.length);
        System.arraycopy(utf8, 0, bytes, size, utf8.length);
        size += utf8.length;
      }
      ensure(segments.length);
      System.arraycopy(segments, 0, bytes, size, segments.length);
      return Arrays.copyOf(bytes, size + segments.length);
    }

    /** Moves to the next segment; false after the last. */
    boolean next() {
      if (at == size) return false;
      start = end + (int) readVLong();
      end = start + (int) readVLong();
      long s = readVLong();
      speaker = speakers.get((int) (s >>> 1));
      verbatim = (s & 1) == 1;
      startMs += unZigZag(readVLong());
      long e = readVLong();
      endMs = e == 0 ? null : startMs + unZigZag(e - 1);
      index++;
      return true;
    }

    private void ensure(int more) {
      if (bytes.length - size < more) bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, size + more));
    }

    private void writeVLong(long value) {
      ensure(10);
      while ((value & ~0x7FL) != 0) {
        bytes[size++] = (byte) ((value & 0x7F) | 0x80);
        value >>>= 7;
      }
      bytes[size++] = (byte) value;
    }

    private long readVLong() {
      long value = 0;
      for (int shift = 0; ; shift += 7) {
        byte b = bytes[at++];
        value |= (long) (b & 0x7F) << shift;
        if (b >= 0) return value;
      }
    }

    private static long zigZag(long v) {
      return (v << 1) ^ (v >> 63);
    }

    private static long unZigZag(long v) {
      return (v >>> 1) ^ -(v & 1);
    }
  }

  /** A matching segment to show: where it lies in the joined text, what the table says of it, and its matches, offsets from its start. */
  record Shown(int index, int start, int end, String speaker, long startMs, Long endMs, boolean verbatim,
      List<Passages.Span> spans) {}

  /** The first matching segments to show, and how many match. */
  record Found(List<Shown> shown, int total) {
    static final Found NONE = new Found(List.of(), 0);
  }

  /**
   * The segments in which every clause of {@code matches} has a match lying wholly inside the
   * segment (a phrase from one segment into the next belongs to neither), the first
   * {@code wanted} of them kept; {@code table}: the segments of the text matched.
   */
  static Found find(Passages matches, SegmentTable table, int wanted) {
    long all = matches.clauseCount() == 64 ? -1L : (1L << matches.clauseCount()) - 1;
    List<Shown> shown = new ArrayList<>(wanted);
    int total = 0;
    long seen = 0;
    for (int i = 0; i < matches.count(); i++) {
      int start = matches.start(i), end = matches.end(i);
      if (table.index >= 0 && start < table.end) { // in the segment at hand, or in the gap before it
        if (start >= table.start && end <= table.end) seen |= 1L << matches.clause(i);
        continue;
      }
      if (seen == all) total = count(matches, table, shown, wanted, total);
      seen = 0;
      boolean more;
      while ((more = table.next()) && table.end <= start) {
        // matches come by start: the table only moves forward, and no further than the last match
      }
      if (!more) break;
      if (start >= table.start && end <= table.end) seen |= 1L << matches.clause(i);
    }
    if (table.index >= 0 && seen == all) total = count(matches, table, shown, wanted, total);
    return new Found(shown, total);
  }

  /** Counts the table's current segment as matching, and keeps it while fewer than wanted are kept. */
  private static int count(Passages matches, SegmentTable t, List<Shown> shown, int wanted, int total) {
    if (shown.size() < wanted) {
      shown.add(new Shown(t.index, t.start, t.end, t.speaker, t.startMs, t.endMs, t.verbatim,
          spansIn(matches, t.start, t.end)));
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
   * The moments of one hit that the index can show itself, marked in the stored transcript of
   * {@code doc} (leaf-local); null in place of each segment the database must show ({@link #read}).
   */
  static SearchHit.Moment[] fromIndex(StoredFields stored, int doc, Found found) throws IOException {
    SearchHit.Moment[] out = new SearchHit.Moment[found.shown().size()];
    for (int i = 0; i < out.length; i++) {
      Shown s = found.shown().get(i);
      if (!s.verbatim()) continue;
      Snippets.Slice slice = Snippets.read(stored, doc, IndexedMeeting.TRANSCRIPT, length -> new int[] {s.start(), s.end()});
      String text = slice.text().substring(s.start() - slice.base(), s.end() - slice.base());
      out[i] = new SearchHit.Moment(s.index(), s.speaker(), s.startMs(), s.endMs(), Snippets.segment(text, s.spans()));
    }
    return out;
  }

  /**
   * Fills in the moments the index could not show, each segment read from the database in one
   * statement and matched again in its text by the transcript search; a segment that no longer
   * matches is left out. {@code moments}: per meeting id, from {@link #fromIndex}.
   */
  static Map<String, List<SearchHit.Moment>> read(Connection db, SearchQuery query, Map<String, Found> found,
      Map<String, SearchHit.Moment[]> moments) throws SQLException {
    Map<String, int[]> wanted = new HashMap<>();
    moments.forEach((id, shown) -> {
      int[] missing = new int[shown.length];
      int n = 0;
      for (int i = 0; i < shown.length; i++) if (shown[i] == null) missing[n++] = found.get(id).shown().get(i).index();
      if (n > 0) wanted.put(id, Arrays.copyOf(missing, n));
    });
    Map<String, Map<Integer, TranscriptSegments.Segment>> rows = wanted.isEmpty() ? Map.of()
        : TranscriptSegments.read(db, wanted);
    SegmentSearch again = wanted.isEmpty() ? null : SegmentSearch.of(query);
    Map<String, List<SearchHit.Moment>> out = new HashMap<>();
    moments.forEach((id, shown) -> {
      List<SearchHit.Moment> list = new ArrayList<>(shown.length);
      for (int i = 0; i < shown.length; i++) {
        if (shown[i] != null) {
          list.add(shown[i]);
          continue;
        }
        TranscriptSegments.Segment s = rows.getOrDefault(id, Map.of()).get(found.get(id).shown().get(i).index());
        if (s == null) continue;
        List<SegmentSearch.Found> marked = again.find(List.of(s.text()), 1);
        if (!marked.isEmpty()) {
          list.add(new SearchHit.Moment(s.index(), s.speakerName(), s.startMs(), s.endMs(), marked.get(0).snippet()));
        }
      }
      out.put(id, list);
    });
    return out;
  }
}
