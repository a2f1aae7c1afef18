package minutes.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.util.BytesRef;

/**
 * Snippet text: at most {@link #MAX_VISIBLE} visible characters around the best window of
 * matches (chosen by {@link Passages}), HTML-escaped, with only {@code <mark>}/{@code </mark>}
 * as raw HTML (decisions.md, GET /search). Stateless and thread-safe.
 *
 * <p>A content hit's snippet reads only the characters it shows: the text of the minutes and
 * transcript is stored for snippets ({@link #store}) in chunks of about {@link #CHUNK}
 * characters after a table of their start offsets, so that a snippet reads the table and the one
 * or two chunks its window covers, and skips the rest (cheap, since {@link MinutesCodec} stores
 * fields uncompressed). Offsets match the indexed field's, whose postings hold them.
 */
final class Snippets {
  private Snippets() {}

  /** Visible characters of a content snippet, ellipses included. */
  static final int MAX_VISIBLE = 240;
  /** Width within which the most different query words are looked for (see {@link Passages#best}). */
  static final int PASSAGE_WIDTH = 160;
  /** Characters a stored chunk holds at most. */
  static final int CHUNK = 2048;
  /** How far a window edge may move to avoid cutting a word. */
  private static final int SNAP = 16;
  private static final String ELLIPSIS = "\u2026";

  /** The snippet of a content hit: the window around {@code best} in its stored field, marked. */
  static String content(StoredFields stored, int doc, String field, Passages.Best best) throws IOException {
    Slice text = read(stored, doc, field, length -> {
      int[] w = window(length, best.start(), best.end());
      return new int[] {w[0], Math.min(length, w[1] + 1)}; // +1: render looks at the next character
    })[0];
    int[] window = window(text.length(), best.start(), best.end());
    return render(text.text(), text.base(), text.length(), window[0], window[1], best.spans());
  }

  /**
   * The character range [from, to) of a snippet around the matches [groupStart, groupEnd)
   * in a text of {@code length} characters: centred on them, at most MAX_VISIBLE - 2 long
   * (room for both ellipses), widened to the text's ends when it is short.
   */
  static int[] window(int length, int groupStart, int groupEnd) {
    int budget = MAX_VISIBLE - 2;
    if (length <= budget) return new int[] {0, length};
    int group = Math.min(groupEnd - groupStart, budget);
    int from = Math.max(0, groupStart - (budget - group) / 2);
    int to = Math.min(length, from + budget);
    from = Math.max(0, to - budget);
    return new int[] {from, to};
  }

  /**
   * Renders text[from, to) with the spans marked and HTML escaped. {@code text} holds the
   * characters [base, base + text.length()) of the field, a little more than [from, to), so
   * that the edges can move inwards to the nearest space instead of cutting a word.
   */
  static String render(String text, int base, int fullLength, int from, int to, List<Passages.Span> spans) {
    int first = spans.isEmpty() ? to : spans.get(0).start();
    int last = from;
    for (Passages.Span sp : spans) if (sp.start() < to) last = Math.max(last, Math.min(sp.end(), to));
    if (from > 0) {
      int space = text.indexOf(' ', from - base);
      if (space >= 0 && space + base < first && space + base - from < SNAP) from = space + base + 1;
    }
    if (to < fullLength) {
      int space = text.lastIndexOf(' ', to - base);
      if (space >= 0 && space + base > last && to - space - base < SNAP) to = space + base;
    }
    // Never split a surrogate pair: half of one is not valid text (nor valid JSON).
    if (from > 0 && from < fullLength && Character.isLowSurrogate(text.charAt(from - base))) from++;
    if (to > from && to < fullLength && Character.isLowSurrogate(text.charAt(to - base))) to--;
    StringBuilder out = new StringBuilder(to - from + 64);
    if (from > 0) out.append(ELLIPSIS);
    int at = from;
    for (Passages.Span sp : spans) {
      int ms = Math.max(sp.start(), at);
      int me = Math.min(sp.end(), to);
      if (ms >= me) continue; // outside the window, or inside a span already marked
      escape(out, text, at - base, ms - base);
      out.append("<mark>");
      escape(out, text, ms - base, me - base);
      out.append("</mark>");
      at = me;
    }
    escape(out, text, at - base, to - base);
    if (to < fullLength) out.append(ELLIPSIS);
    return out.toString();
  }

