package minutes.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes a JSON object of text values from their UTF-8 bytes, on both stores byte for byte as
 * SQLite's json_object writes it (which rendered the rows before, so answers keep those bytes):
 * the short escapes for the quote, the backslash, b, t, n, f and r;
 * every other control character as a backslash-u escape with lower-case hex digits; everything
 * else, UTF-8 above ASCII included, as it is. Jackson cannot be told to do this from bytes (its
 * UTF-8 string writer escapes in upper case whatever escapes it is given), and reading each
 * value as a String for it spent a good part of a task page's Java time on decoding alone.
 * Not thread-safe: one per row being written.
 */
final class TextObjectWriter {
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

  /** The bytes before each value: {@code {"key":} for the first, {@code ,"key":} for the others. */
  static byte[][] keyPrefixes(String[] keys) {
    byte[][] prefixes = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      // Keys are record component names in snake_case: nothing in them needs escaping.
      prefixes[i] = ((i == 0 ? "{\"" : ",\"") + keys[i] + "\":").getBytes(StandardCharsets.US_ASCII);
    }
    return prefixes;
  }

  private byte[] out = new byte[256];
  private int length;

  /** The next key (its prefix from {@link #keyPrefixes}) and its value, null for SQL NULL. */
  void field(byte[] keyPrefix, byte[] utf8Value) {
    append(keyPrefix);
    if (utf8Value == null) {
      append(NULL);
      return;
    }
    room(1);
    out[length++] = '"';
    // Copied in runs between the bytes that need escaping: most values have none.
    int run = 0;
    for (int i = 0; i < utf8Value.length; i++) {
      byte b = utf8Value[i];
      if ((b >= 0x20 || b < 0) && b != '"' && b != '\\') continue;
      append(utf8Value, run, i);
      escape(b);
      run = i + 1;
    }
    append(utf8Value, run, utf8Value.length);
    room(1);
    out[length++] = '"';
  }

  /** The object written so far, closed; the first field opened it. */
  byte[] close() {
    room(1);
    out[length++] = '}';
    return Arrays.copyOf(out, length);
  }

  private void escape(byte b) {
    byte shortForm = switch (b) {
      case '"' -> '"';
      case '\\' -> '\\';
      case '\b' -> 'b';
      case '\t' -> 't';
      case '\n' -> 'n';
      case '\f' -> 'f';
      case '\r' -> 'r';
      default -> 0;
    };
    room(6);
    out[length++] = '\\';
    if (shortForm != 0) {
      out[length++] = shortForm;
    } else {
      out[length++] = 'u';
      out[length++] = '0';
      out[length++] = '0';
      out[length++] = HEX[b >> 4];
      out[length++] = HEX[b & 0xf];
    }
  }

  private void append(byte[] bytes) {
    append(bytes, 0, bytes.length);
  }

  private void append(byte[] bytes, int from, int to) {
    room(to - from);
    System.arraycopy(bytes, from, out, length, to - from);
    length += to - from;
  }

  private void room(int more) {
    if (length + more > out.length) out = Arrays.copyOf(out, Math.max(out.length * 2, length + more));
  }
}
