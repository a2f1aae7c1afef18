package minutes.search.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.codecs.StoredFieldsWriter;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DocIDMerger;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.MergeState;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * Stored fields read where they lie: each document's fields one after another, uncompressed,
 * and a table of where each document starts. Reading a field seeks past the fields before it
 * and copies only its own bytes, so a snippet of a 100 KB transcript reads its 2 KB chunk and
 * nothing else ({@link StoredText}); Lucene's stored fields copy the whole document first,
 * even uncompressed, which was most of reading a snippet (docs/BENCHMARKS.md).
 *
 * <p>Files per segment: {@value #DATA_EXTENSION} (per document: the byte length of its headers,
 * then per field a header, field number and type as one variable-length number and the value's
 * byte length, then the values in the same order) and {@value #INDEX_EXTENSION} (per document,
 * its start as 8 bytes), each with Lucene's header and checksum footer. The headers come first
 * so that passing a field reads a few bytes beside the others instead of a header in each 2 KB
 * chunk before the one wanted (docs/BENCHMARKS.md, "Stored fields' headers first"). Merges copy
 * each document's bytes. Readers are cloned per thread.
 *
 * <p>Risk: built on Lucene's codec API, all @lucene.experimental or @lucene.internal:
 * StoredFieldsReader, StoredFieldsWriter, StoredFieldVisitor, FieldInfos, SegmentInfo,
 * MergeState, CodecUtil, IndexFileNames and IOUtils. A change there fails to compile or, in
 * behaviour, fails DirectStoredFieldsTest (every value type through flushes, index sorting and
 * merges; damage found) and MinutesCodecTest; an index written by another Lucene is rebuilt
 * before this reads it ({@link IndexFormat}).
 */
final class DirectStoredFields extends StoredFieldsFormat {
  static final String DATA_EXTENSION = "mfd";
  static final String INDEX_EXTENSION = "mfi";
  private static final String DATA_CODEC = "MinutesStoredData", INDEX_CODEC = "MinutesStoredIndex";
  private static final int VERSION = 1;

  private static final int STRING = 1, BINARY = 2, INT = 3, LONG = 4, FLOAT = 5, DOUBLE = 6;
  private static final int TYPE_BITS = 3, TYPE_MASK = (1 << TYPE_BITS) - 1;

  @Override
  public StoredFieldsReader fieldsReader(Directory dir, SegmentInfo si, FieldInfos fields, IOContext context)
      throws IOException {
    return Reader.open(dir, si, fields, context);
  }

  @Override
  public StoredFieldsWriter fieldsWriter(Directory dir, SegmentInfo si, IOContext context) throws IOException {
    return new Writer(dir, si, context);
  }

  private static String file(SegmentInfo si, String extension) {
    return IndexFileNames.segmentFileName(si.name, "", extension);
  }

  private static final class Writer extends StoredFieldsWriter {
    private IndexOutput data, index;
    private int docs;
    /** The document being written: its fields' headers and their values, written out as it finishes. */
    private final ByteBuffersDataOutput headers = ByteBuffersDataOutput.newResettableInstance(),
        values = ByteBuffersDataOutput.newResettableInstance();

    Writer(Directory dir, SegmentInfo si, IOContext context) throws IOException {
      boolean done = false;
      try {
        data = dir.createOutput(file(si, DATA_EXTENSION), context);
        index = dir.createOutput(file(si, INDEX_EXTENSION), context);
        CodecUtil.writeIndexHeader(data, DATA_CODEC, VERSION, si.getId(), "");
        CodecUtil.writeIndexHeader(index, INDEX_CODEC, VERSION, si.getId(), "");
        done = true;
      } finally {
        if (!done) IOUtils.closeWhileHandlingException(data, index);
      }
    }

    @Override
    public void startDocument() throws IOException {
      index.writeLong(data.getFilePointer());
      docs++;
    }

    @Override
    public void finishDocument() throws IOException {
      data.writeVLong(headers.size());
      headers.copyTo(data);
      values.copyTo(data);
      headers.reset();
      values.reset();
    }

    /** The header of a field whose value was written to {@link #values} from {@code valueStart} on. */
    private void header(FieldInfo info, int type, long valueStart) throws IOException {
      headers.writeVLong(((long) info.number << TYPE_BITS) | type);
      headers.writeVLong(values.size() - valueStart);
    }

