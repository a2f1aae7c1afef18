package minutes.search.index;

import java.io.EOFException;
import java.util.Arrays;
import org.apache.lucene.store.DataInput;
import org.apache.lucene.store.DataOutput;

/**
 * Lucene's {@link DataOutput} and {@link DataInput} over a plain byte array: the one encoding of
 * every byte a {@link MeetingDocument} stores (variable-length numbers, zig-zag numbers, UTF-8
 * strings), from Lucene's stable base classes. Lucene's own array-backed ones are
 * {@code @lucene.experimental}; these add nothing but the array. Not thread-safe.
 */
final class ByteArrayData {
  private ByteArrayData() {}

  /** A growing array to write to. */
  static final class Output extends DataOutput {
    private byte[] bytes = new byte[64];
    private int size;

    @Override
    public void writeByte(byte b) {
      if (size == bytes.length) bytes = Arrays.copyOf(bytes, 2 * size);
      bytes[size++] = b;
    }

    @Override
    public void writeBytes(byte[] b, int offset, int length) {
      if (bytes.length - size < length) bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, size + length));
      System.arraycopy(b, offset, bytes, size, length);
      size += length;
    }

    int size() {
      return size;
    }

    /** Appends what {@code other} holds. */
    void append(Output other) {
      writeBytes(other.bytes, 0, other.size);
    }

    byte[] toArray() {
      return Arrays.copyOf(bytes, size);
    }
  }

  /** Bytes [from, to) of an array to read, by absolute positions. */
  static final class Input extends DataInput {
    private final byte[] bytes;
    private final int to;
    private int at;

    Input(byte[] bytes, int from, int to) {
      this.bytes = bytes;
      this.at = from;
      this.to = to;
    }

    Input(byte[] bytes) {
      this(bytes, 0, bytes.length);
    }

    @Override
    public byte readByte() throws EOFException {
      if (at >= to) throw new EOFException("read past the end of a stored value");
      return bytes[at++];
    }

    @Override
    public void readBytes(byte[] b, int offset, int length) throws EOFException {
      if (length > to - at) throw new EOFException("read past the end of a stored value");
      System.arraycopy(bytes, at, b, offset, length);
      at += length;
    }

    @Override
    public void skipBytes(long count) {
      at += (int) count;
    }

    int position() {
      return at;
    }

    void position(int at) {
      this.at = at;
    }

    boolean atEnd() {
      return at >= to;
    }
  }
}
