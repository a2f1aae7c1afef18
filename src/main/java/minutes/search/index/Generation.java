package minutes.search.index;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import minutes.search.text.SearchAnalyzer;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.FSDirectory;

/**
 * One open index generation: its single writer (Lucene's write lock keeps any other process
 * out), its searchers, and the change_log sequence number those searchers reflect. Searches
 * may run on any thread; writes come from one thread at a time.
 */
final class Generation implements Closeable {
  /** Commit user data key: the last change_log seq whose changes this commit holds. */
  static final String SEQ = "seq";
  static final RankSimilarity SIMILARITY = new RankSimilarity();

  final String name;
  final Path path;
  final IndexWriter writer;
  private final FSDirectory dir;
  private final SearcherManager searchers;
  private volatile long seq;

  private Generation(String name, Path path, FSDirectory dir, IndexWriter writer) throws IOException {
    this.name = name;
    this.path = path;
    this.dir = dir;
    this.writer = writer;
    this.seq = Long.parseLong(commitData(writer, SEQ, "0"));
    // Risk: SearcherManager and SearcherFactory are @lucene.experimental (Lucene's near-real-time
    // searcher lifecycle for 15 years); SearchSyncTest pins that commits become visible.
    this.searchers = new SearcherManager(writer, new SearcherFactory() {
      @Override
      public IndexSearcher newSearcher(IndexReader reader, IndexReader previous) {
        IndexSearcher s = new IndexSearcher(reader);
        s.setSimilarity(SIMILARITY);
        return s;
      }
    });
  }

  /**
   * Opens an existing generation for searching and updating; fails if another process writes it,
   * and with {@link IndexFormat.Other} before Lucene reads any of it if it has another format.
   */
  static Generation open(Path root, String name) throws IOException {
    Path dir = root.resolve(name);
    IndexFormat.check(dir);
    return open(dir, IndexWriterConfig.OpenMode.APPEND);
  }

  /**
   * Creates a generation in an empty directory, for a full build: locked first, then its format
   * written, so that another process's clean-up ({@link IndexDirs#deleteUnused}) finds it held
   * while the format file is forced to disk.
   */
  static Generation create(Path dir) throws IOException {
    Generation g = open(dir, IndexWriterConfig.OpenMode.CREATE);
    try {
      IndexFormat.CURRENT.writeTo(dir);
    } catch (IOException | RuntimeException e) {
      g.close();
      throw e;
    }
    return g;
  }

  /**
   * Indexing RAM before a segment is written: a third of the heap (Lucene holds up to twice
   * the buffer while flushing falls behind), at most 1.5 GB, below Lucene's per-thread limit of
   * 1,945 MB. Taken only while indexing. Fewer, larger segments make every search faster, since
   * each pays per segment for each of its words, and spare a full build merging what it has
   * just written (figures: docs/BENCHMARKS.md).
   */
  static final double RAM_BUFFER_MB = Math.min(1536, Runtime.getRuntime().maxMemory() / 3.0 / (1 << 20));

  private static Generation open(Path path, IndexWriterConfig.OpenMode mode) throws IOException {
    FSDirectory dir = FSDirectory.open(path);
    IndexWriter w = null;
    try {
      IndexWriterConfig c = new IndexWriterConfig(new SearchAnalyzer())
          .setOpenMode(mode)
          .setCodec(new MinutesCodec())
          .setSimilarity(SIMILARITY)
          .setRAMBufferSizeMB(RAM_BUFFER_MB)
          .setUseCompoundFile(false)
          .setCommitOnClose(false) // a commit always carries its seq; never one without
          .setIndexSort(MeetingDocument.INDEX_ORDER);
      // Risk: TieredMergePolicy is @lucene.experimental (and Lucene's default policy); ErasureTest
      // pins that deleted text is merged away.
      TieredMergePolicy mp = new TieredMergePolicy();
      mp.setNoCFSRatio(0);
      // eraseDeleted merges away every segment that holds a deleted document, not only those
      // with more than Lucene's default 10%: one deleted meeting's text must go too.
      mp.setForceMergeDeletesPctAllowed(0);
      c.setMergePolicy(mp); // Lucene's default 10 segments per tier: imports' small segments do not pile up
      w = new IndexWriter(dir, c);
      return new Generation(path.getFileName().toString(), path, dir, w);
    } catch (IOException | RuntimeException e) {
      if (w != null) w.rollback();
      dir.close();
      throw e;
    }
  }

