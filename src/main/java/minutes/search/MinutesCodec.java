package minutes.search;

import java.io.IOException;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.compressing.CompressionMode;
import org.apache.lucene.codecs.compressing.Compressor;
import org.apache.lucene.codecs.compressing.Decompressor;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.lucene90.compressing.Lucene90CompressingStoredFieldsFormat;
import org.apache.lucene.store.ByteBuffersDataInput;
import org.apache.lucene.store.DataInput;
import org.apache.lucene.store.DataOutput;
import org.apache.lucene.util.BytesRef;

/**
 * Lucene's default codec with uncompressed stored fields, so that a snippet reading one 2 KB
 * chunk of a transcript reads only that chunk (compressed, each read decompressed the whole
 * document: docs/BENCHMARKS.md). Registered for SPI in META-INF/services (the index records
 * the codec by name). Thread-safe.
 */
public final class MinutesCodec extends FilterCodec {
  static final String NAME = "Minutes104";

  // Risk: the compressing stored fields format and CompressionMode are @lucene.experimental,
  // and the codec name is written into the index; an upgrade that drops them makes an old index
  // unreadable, which the server repairs by rebuilding it. MinutesCodecTest pins that stored
  // text stays uncompressed.
  private final StoredFieldsFormat storedFields =
      new Lucene90CompressingStoredFieldsFormat("MinutesStoredFields", RAW, 16 * 1024, 128, 10);

  public MinutesCodec() {
    super(NAME, new Lucene104Codec());
  }

  @Override
  public StoredFieldsFormat storedFieldsFormat() {
    return storedFields;
  }

  /** "Compression" that copies bytes, so that reading part of a document copies only that part. */
  private static final CompressionMode RAW = new CompressionMode() {
    @Override
    public Compressor newCompressor() {
      return new Compressor() {
        @Override
        public void compress(ByteBuffersDataInput in, DataOutput out) throws IOException {
          out.copyBytes(in, in.length() - in.position());
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public Decompressor newDecompressor() {
      return new Decompressor() {
        @Override
        public void decompress(DataInput in, int originalLength, int offset, int length, BytesRef bytes)
            throws IOException {
          in.skipBytes(offset);
          if (bytes.bytes.length < length) bytes.bytes = new byte[Math.max(length, 2 * bytes.bytes.length)];
          in.readBytes(bytes.bytes, 0, length);
          bytes.offset = 0;
          bytes.length = length;
        }

        @Override
        public Decompressor clone() {
          return this; // stateless
        }
      };
    }

    @Override
    public String toString() {
      return "RAW";
    }
  };
}
