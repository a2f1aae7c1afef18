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
 * <p>Files per segment: {@value #DATA_EXTENSION} (per field: field number and type as one
 * variable-length number, then the value; 0 ends the document) and {@value #INDEX_EXTENSION}
 * (per document, the start of its fields as 8 bytes), each with Lucene's header and checksum
 * footer. Merges copy each document's bytes. Readers are cloned per thread.
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
  private static final int VERSION = 0;

  private static final int END = 0, STRING = 1, BINARY = 2, INT = 3, LONG = 4, FLOAT = 5, DOUBLE = 6;
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
      data.writeVLong(END);
    }

    private void start(FieldInfo info, int type) throws IOException {
      data.writeVLong(((long) info.number << TYPE_BITS) | type);
    }

    @Override
    public void writeField(FieldInfo info, int value) throws IOException {
      start(info, INT);
      data.writeZInt(value);
    }

    @Override
    public void writeField(FieldInfo info, long value) throws IOException {
      start(info, LONG);
      data.writeZLong(value);
    }

    @Override
    public void writeField(FieldInfo info, float value) throws IOException {
      start(info, FLOAT);
      data.writeInt(Float.floatToIntBits(value));
    }

    @Override
    public void writeField(FieldInfo info, double value) throws IOException {
      start(info, DOUBLE);
      data.writeLong(Double.doubleToLongBits(value));
    }

    @Override
    public void writeField(FieldInfo info, BytesRef value) throws IOException {
      start(info, BINARY);
      data.writeVInt(value.length);
      data.writeBytes(value.bytes, value.offset, value.length);
    }

    @Override
    public void writeField(FieldInfo info, String value) throws IOException {
      start(info, STRING);
      data.writeString(value);
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
        sub.copyDocument(data); // its end mark included, so no finishDocument()
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
      return 0; // nothing is buffered: every field goes straight to the file
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
      for (long code = in.readVLong(); code != END; code = in.readVLong()) {
        FieldInfo info = fields.fieldInfo((int) (code >>> TYPE_BITS));
        int type = (int) (code & TYPE_MASK);
        switch (visitor.needsField(info)) {
          case YES -> read(in, type, info, visitor);
          case NO -> skip(in, type);
          case STOP -> {
            return;
          }
        }
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

    private static void skip(IndexInput in, int type) throws IOException {
      switch (type) {
        case STRING, BINARY -> in.skipBytes(in.readVInt());
        case INT -> in.readZInt();
        case LONG -> in.readZLong();
        case FLOAT -> in.readInt();
        case DOUBLE -> in.readLong();
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
