package minutes.search.index;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.util.BytesRef;

/**
 * The minutes' and the transcript's text as stored for snippets and moments: in chunks of about
 * {@link #CHUNK} characters after a table of their lengths, so that a snippet reads the table and
 * the one or two chunks its window covers and skips the rest (cheap, since {@link MinutesCodec}
 * stores fields uncompressed). Offsets match the indexed field's, whose postings hold them. Part
 * of {@link MeetingDocument}'s layout. Stateless.
 */
public final class StoredText {
  private StoredText() {}

  /** The text that characters [base, base + text.length()) of a stored field of {@code length} characters hold. */
  public record Slice(int base, String text, int length) {}

  /** Characters a stored chunk holds at most. */
  public static final int CHUNK = 2048;

  /** The text that characters [base, base + text.length()) of a field of {@code length} characters hold. */


  private static String table(String field) {
    return field + ".chunks";
  }

  private static String chunk(String field) {
    return field + ".text";
  }

  /** Adds the stored form of text for snippets; the table first, so that a reader meets it before the chunks. */
  static void store(Document d, String field, String text) throws IOException {
    List<String> chunks = new ArrayList<>(text.length() / CHUNK + 2);
    ByteArrayData.Output table = new ByteArrayData.Output();
    table.writeVInt(text.length());
    int from = 0;
    while (from < text.length()) {
      int to = Math.min(text.length(), from + CHUNK);
      // A chunk never ends between the two halves of a surrogate pair: stored as UTF-8, half
      // of one would become '?' and shift every later offset.
      if (to < text.length() && Character.isHighSurrogate(text.charAt(to - 1))) to--;
      chunks.add(text.substring(from, to));
      table.writeVInt(to - from);
      from = to;
    }
    d.add(new StoredField(table(field), new BytesRef(table.toArray())));
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
    public void binaryField(FieldInfo info, byte[] value) throws IOException {
      if (length >= 0) { // a chunk; needsField counted it
        chunks[index - 1] = value;
        return;
      }
      ByteArrayData.Input in = new ByteArrayData.Input(value);
      length = in.readVInt();
      int[] s = new int[value.length + 1];
      int n = 0;
      while (!in.atEnd()) s[n + 1] = s[n++] + in.readVInt();
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
