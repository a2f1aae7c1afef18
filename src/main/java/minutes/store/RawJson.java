package minutes.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A JSON value written by {@link JsonRows}, put into an answer as it is. It stays UTF-8 bytes:
 * decoding a row into a String and encoding it again was a large share of a page's Java time.
 */
public record RawJson(byte[] utf8) implements JsonSerializable {
  @Override
  public void serialize(JsonGenerator out, SerializerProvider provider) throws IOException {
    out.writeRawValue(new Utf8(utf8));
  }

  @Override
  public void serializeWithType(JsonGenerator out, SerializerProvider provider, TypeSerializer type) throws IOException {
    serialize(out, provider);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RawJson other && Arrays.equals(utf8, other.utf8);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(utf8);
  }

  @Override
  public String toString() {
    return new String(utf8, StandardCharsets.UTF_8);
  }

  /**
   * The bytes as Jackson's raw text: written unquoted by copying; the quoted forms (a JSON
   * string holding this text) come from Jackson's own {@link SerializedString}.
   */
  private record Utf8(byte[] bytes) implements SerializableString {
    private SerializedString quoted() {
      return new SerializedString(getValue());
    }

    @Override
    public String getValue() {
      return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public int charLength() {
      return getValue().length();
    }

    @Override
    public char[] asQuotedChars() {
      return quoted().asQuotedChars();
    }

    @Override
    public byte[] asUnquotedUTF8() {
      return bytes.clone();
    }

    @Override
    public byte[] asQuotedUTF8() {
      return quoted().asQuotedUTF8();
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
      return quoted().appendQuotedUTF8(buffer, offset);
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
      return quoted().appendQuoted(buffer, offset);
    }

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
      if (offset + bytes.length > buffer.length) return -1;
      System.arraycopy(bytes, 0, buffer, offset, bytes.length);
      return bytes.length;
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
      String value = getValue();
      if (offset + value.length() > buffer.length) return -1;
      value.getChars(0, value.length(), buffer, offset);
      return value.length();
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) throws IOException {
      return quoted().writeQuotedUTF8(out);
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
      out.write(bytes);
      return bytes.length;
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) throws IOException {
      return quoted().putQuotedUTF8(buffer);
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
      if (bytes.length > buffer.remaining()) return -1;
      buffer.put(bytes);
      return bytes.length;
    }
  }
}
