package minutes.search.index;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import minutes.TestStore;
import minutes.search.SearchData;
import minutes.store.Db;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A start checks only the index files that changed since this code wrote or last checked them
 * (CheckedFiles), and a failed read checks them all; the experimental Lucene API that names a
 * segment's files is pinned against the commit's own list.
 */
class CheckedFilesTest {
  @TempDir Path dir;
  private TestStore testStore;
  private Db db;
  private Path root;

  @BeforeEach
  void index() throws Exception {
    testStore = TestStore.create(dir);
    SearchData data = new SearchData().workspace("acme", "ann@acme.com");
    for (int i = 0; i < 30; i++) {
      data.meeting("acme", "m" + i, "Meeting " + i, "2026-02-01T09:00:00Z", List.of(), "minutes number" + i,
          "alpha bravo charlie ".repeat(200) + "number" + i);
    }
    data.importInto(testStore.store(), dir);
    db = Db.open(testStore.store(), 2);
    root = dir.resolve("index");
    IndexBuilds.rebuild(root, db, 2, BuildProgress.NONE);
  }

  @AfterEach
  void close() {
    db.close();
    testStore.close();
  }

  @Test
  void theFilesLuceneNamesPerSegmentAreTheCommitsFiles() throws Exception {
    Path gen = root.resolve(IndexDirs.current(root));
    Set<String> committed = new HashSet<>();
    try (FSDirectory d = FSDirectory.open(gen)) {
      SegmentInfos infos = SegmentInfos.readLatestCommit(d);
      committed.addAll(infos.files(false));
      committed.remove(infos.getSegmentsFileName());
    }
    Set<String> perSegment = new HashSet<>();
    try (Generation g = Generation.open(root, IndexDirs.current(root))) {
      IndexSearcher s = g.acquire();
      try {
        for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
          perSegment.addAll(((SegmentReader) FilterLeafReader.unwrap(leaf.reader())).getSegmentInfo().files());
        }
      } finally {
        g.release(s);
      }
    }
    assertTrue(!committed.isEmpty());
    assertEquals(committed, perSegment);
  }

  @Test
  void aStartChecksWhatChangedAndAFailedReadChecksEverything() throws Exception {
    String name = IndexDirs.current(root);
    Path gen = root.resolve(name);
    assertTrue(Files.exists(gen.resolve(CheckedFiles.NAME)), "the build recorded the files it wrote");
    Path largest = largestFile(gen);

    // Damage that leaves size and time as they were (bit rot): a start does not read the file...
    FileTime before = Files.getLastModifiedTime(largest);
    flipByteIn(largest);
    Files.setLastModifiedTime(largest, before);
    try (Generation g = Generation.open(root, name)) {
      g.verify(false);
      // ...a failed read has every file checked, and that finds it.
      assertThrows(CorruptIndexException.class, () -> g.verify(true));
    }

    // The same damage as a write leaves it, with a new time: the next start reads the file and finds it.
    Files.setLastModifiedTime(largest, FileTime.from(before.toInstant().plusSeconds(1)));
    try (Generation g = Generation.open(root, name)) {
      assertThrows(CorruptIndexException.class, () -> g.verify(false));
    }
  }

  private static Path largestFile(Path gen) throws IOException {
    List<Path> files = new ArrayList<>();
    try (var list = Files.list(gen)) {
      list.filter(p -> p.getFileName().toString().startsWith("_")).forEach(files::add);
    }
    return files.stream().max(Comparator.comparingLong(p -> p.toFile().length())).orElseThrow();
  }

  /** Inverts one byte in the middle of the file. */
  private static void flipByteIn(Path file) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      long at = f.length() / 2;
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(~b & 0xff);
    }
  }
}