    @Override
    public void writeField(FieldInfo info, int value) throws IOException {
      long start = values.size();
      values.writeZInt(value);
      header(info, INT, start);
    }

    @Override
    public void writeField(FieldInfo info, long value) throws IOException {
      long start = values.size();
      values.writeZLong(value);
      header(info, LONG, start);
    }

    @Override
    public void writeField(FieldInfo info, float value) throws IOException {
      long start = values.size();
      values.writeInt(Float.floatToIntBits(value));
      header(info, FLOAT, start);
    }

    @Override
    public void writeField(FieldInfo info, double value) throws IOException {
      long start = values.size();
      values.writeLong(Double.doubleToLongBits(value));
      header(info, DOUBLE, start);
    }

    @Override
    public void writeField(FieldInfo info, BytesRef value) throws IOException {
      long start = values.size();
      values.writeVInt(value.length);
      values.writeBytes(value.bytes, value.offset, value.length);
      header(info, BINARY, start);
    }

    @Override
    public void writeField(FieldInfo info, String value) throws IOException {
      long start = values.size();
      values.writeString(value);
      header(info, STRING, start);
    }

    /**
     * Copies each document's bytes as they are when every merged segment is in this layout and
     * numbers its fields as the new one does (always, within one index), document by document
     * in the merged order, as Lucene's own stored fields do for sorted segments; otherwise
     * Lucene's field-by-field copy, which decodes and re-encodes every chunk of text.
     */
    @Override
    public int merge(MergeState merge) throws IOException {
      List<RawDocs> subs = new ArrayList<>(merge.storedFieldsReaders.length);
      for (int i = 0; i < merge.storedFieldsReaders.length; i++) {
        if (!(merge.storedFieldsReaders[i] instanceof Reader r) || !numberedAlike(merge.fieldInfos[i], merge.mergeFieldInfos)) {
          return super.merge(merge);
        }
        r.checkIntegrity(); // a damaged byte copied as it is would no longer be found
        subs.add(new RawDocs(merge.docMaps[i], r, merge.maxDocs[i]));
      }
      int merged = 0;
      DocIDMerger<RawDocs> docs = DocIDMerger.of(subs, merge.needsIndexSort);
      for (RawDocs sub = docs.next(); sub != null; sub = docs.next()) {
        startDocument();
        sub.copyDocument(data); // headers and values: no finishDocument()
        merged++;
      }
      finish(merged);
      return merged;
    }

    private static boolean numberedAlike(FieldInfos source, FieldInfos target) {
      for (FieldInfo f : source) {
        FieldInfo t = target.fieldInfo(f.name);
        if (t == null || t.number != f.number) return false;
      }
      return true;
    }

    @Override
    public void finish(int numDocs) throws IOException {
      if (docs != numDocs) throw new IllegalStateException("wrote " + docs + " documents' stored fields, expected " + numDocs);
      CodecUtil.writeFooter(data);
      CodecUtil.writeFooter(index);
    }

    @Override
    public void close() throws IOException {
      IOUtils.close(data, index);
      data = index = null;
    }

    @Override
    public long ramBytesUsed() {
      return headers.ramBytesUsed() + values.ramBytesUsed(); // one document's fields until it finishes
    }
  }

  /** One merged segment's documents, in its order; the merger maps them to the new order. */
  private static final class RawDocs extends DocIDMerger.Sub {
    private final Reader reader;
    private final int maxDoc;
    private int doc = -1;

    RawDocs(MergeState.DocMap docMap, Reader reader, int maxDoc) {
      super(docMap);
      this.reader = reader;
      this.maxDoc = maxDoc;
    }

    @Override
    public int nextDoc() {
      return ++doc < maxDoc ? doc : DocIdSetIterator.NO_MORE_DOCS;
    }

    /** Appends the current document's bytes, from its start to the next one's (or the footer). */
    void copyDocument(IndexOutput out) throws IOException {
      long start = reader.start(doc);
      long end = doc + 1 < maxDoc ? reader.start(doc + 1) : reader.data.length() - CodecUtil.footerLength();
      reader.data.seek(start);
      out.copyBytes(reader.data, end - start);
    }
  }