  /**
   * A transcript segment's snippet, as the transcript search and a hit's moments show it: the
   * window around its first match (spans by start, then longest first; offsets into text).
   */
  static String segment(String text, List<Passages.Span> spans) {
    int[] w = window(text.length(), spans.get(0).start(), spans.get(0).end());
    return render(text, 0, text.length(), w[0], w[1], spans);
  }

  /** The whole title, with every word that matches a query word marked. */
  static String title(Analyzer analyzer, String title, Set<String> words) {
    StringBuilder out = new StringBuilder(title.length() + 32);
    int at = 0;
    try (TokenStream ts = analyzer.tokenStream(IndexedMeeting.TITLE, title)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        if (!words.contains(term.toString()) || offset.startOffset() < at) continue;
        escape(out, title, at, offset.startOffset());
        out.append("<mark>");
        escape(out, title, offset.startOffset(), offset.endOffset());
        out.append("</mark>");
        at = offset.endOffset();
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // analysing a String cannot fail on I/O
    }
    escape(out, title, at, title.length());
    return out.toString();
  }

  /** Appends s[from, to) HTML-escaped; the text between special characters is copied in runs, not char by char. */
  static void escape(StringBuilder out, String s, int from, int to) {
    int run = from;
    for (int i = from; i < to; i++) {
      String entity = switch (s.charAt(i)) {
        case '<' -> "&lt;";
        case '>' -> "&gt;";
        case '&' -> "&amp;";
        case '"' -> "&quot;";
        case '\'' -> "&#39;";
        default -> null;
      };
      if (entity == null) continue;
      out.append(s, run, i).append(entity);
      run = i + 1;
    }
    out.append(s, run, to);
  }

  /** The text that characters [base, base + text.length()) of a field of {@code length} characters hold. */
  record Slice(int base, String text, int length) {}

  private static String table(String field) {
    return field + ".chunks";
  }

  private static String chunk(String field) {
    return field + ".text";
  }

  /** Adds the stored form of text for snippets; the table first, so that a reader meets it before the chunks. */
  static void store(Document d, String field, String text) {
    List<String> chunks = new ArrayList<>(text.length() / CHUNK + 2);
    Moments.Bytes table = new Moments.Bytes(new byte[5 * (text.length() / (CHUNK - 1) + 3)], 0);
    table.writeVLong(text.length());
    int from = 0;
    while (from < text.length()) {
      int to = Math.min(text.length(), from + CHUNK);
      // A chunk never ends between the two halves of a surrogate pair: stored as UTF-8, half
      // of one would become '?' and shift every later offset.
      if (to < text.length() && Character.isHighSurrogate(text.charAt(to - 1))) to--;
      chunks.add(text.substring(from, to));
      table.writeVLong(to - from);
      from = to;
    }
    d.add(new StoredField(table(field), new BytesRef(table.bytes, 0, table.size)));
    // UTF-8 as Lucene writes strings (an unpaired surrogate becomes U+FFFD), but binary, so that a
    // reader decodes only what it shows.
    for (String c : chunks) d.add(new StoredField(chunk(field), new BytesRef(c)));
  }

  /**
   * The texts of the character ranges [from, to) that {@code ranges} returns, as pairs, for the
   * field's length: reads the table and each chunk that a range covers once, skips every other
   * chunk, and stops after the last one needed. One slice per range, in the same order, each
   * holding exactly its range's characters.
   */
  static Slice[] read(StoredFields stored, int doc, String field, IntFunction<int[]> ranges) throws IOException {
    Reader reader = new Reader(table(field), chunk(field), ranges);
    stored.document(doc, reader);
    return reader.slices();
  }

