package minutes.search;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.StoredFields;

/**
 * A hit's moments (decisions.md, "Search for search-heavy clients"): the transcript segments in
 * which every word and phrase of the query occurs, as GET /meetings/{id}/transcript/search finds
 * them. The index finds and counts them without reading any text: each segment's character
 * range in the indexed transcript is stored beside it ({@link SegmentTable}), and a segment
 * matches when each clause has a match ({@link Passages}) that lies inside it; a phrase across
 * two segments matches neither. The table also holds each segment's speaker and times, and the
 * text of the few segments whose whitespace the index collapsed (runs of spaces, tabs, line
 * breaks, no-break spaces), so that a shown segment is cut from the stored transcript, or taken
 * from the table, and marked where the index found its matches, without the database: a meeting
 * changed since the searcher's data is never a hit, so the index's copy is the database's.
 * Stateless.
 */
final class Moments {
  private Moments() {}

  /** Stored field: the {@link SegmentTable} of an indexed meeting's transcript. */
  static final String SEGMENTS = "transcript.segments";

  /**
   * A transcript's segments in order, the {@link #SEGMENTS} value of an indexed meeting, all
   * numbers variable-length: the speakers' names (UTF-8); the length of the ranges, then per
   * segment its range in the joined text (the gap since the previous one's end, its length);
   * the length of the details, then per segment its speaker (an index into the names) and whether
   * the index holds its text verbatim, its start (a difference from the previous start), its end
   * (0: none) and, unless verbatim, its text; then, for every {@link #STRIDE}th segment, where its
   * details begin and the start before it (differences from the previous such pair). Ranges and
   * the rest are apart because a search walks the ranges up to its last match ({@link #next}) but
   * reads the rest only for the few segments it shows ({@link #details}), and the strides let it
   * jump to them: a rare word's first match may lie in the last of a thousand segments. Written
   * once ({@link #add}, {@link #bytes}), read forward only; a text matched here
   * ({@link SegmentSearch}) has a table of ranges alone, never stored. Not thread-safe.
   */
  static final class SegmentTable {
    /** Segments between two entries of the jump table. */
    static final int STRIDE = 64;
    private final Bytes ranges, details, jumps;
    private final List<String> speakers = new ArrayList<>();
    private final Map<String, Integer> speakerIndex = new HashMap<>();
    private int detailsIndex = -1, detailsBase, jumpIndex;
    private long detailsStartMs, jumpAt, jumpStartMs;
    /** The range of the segment read last (or written last); {@code index}: its position, -1 before the first. */
    int index = -1, start, end;
    private long lastStartMs;

    /** An empty table to {@link #add} to. */
    SegmentTable() {
      ranges = new Bytes(new byte[64], 0);
      details = new Bytes(new byte[64], 0);
      jumps = new Bytes(new byte[16], 0);
    }

    /** A stored table to read with {@link #next} and {@link #details}. */
    SegmentTable(byte[] stored) {
      Bytes in = new Bytes(stored, stored.length);
      if (stored.length > 0) {
        for (int n = (int) in.readVLong(); n > 0; n--) speakers.add(in.readString());
        ranges = section(stored, in);
        in.at = ranges.size;
        details = section(stored, in);
        detailsBase = details.at;
        jumps = new Bytes(stored, stored.length);
        jumps.at = details.size;
      } else {
        ranges = details = jumps = in;
      }
    }

    /** The section whose length {@code in} is at, read from just after the length. */
    private static Bytes section(byte[] stored, Bytes in) {
      int length = (int) in.readVLong();
      Bytes section = new Bytes(stored, in.at + length);
      section.at = in.at;
      return section;
    }

    /**
     * A table of ranges alone, to read with {@link #next} only: {@code ranges} holds each
     * segment's start and end in the joined text, in order.
     */
    SegmentTable(int[] ranges) {
      this.ranges = new Bytes(new byte[64], 0);
      details = jumps = new Bytes(new byte[0], 0);
      int previousEnd = 0;
      for (int i = 0; i < ranges.length; i += 2) {
        this.ranges.writeVLong(ranges[i] - previousEnd);
        this.ranges.writeVLong(ranges[i + 1] - ranges[i]);
        previousEnd = ranges[i + 1];
      }
    }