  private static final class Reader extends StoredFieldsReader {
    private final FieldInfos fields;
    /** This reader's own position in the data file: one reader per thread (clone). */
    private final IndexInput data;
    /** The index file, opened by the first reader and closed by it only; clones read their own clone of it. */
    private final IndexInput index;
    private final long startsAt;
    /**
     * Where each document starts in {@link #data}, 8 bytes per document. A slice per reader:
     * only some directories' slices may be read from several threads at once.
     */
    private final RandomAccessInput starts;
    private final boolean original;

    private Reader(FieldInfos fields, IndexInput data, IndexInput index, long startsAt, boolean original) throws IOException {
      this.fields = fields;
      this.data = data;
      this.index = index;
      this.startsAt = startsAt;
      this.starts = index.randomAccessSlice(startsAt, index.length() - startsAt - CodecUtil.footerLength());
      this.original = original;
    }

    static Reader open(Directory dir, SegmentInfo si, FieldInfos fields, IOContext context) throws IOException {
      IndexInput data = null, index = null;
      boolean done = false;
      try {
        data = dir.openInput(file(si, DATA_EXTENSION), context);
        index = dir.openInput(file(si, INDEX_EXTENSION), context);
        CodecUtil.checkIndexHeader(data, DATA_CODEC, VERSION, VERSION, si.getId(), "");
        CodecUtil.checkIndexHeader(index, INDEX_CODEC, VERSION, VERSION, si.getId(), "");
        long startsAt = index.getFilePointer(), length = (long) si.maxDoc() * Long.BYTES;
        long expected = startsAt + length + CodecUtil.footerLength();
        if (index.length() != expected) {
          throw new CorruptIndexException("holds " + index.length() + " bytes, expected " + expected, index);
        }
        // Footers are checked whole by checkIntegrity (CheckedFiles decides when); here only
        // that they are there, so that a cut file fails at open, not at a later read.
        CodecUtil.retrieveChecksum(data);
        CodecUtil.retrieveChecksum(index);
        Reader r = new Reader(fields, data, index, startsAt, true);
        done = true;
        return r;
      } finally {
        if (!done) IOUtils.closeWhileHandlingException(data, index);
      }
    }

    long start(int doc) throws IOException {
      return starts.readLong((long) doc * Long.BYTES);
    }

    @Override
    public void document(int doc, StoredFieldVisitor visitor) throws IOException {
      IndexInput in = data;
      in.seek(start(doc));
      long headersEnd = in.readVLong();
      headersEnd += in.getFilePointer();
      long value = headersEnd;
      while (in.getFilePointer() < headersEnd) {
        long code = in.readVLong(), length = in.readVLong();
        FieldInfo info = fields.fieldInfo((int) (code >>> TYPE_BITS));
        switch (visitor.needsField(info)) {
          case YES -> {
            long next = in.getFilePointer();
            in.seek(value);
            read(in, (int) (code & TYPE_MASK), info, visitor);
            in.seek(next);
          }
          case NO -> {}
          case STOP -> {
            return;
          }
        }
        value += length;
      }
    }

    private static void read(IndexInput in, int type, FieldInfo info, StoredFieldVisitor visitor) throws IOException {
      switch (type) {
        case STRING -> visitor.stringField(info, in.readString());
        case BINARY -> {
          byte[] value = new byte[in.readVInt()];
          in.readBytes(value, 0, value.length);
          visitor.binaryField(info, value);
        }
        case INT -> visitor.intField(info, in.readZInt());
        case LONG -> visitor.longField(info, in.readZLong());
        case FLOAT -> visitor.floatField(info, Float.intBitsToFloat(in.readInt()));
        case DOUBLE -> visitor.doubleField(info, Double.longBitsToDouble(in.readLong()));
        default -> throw new CorruptIndexException("unknown stored field type " + type, in);
      }
    }

    @Override
    public StoredFieldsReader clone() {
      try {
        return new Reader(fields, data.clone(), index.clone(), startsAt, false);
      } catch (IOException e) {
        throw new UncheckedIOException(e); // a slice of an open file: no I/O happens
      }
    }

    /** A merge reads on its own thread: its own position in the file, like any clone. */
    @Override
    public StoredFieldsReader getMergeInstance() {
      return clone();
    }

    @Override
    public void checkIntegrity() throws IOException {
      CodecUtil.checksumEntireFile(data);
      CodecUtil.checksumEntireFile(index);
    }

    @Override
    public void close() throws IOException {
      if (original) IOUtils.close(data, index); // a clone's inputs are clones: the original's to close
    }
  }
}