  private static String commitData(IndexWriter w, String key, String absent) {
    Iterable<Map.Entry<String, String>> data = w.getLiveCommitData();
    if (data != null) {
      for (Map.Entry<String, String> e : data) if (e.getKey().equals(key)) return e.getValue();
    }
    return absent;
  }

  /** The change_log seq the current searchers reflect: read it before {@link #acquire()}. */
  long seq() {
    return seq;
  }

  IndexSearcher acquire() throws IOException {
    return searchers.acquire();
  }

  void release(IndexSearcher s) throws IOException {
    searchers.release(s);
  }

  /**
   * Makes the changes written so far durable as "everything up to {@code seq}", then visible
   * to new searches. The seq is published last, so a search that reads it and then acquires
   * a searcher gets one at least that fresh.
   */
  synchronized void commit(long newSeq) throws IOException {
    writer.setLiveCommitData(Map.of(SEQ, Long.toString(newSeq)).entrySet());
    writer.commit();
    searchers.maybeRefreshBlocking();
    seq = newSeq;
    read(reader -> {
      CheckedFiles.of(path).written(reader);
      return null;
    });
  }

  /**
   * Reads the files of the current commit that changed since they were written or last checked
   * ({@link CheckedFiles}; {@code all}: every file) and checks their checksums. Opening checks
   * only the small files; a damaged byte in a large one would otherwise surface later as a
   * failed search or, worse, as a wrong hit or snippet.
   */
  void verify(boolean all) throws IOException {
    read(reader -> {
      CheckedFiles.of(path).check(reader, all);
      return null;
    });
  }

  /**
   * Erasure (decisions.md "Deleting data"): a deleted document keeps its text in its segment's
   * files until the segment is merged. This rewrites every segment that holds a deleted document
   * (or a replaced one's old version), commits, and refreshes the searchers; the old segments'
   * files are deleted once the last search that reads them ends. Costs a rewrite of those
   * segments (docs/BENCHMARKS.md); updates and searches go on meanwhile.
   */
  void eraseDeleted() throws IOException {
    writer.forceMergeDeletes(true);
    commit(seq);
  }

  /** True while a document marked deleted still stands in a segment of the current searchers. */
  boolean holdsDeleted() throws IOException {
    return read(IndexReader::hasDeletions);
  }

  /** Documents, deleted documents still in segments, and the seq they reflect, read together (a commit changes them). */
  synchronized long[] documentsAndSeq() throws IOException {
    return read(reader -> new long[] {reader.numDocs(), reader.numDeletedDocs(), seq});
  }

  int numDocs() throws IOException {
    return read(IndexReader::numDocs);
  }

  /** Something read from the current searchers' index reader. */
  @FunctionalInterface
  private interface ReaderRead<T> {
    T from(IndexReader reader) throws IOException;
  }

  private <T> T read(ReaderRead<T> read) throws IOException {
    IndexSearcher s = acquire();
    try {
      return read.from(s.getIndexReader());
    } finally {
      release(s);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      searchers.close();
    } finally {
      try {
        writer.rollback(); // closes without committing: every wanted change is committed already
      } catch (org.apache.lucene.store.AlreadyClosedException e) {
        // closed by a tragic error (e.g. an interrupted write at shutdown): nothing left to close
      } finally {
        dir.close();
      }
    }
  }
}
