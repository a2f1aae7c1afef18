package minutes.search.index;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import minutes.store.Db;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The layout under index.path: one directory per full build ({@code gen-000001}, ...) and
 * the file {@code CURRENT} naming the live one. {@code reindex} builds a new generation and
 * replaces CURRENT by an atomic rename; a running server watches CURRENT and switches.
 * A generation is "in use" while someone holds its Lucene write lock. Stateless.
 */
public final class IndexDirs {
  private static final Logger log = LoggerFactory.getLogger(IndexDirs.class);
  static final String POINTER = "CURRENT";
  private static final Pattern GENERATION = Pattern.compile("gen-(\\d{6,9})");

  private IndexDirs() {}

  /** The generation CURRENT names, or null when there is none or its directory is gone. */
  public static String current(Path root) throws IOException {
    String name = pointer(root);
    if (name == null || !GENERATION.matcher(name).matches() || !Files.isDirectory(root.resolve(name))) return null;
    return name;
  }

  /** What CURRENT says, whether or not it names a generation there; null without CURRENT. */
  private static String pointer(Path root) throws IOException {
    try {
      return Files.readString(root.resolve(POINTER), StandardCharsets.UTF_8).strip();
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /**
   * True when CURRENT names another generation than {@code name}: a later build (another
   * process's) replaced it after it was read, and deleted it once nobody held it, so that
   * opening it failed. Not damage: whoever read the old name opens what CURRENT names now. A
   * CURRENT still naming it, gone, or unreadable is not this: the failure stays what it was (a
   * lost generation is rebuilt).
   */
  static boolean superseded(Path root, String name) {
    try {
      String now = pointer(root);
      return now != null && !now.equals(name);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * True when CURRENT exists but names no generation there ({@link #current} is null): what a
   * lost or replaced folder leaves, which a rebuild repairs, unlike an index never built.
   */
  static boolean pointerDangles(Path root) {
    return Files.exists(root.resolve(POINTER));
  }

  /** Creates the next, empty generation directory; never reuses a name. */
  static Path createNext(Path root) throws IOException {
    Files.createDirectories(root);
    // The index holds the text of every meeting, as private as the database (0600): only the
    // owner may enter the folder, whatever the umask gave the files inside.
    Db.ownerOnly(root, "rwx------");
    long next = generations(root).stream().mapToLong(IndexDirs::number).max().orElse(0) + 1;
    while (true) {
      Path dir = root.resolve(String.format("gen-%06d", next));
      try {
        return Files.createDirectory(dir);
      } catch (FileAlreadyExistsException e) {
        next++; // another build took this name a moment ago
      }
    }
  }

  /** Makes {@code name} the live generation: written aside, forced to disk, renamed atomically. */
  static void flip(Path root, String name) throws IOException {
    writeAtomically(root.resolve(POINTER), name + "\n");
  }

  /**
   * Replaces {@code file} by {@code text} at once, durably: a crash leaves the old content or the
   * new, never part of either.
   */
  static void writeAtomically(Path file, String text) throws IOException {
    // A name of its own: two builds (an import's and a server's) may name CURRENT at once.
    Path tmp = Files.createTempFile(file.getParent(), file.getFileName() + ".", ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        ch.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
        ch.force(true);
      }
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the file system under " + file.getParent() + " cannot rename atomically", e);
    } finally {
      Files.deleteIfExists(tmp); // gone once moved
    }
    try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
      dir.force(true); // make the rename itself durable
    } catch (IOException ignored) {
      // Some platforms cannot open a directory; the rename is still atomic.
    }
  }

  /**
   * Deletes every generation but {@code live} that nobody holds open and CURRENT does not name:
   * the one a server just switched away from, or leftovers of a crash or an interrupted reindex.
   * A build holds its write lock from just after creating its directory until CURRENT names it
   * (IndexBuilds.rebuild), and each generation is judged and deleted under its own write lock,
   * so neither a build in progress nor one another build has just named live is taken for a
   * leftover.
   */
  static void deleteUnused(Path root, String live) {
    try {
      for (Path dir : generations(root)) {
        if (!dir.getFileName().toString().equals(live) && deletedUnlessUsed(root, dir)) {
          log.info("deleted unused search index {}", dir);
        }
      }
    } catch (IOException e) {
      log.warn("could not clean up unused search indexes under {}: {}", root, e.toString());
    }
  }

  private static boolean deletedUnlessUsed(Path root, Path dir) throws IOException {
    // Risk: Lock is @lucene.internal; if obtaining the write lock no longer told whether a writer
    // holds it, a generation in use could be deleted, which SearchSyncTest's reindex switch shows.
    try (FSDirectory d = FSDirectory.open(dir); Lock lock = d.obtainLock(IndexWriter.WRITE_LOCK_NAME)) {
      if (dir.getFileName().toString().equals(current(root))) return false;
      deleteTree(dir);
      return true;
    } catch (LockObtainFailedException | NoSuchFileException e) {
      return false; // held, or deleted by another process a moment ago
    }
  }

  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) return;
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }

  /** Bytes on disk of a generation directory, for the reindex report and /metrics. */
  static long size(Path dir) throws IOException {
    // Not Files.walk: it fails when a file goes between listing and reading its attributes,
    // which the sync thread's commits do all the time (they delete merged segments), and
    // /metrics then showed no index values at all. A generation directory is flat.
    long total = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path p : files) total += p.toFile().length(); // 0 for a file deleted meanwhile
    }
    return total;
  }

  private static List<Path> generations(Path root) throws IOException {
    if (!Files.isDirectory(root)) return List.of();
    try (Stream<Path> s = Files.list(root)) {
      return s.filter(p -> Files.isDirectory(p) && GENERATION.matcher(p.getFileName().toString()).matches()).toList();
    }
  }

  /** The number in a generation's name ({@link #generations} holds no other). */
  private static long number(Path dir) {
    return Long.parseLong(dir.getFileName().toString().substring("gen-".length()));
  }
}