    /**
     * The next segment: characters [start, end) of the joined text, after the previous one's
     * end; {@code text}: null when the joined text holds it verbatim, else its own text.
     */
    void add(int start, int end, String speaker, long startMs, Long endMs, String text) {
      if (++index > 0 && index % STRIDE == 0) {
        jumps.writeVLong(details.size - jumpAt);
        jumps.writeVLong(zigZag(lastStartMs - jumpStartMs));
        jumpAt = details.size;
        jumpStartMs = lastStartMs;
      }
      Integer s = speakerIndex.computeIfAbsent(speaker, name -> {
        speakers.add(name);
        return speakers.size() - 1;
      });
      ranges.writeVLong(start - this.end);
      ranges.writeVLong(end - start);
      details.writeVLong((long) s << 1 | (text == null ? 1 : 0));
      details.writeVLong(zigZag(startMs - lastStartMs));
      details.writeVLong(endMs == null ? 0 : 1 + zigZag(endMs - startMs));
      if (text != null) details.writeString(text);
      this.end = end;
      lastStartMs = startMs;
    }

    byte[] bytes() {
      Bytes out = new Bytes(new byte[64 + ranges.size + details.size], 0);
      out.writeVLong(speakers.size());
      for (String name : speakers) out.writeString(name);
      out.writeVLong(ranges.size);
      out.write(ranges.bytes, ranges.size);
      out.writeVLong(details.size);
      out.write(details.bytes, details.size);
      out.write(jumps.bytes, jumps.size);
      return Arrays.copyOf(out.bytes, out.size);
    }

    /** Moves to the next segment's range; false after the last. */
    boolean next() {
      if (ranges.at == ranges.size) return false;
      start = end + (int) ranges.readVLong();
      end = start + (int) ranges.readVLong();
      index++;
      return true;
    }

    /**
     * What the table says of segment {@code index}, after the one asked for last: from the last
     * stride at or before it, the segments between passed over without building anything.
     */
    Detail details(int index) {
      while (index / STRIDE > jumpIndex && jumps.at < jumps.size) { // the next stride's segment is not beyond index
        jumpAt += jumps.readVLong();
        jumpStartMs += unZigZag(jumps.readVLong());
        jumpIndex++;
        if (STRIDE * jumpIndex > detailsIndex + 1) {
          details.at = detailsBase + (int) jumpAt;
          detailsStartMs = jumpStartMs;
          detailsIndex = STRIDE * jumpIndex - 1;
        }
      }
      while (true) {
        long s = details.readVLong();
        detailsStartMs += unZigZag(details.readVLong());
        long e = details.readVLong();
        boolean verbatim = (s & 1) == 1;
        if (++detailsIndex == index) {
          return new Detail(speakers.get((int) (s >>> 1)), detailsStartMs, e == 0 ? null : detailsStartMs + unZigZag(e - 1),
              verbatim ? null : details.readString());
        }
        if (!verbatim) {
          int length = (int) details.readVLong(); // read before the sum: += would add it to the old position
          details.at += length;
        }
      }
    }

    private static long zigZag(long v) {
      return (v << 1) ^ (v >> 63);
    }

    private static long unZigZag(long v) {
      return (v >>> 1) ^ -(v & 1);
    }
  }

  /** A segment's speaker and times; {@code text}: its own text when the joined text does not hold it verbatim, else null. */
  record Detail(String speaker, long startMs, Long endMs, String text) {}

  /**
   * A growing or read byte array of variable-length numbers (seven bits a byte, low bits first,
   * the high bit set on all but the last byte) and UTF-8 strings; also {@link Snippets}' chunk table.
   */
  static final class Bytes {
    byte[] bytes;
    int size, at;

    Bytes(byte[] bytes, int size) {
      this.bytes = bytes;
      this.size = size;
    }

