package minutes.search.index;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentReader;

/**
 * Which index files are known good: written by this code's own commits or read whole and
 * checksummed since, as each file's size and modification time then, kept in a small file of
 * the generation's folder ({@value #NAME}; not an index file name, so Lucene leaves it alone).
 * A server start then reads only the segments whose files changed since (a disk that wrote
 * over one, a file cut or replaced), not the whole index: at 200,000 meetings that is
 * 20 GB read before the first search otherwise. Also says which failures mean damage that a
 * rebuild repairs ({@link #damaged}). Not thread-safe; one generation's writer thread uses it.
 *
 * <p>Risk: the files of a segment come from {@link SegmentReader#getSegmentInfo()} (SegmentReader
 * is @lucene.experimental), and a segment's checksums are read by LeafReader.checkIntegrity
 * (@lucene.internal); CheckedFilesTest pins that the files are exactly the commit's and that a
 * damaged one is found.
 */
final class CheckedFiles {
  static final String NAME = "minutes-checked";

  /** A file as it was when known good. */
  private record Stat(long size, long modified) {}

  private final Path dir;
  private final Map<String, Stat> known = new HashMap<>();

  private CheckedFiles(Path dir) {
    this.dir = dir;
  }

  /** What the generation in {@code dir} knows; nothing when the file is missing or unreadable. */
  static CheckedFiles of(Path dir) throws IOException {
    CheckedFiles checked = new CheckedFiles(dir);
    List<String> lines;
    try {
      lines = Files.readAllLines(dir.resolve(NAME), StandardCharsets.UTF_8);
    } catch (NoSuchFileException none) {
      return checked;
    }
    for (String line : lines) {
      String[] f = line.split(" ");
      if (f.length == 3) {
        try {
          checked.known.put(f[0], new Stat(Long.parseLong(f[1]), Long.parseLong(f[2])));
        } catch (NumberFormatException garbled) {
          // a garbled line only means that file gets checked again
        }
      }
    }
    return checked;
  }

  /**
   * Checks the checksums of every segment of {@code reader} whose files are not known good as
   * they are now ({@code all}: every segment), then records them. Throws what Lucene throws for
   * a damaged file.
   */
  void check(IndexReader reader, boolean all) throws IOException {
    for (LeafReaderContext leaf : reader.leaves()) {
      Collection<String> files = files(leaf.reader());
      if (!all && files != null && knownGood(files)) continue;
      leaf.reader().checkIntegrity();
      if (files != null) record(files);
    }
    save();
  }

  /**
   * Records the files of {@code reader} that are new since the last record as known good:
   * this process has just committed them (index files are written once, then only read). A
   * known file that changed since is left for the next check to read, never recorded as good.
   */
  void written(IndexReader reader) throws IOException {
    for (LeafReaderContext leaf : reader.leaves()) {
      Collection<String> files = files(leaf.reader());
      if (files == null) continue;
      for (String f : files) known.putIfAbsent(f, stat(f));
    }
    save();
  }

  private static Collection<String> files(LeafReader reader) throws IOException {
    return FilterLeafReader.unwrap(reader) instanceof SegmentReader segment ? segment.getSegmentInfo().files() : null;
  }

  private boolean knownGood(Collection<String> files) throws IOException {
    for (String f : files) {
      Stat was = known.get(f);
      if (was == null || !was.equals(stat(f))) return false;
    }
    return true;
  }

  private void record(Collection<String> files) throws IOException {
    for (String f : files) known.put(f, stat(f));
  }

  private Stat stat(String file) throws IOException {
    Path p = dir.resolve(file);
    return new Stat(Files.size(p), Files.getLastModifiedTime(p).to(java.util.concurrent.TimeUnit.NANOSECONDS));
  }

  /** Writes the files still in the folder, replacing the old list at once (a crash leaves one whole). */
  private void save() throws IOException {
    known.keySet().removeIf(f -> !Files.exists(dir.resolve(f)));
    StringBuilder text = new StringBuilder();
    known.forEach((f, s) -> text.append(f).append(' ').append(s.size).append(' ').append(s.modified).append('\n'));
    IndexDirs.writeAtomically(dir.resolve(NAME), text.toString());
  }

  /**
   * True for what Lucene reports when index files are damaged or missing (checksum, truncation,
   * garbage headers, a deleted file), and for a generation of another format ({@link
   * IndexFormat.Other}): a rebuild from the database repairs it. Other failures (a full disk,
   * permissions) are not repaired by rebuilding and are retried and logged instead.
   */
  static boolean damaged(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IndexFormat.Other
          || t instanceof CorruptIndexException
          || t instanceof IndexFormatTooOldException
          || t instanceof IndexFormatTooNewException
          || t instanceof java.io.EOFException
          || t instanceof java.nio.file.NoSuchFileException
          || t instanceof java.io.FileNotFoundException) {
        return true;
      }
    }
    return false;
  }
}