  // Risk: StoredFieldVisitor is @lucene.experimental (Lucene's one way to read part of a
  // document); MinutesCodecTest and the snippet tests of SearchApiTest pin what it reads.
  private static final class Reader extends StoredFieldVisitor {
    private final String tableName, chunkName;
    private final IntFunction<int[]> ranges;
    private int length = -1, index, last = -1;
    /** The ranges asked for, as [from, to) pairs. */
    private int[] wanted = {};
    /** Chunk i holds characters [starts[i], starts[i + 1]). */
    private int[] starts;
    /** The chunks read, as stored (UTF-8); null where no range needs one. */
    private byte[][] chunks;
    private boolean[] needed;

    Reader(String tableName, String chunkName, IntFunction<int[]> ranges) {
      this.tableName = tableName;
      this.chunkName = chunkName;
      this.ranges = ranges;
    }

    @Override
    public Status needsField(FieldInfo info) {
      if (length < 0) return info.name.equals(tableName) ? Status.YES : Status.NO;
      if (index > last) return Status.STOP;
      if (!info.name.equals(chunkName)) return Status.NO;
      return needed[index++] ? Status.YES : Status.NO;
    }

    @Override
    public void binaryField(FieldInfo info, byte[] value) {
      if (length >= 0) { // a chunk; needsField counted it
        chunks[index - 1] = value;
        return;
      }
      Moments.Bytes in = new Moments.Bytes(value, value.length);
      length = (int) in.readVLong();
      int[] s = new int[value.length + 1];
      int n = 0;
      while (in.at < in.size) s[n + 1] = s[n++] + (int) in.readVLong();
      starts = Arrays.copyOf(s, n + 1);
      chunks = new byte[n][];
      needed = new boolean[n];
      wanted = ranges.apply(length);
      for (int k = 0; k < wanted.length; k += 2) {
        for (int i = first(wanted[k]); i <= last(wanted[k + 1]); i++) {
          needed[i] = true;
          last = Math.max(last, i);
        }
      }
    }

    /** The first chunk ending after {@code from}; the chunk count when none does. */
    private int first(int from) {
      int i = 0;
      while (i < chunks.length && starts[i + 1] <= from) i++;
      return i;
    }

    /** The last chunk starting before {@code to}; -1 when none does. */
    private int last(int to) {
      int i = chunks.length - 1;
      while (i >= 0 && starts[i] >= to) i--;
      return i;
    }

    /** Per range, its characters from the chunks it covers. */
    Slice[] slices() {
      if (length < 0) { // a field never stored: an empty text
        length = 0;
        starts = new int[1];
        chunks = new byte[0][];
        wanted = ranges.apply(0);
      }
      Slice[] out = new Slice[wanted.length / 2];
      for (int k = 0; k < wanted.length; k += 2) {
        int from = wanted[k], to = wanted[k + 1], first = first(from), last = last(to);
        String text = first == last ? part(first, from, to) : "";
        if (first < last) {
          StringBuilder b = new StringBuilder(to - from);
          for (int i = first; i <= last; i++) b.append(part(i, from, to));
          text = b.toString();
        }
        out[k / 2] = new Slice(from, text, length);
      }
      return out;
    }

    /**
     * The characters of [from, to) that chunk i holds. A chunk of as many bytes as characters is
     * ASCII, so only the part asked for is decoded; any other chunk is decoded whole.
     */
    private String part(int i, int from, int to) {
      byte[] utf8 = chunks[i];
      int chars = starts[i + 1] - starts[i], lo = Math.max(from, starts[i]) - starts[i], hi = Math.min(to, starts[i + 1]) - starts[i];
      if (utf8.length == chars) return new String(utf8, lo, hi - lo, StandardCharsets.ISO_8859_1);
      return new String(utf8, StandardCharsets.UTF_8).substring(lo, hi);
    }
  }
}
