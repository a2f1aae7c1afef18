package minutes.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.util.BytesRef;

/**
 * How the text of the minutes and transcript is stored for snippets: in chunks of about
 * {@link #CHUNK} characters after a table of their start offsets, so that a snippet reads
 * the table and the one or two chunks it shows, and skips the rest (cheap, since
 * {@link MinutesCodec} stores fields uncompressed). Offsets match the indexed field's, whose
 * postings hold them. Stateless.
 */
final class StoredText {
  private StoredText() {}

  static final int CHUNK = 2048;

  /** The text that characters [base, base + text.length()) of a field of {@code length} characters hold. */
  record Slice(int base, String text, int length) {}

  private static String table(String field) {
    return field + ".chunks";
  }

  private static String chunk(String field) {
    return field + ".text";
  }

  /** Adds the stored form of text; the table first, so that a reader meets it before the chunks. */
  static void add(Document d, String field, String text) {
    List<String> chunks = new ArrayList<>(text.length() / CHUNK + 2);
    byte[] table = new byte[5 * (text.length() / (CHUNK - 1) + 3)];
    int size = writeVInt(table, 0, text.length());
    int from = 0;
    while (from < text.length()) {
      int to = Math.min(text.length(), from + CHUNK);
      // A chunk never ends between the two halves of a surrogate pair: stored as UTF-8, half
      // of one would become '?' and shift every later offset.
      if (to < text.length() && Character.isHighSurrogate(text.charAt(to - 1))) to--;
      chunks.add(text.substring(from, to));
      size = writeVInt(table, size, to - from);
      from = to;
    }
    d.add(new StoredField(table(field), new BytesRef(table, 0, size)));
    for (String c : chunks) d.add(new StoredField(chunk(field), c));
  }

  /** A variable-length int: seven bits a byte, low bits first, the high bit set on all but the last byte. */
  private static int writeVInt(byte[] out, int at, int value) {
    while ((value & ~0x7F) != 0) {
      out[at++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out[at++] = (byte) value;
    return at;
  }

  /**
   * Reads the chunks covering the range that {@code range} returns for the field's length
   * ([from, to) in characters), skipping every other chunk and stopping after the last one.
   */
  static Slice read(StoredFields stored, int doc, String field, IntFunction<int[]> range) throws IOException {
    String tableName = table(field), chunkName = chunk(field);
    Reader reader = new Reader(tableName, chunkName, range);
    stored.document(doc, reader);
    return reader.slice();
  }

  // Risk: StoredFieldVisitor is @lucene.experimental (Lucene's one way to read part of a
  // document); MinutesCodecTest and the snippet tests of SearchApiTest pin what it reads.
  private static final class Reader extends StoredFieldVisitor {
    private final String tableName, chunkName;
    private final IntFunction<int[]> range;
    private int length = -1, first, last, index, base;
    /** The chunks read, joined once at the end: most snippets need one, which is then never copied. */
    private final List<String> chunks = new ArrayList<>(2);

    Reader(String tableName, String chunkName, IntFunction<int[]> range) {
      this.tableName = tableName;
      this.chunkName = chunkName;
      this.range = range;
    }

    @Override
    public Status needsField(FieldInfo info) {
      if (length < 0) return info.name.equals(tableName) ? Status.YES : Status.NO;
      if (index > last) return Status.STOP;
      if (!info.name.equals(chunkName)) return Status.NO;
      return index++ >= first ? Status.YES : Status.NO;
    }

    @Override
    public void binaryField(FieldInfo info, byte[] value) {
      int[] at = {0};
      length = readVInt(value, at);
      int[] wanted = range.apply(length);
      first = -1;
      last = -1;
      int start = 0;
      for (int i = 0; at[0] < value.length; i++) {
        int end = start + readVInt(value, at);
        if (first < 0 && end > wanted[0]) {
          first = i;
          base = start;
        }
        if (start < wanted[1]) last = i;
        start = end;
      }
      if (first < 0) { // an empty range at the very end
        first = last + 1;
        base = length;
      }
    }

    /** The {@link #writeVInt} value at {@code at[0]}, which moves past it. */
    private static int readVInt(byte[] in, int[] at) {
      int value = 0;
      for (int shift = 0; ; shift += 7) {
        byte b = in[at[0]++];
        value |= (b & 0x7F) << shift;
        if (b >= 0) return value;
      }
    }

    @Override
    public void stringField(FieldInfo info, String value) {
      chunks.add(value);
    }

    Slice slice() {
      return length < 0 ? new Slice(0, "", 0) : new Slice(base, chunks.size() == 1 ? chunks.get(0) : String.join("", chunks), length);
    }
  }
}