    private void ensure(int more) {
      if (bytes.length - size < more) bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, size + more));
    }

    void writeVLong(long value) {
      ensure(10);
      while ((value & ~0x7FL) != 0) {
        bytes[size++] = (byte) ((value & 0x7F) | 0x80);
        value >>>= 7;
      }
      bytes[size++] = (byte) value;
    }

    void writeString(String s) {
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      writeVLong(utf8.length);
      write(utf8, utf8.length);
    }

    void write(byte[] from, int length) {
      ensure(length);
      System.arraycopy(from, 0, bytes, size, length);
      size += length;
    }

    long readVLong() {
      long value = 0;
      for (int shift = 0; ; shift += 7) {
        byte b = bytes[at++];
        value |= (long) (b & 0x7F) << shift;
        if (b >= 0) return value;
      }
    }

    String readString() {
      int length = (int) readVLong();
      String s = new String(bytes, at, length, StandardCharsets.UTF_8);
      at += length;
      return s;
    }
  }

  /** A matching segment to show: where it lies in the joined text, its matches (offsets from its start), what the table says of it. */
  record Shown(int index, int start, int end, List<Passages.Span> spans, Detail detail) {}

  /** The first matching segments to show, and how many match. */
  record Found(List<Shown> shown, int total) {
    static final Found NONE = new Found(List.of(), 0);
  }

  /**
   * The segments in which every clause of {@code matches} has a match lying wholly inside the
   * segment (a phrase from one segment into the next belongs to neither), the first
   * {@code wanted} of them kept with what the table says of them; {@code table}: the segments
   * of the text matched.
   */
  static Found find(Passages matches, SegmentTable table, int wanted) {
    Found found = inRanges(matches, table, wanted);
    List<Shown> described = new ArrayList<>(found.shown().size());
    for (Shown s : found.shown()) described.add(new Shown(s.index(), s.start(), s.end(), s.spans(), table.details(s.index())));
    return new Found(described, found.total());
  }

  /** {@link #find} from the table's ranges alone: the segments kept have no detail (null). */
  static Found inRanges(Passages matches, SegmentTable table, int wanted) {
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
    if (shown.size() < wanted) shown.add(new Shown(t.index, t.start, t.end, spansIn(matches, t.start, t.end), null));
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
   * The moments of one hit, each segment's text cut from the stored transcript of {@code doc}
   * (leaf-local), all in one read, or its own text from the table with the matches moved onto
   * it, and marked as the transcript search marks it.
   */
  static List<SearchHit.Moment> render(StoredFields stored, int doc, Found found) throws IOException {
    List<Shown> shown = found.shown();
    if (shown.isEmpty()) return List.of();
    int[] ranges = new int[2 * shown.size()];
    for (int i = 0; i < shown.size(); i++) { // a segment with its own text reads nothing: [0, 0)
      if (shown.get(i).detail().text() != null) continue;
      ranges[2 * i] = shown.get(i).start();
      ranges[2 * i + 1] = shown.get(i).end();
    }
    Snippets.Slice[] slices = Snippets.read(stored, doc, IndexedMeeting.TRANSCRIPT, length -> ranges);
    List<SearchHit.Moment> out = new ArrayList<>(shown.size());
    for (int i = 0; i < shown.size(); i++) {
      Shown s = shown.get(i);
      Detail d = s.detail();
      String snippet = d.text() == null ? Snippets.segment(slices[i].text(), s.spans())
          : Snippets.segment(d.text(), inOwnText(d.text(), s.spans()));
      out.add(new SearchHit.Moment(s.index(), d.speaker(), d.startMs(), d.endMs(), snippet));
    }
    return out;
  }

  /**
   * Matches found in a segment's collapsed text (its words one space apart, as the index joins
   * them) moved onto the segment's own text: a match starts and ends inside words, whose
   * characters both texts hold in the same order.
   */
  static List<Passages.Span> inOwnText(String text, List<Passages.Span> spans) {
    int[] at = new int[text.length() + 1]; // per character of the collapsed text, its place in text
    int n = 0;
    for (int i = 0; i < text.length(); ) {
      while (i < text.length() && MarkdownText.isSpace(text.charAt(i))) i++;
      if (i == text.length()) break;
      if (n > 0) at[n++] = i - 1; // the one space between two words
      while (i < text.length() && !MarkdownText.isSpace(text.charAt(i))) at[n++] = i++;
    }
    List<Passages.Span> out = new ArrayList<>(spans.size());
    for (Passages.Span sp : spans) out.add(new Passages.Span(at[sp.start()], at[sp.end() - 1] + 1, sp.clause()));
    return out;
  }
}
