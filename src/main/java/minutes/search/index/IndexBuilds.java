package minutes.search.index;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import minutes.config.Config;
import minutes.store.ChangeHistory;
import minutes.store.ChangedSince;
import minutes.store.Db;
import minutes.store.Sql;
import minutes.store.Store;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;

/**
 * Writing a generation from the database: a full build ({@code reindex}, a first start, a
 * repair), a catch-up with change_log, and the update that {@code import} makes when no
 * server holds the index. Used by {@link SearchIndex}'s sync thread and by the CLI. Stateless.
 */
public final class IndexBuilds {
  private IndexBuilds() {}

  /** What a full build produced. */
  public record Built(String name, long meetings, long chars, double seconds, long bytes, long seq) {}

  /** Threads a full build or a catch-up indexes with: one per core. */
  public static int indexingThreads() {
    return Runtime.getRuntime().availableProcessors();
  }

  /** Lucene may delete an older commit's files while they are copied; then the newer commit is copied. */
  private static final int COPY_ATTEMPTS = 5;

  /**
   * Copies the live generation under {@code root} to {@code target} (a backup), with a CURRENT
   * naming it; returns its name, or null when there is none to copy: none built yet, or one of
   * another format, which the server rebuilds anyway.
   */
  public static String copyLive(Path root, Path target) throws IOException {
    String name = IndexDirs.current(root);
    if (name == null) return null;
    Path source = root.resolve(name);
    try {
      IndexFormat.check(source); // before Lucene reads the commit: it may name a codec this Lucene lacks
    } catch (IndexFormat.Other e) {
      return null;
    }
    Path dir = target.resolve(name);
    for (int attempt = 1; ; attempt++) {
      Files.createDirectories(dir);
      try (FSDirectory d = FSDirectory.open(source)) {
        Files.copy(source.resolve(IndexFormat.FILE), dir.resolve(IndexFormat.FILE));
        // A commit's files are never changed, only deleted once a newer commit replaces them.
        // Risk: SegmentInfos is @lucene.experimental; if its reading or files() changed, a backup
        // would miss files, which BackupTest's restore and search of the copy would show.
        for (String file : SegmentInfos.readLatestCommit(d).files(true)) {
          Files.copy(source.resolve(file), dir.resolve(file));
        }
        Files.writeString(target.resolve(IndexDirs.POINTER), name + "\n", StandardCharsets.UTF_8);
        return name;
      } catch (NoSuchFileException e) {
        if (attempt == COPY_ATTEMPTS) throw e;
        try (var files = Files.list(dir)) {
          for (Path p : files.toList()) Files.delete(p);
        }
      }
    }
  }

  /**
   * Builds a new generation from the database (one read transaction: the data and the change_log
   * seq recorded in the commit match), then makes it the live one by flipping CURRENT.
   */
  public static Built rebuild(Path root, Db db, int threads, BuildProgress progress)
      throws IOException, SQLException {
    long started = System.nanoTime();
    Path dir = IndexDirs.createNext(root);
    String name = dir.getFileName().toString();
    boolean flipped = false;
    try {
      long seq, bytes;
      Indexer.Stats stats;
      try (Generation g = Generation.create(dir); Connection c = db.read()) {
        c.setAutoCommit(false);
        try {
          seq = Db.dataVersion(c);
          // In the index's order (MeetingDocument.INDEX_ORDER), so that Lucene finds each segment
          // sorted already when it writes it; within a workspace, newest first, the order in
          // which hits that tie on rank and date are listed.
          List<String> ids = new Sql("SELECT id FROM meeting ORDER BY workspace_id, sort_at DESC, id")
              .list(c, rs -> rs.getString(1));
          stats = Indexer.index(c, ids, g.writer, true, threads, progress);
        } finally {
          c.rollback();
        }
        g.commit(seq);
        // Named live while still locked: unlocked and not yet live, it would be taken for a
        // leftover by another build's clean-up (an import's and a server's build at once,
        // ConcurrentBuildsTest). A server that reads CURRENT meanwhile finds it held and retries.
        IndexDirs.flip(root, name);
        flipped = true;
        bytes = IndexDirs.size(dir); // while held: once a later build is live, this one may go
      }
      IndexDirs.deleteUnused(root, name); // a running server keeps its own until it has switched
      return new Built(name, stats.meetings(), stats.chars(), (System.nanoTime() - started) / 1e9, bytes, seq);
    } finally {
      if (!flipped) IndexDirs.deleteTree(dir);
    }
  }

  /**
   * What a catch-up did: the meetings applied and how many of them were gone from the database
   * (deleted: their text still stands in the index files until {@link Generation#eraseDeleted}),
   * or, when {@code rebuild} is set, why the generation cannot follow the log and must be rebuilt.
   */
  record CatchUp(int applied, long deleted, String rebuild) {}

  /** Why a generation cannot follow the log ({@link CatchUp#rebuild}), as a clause about it. */
  static final String AHEAD_OF_DATABASE = "it is ahead of the database (another database?)",
      OLDER_THAN_HISTORY = "it is older than the change history kept (changes.retention_days)";

  /**
   * Applies every change_log entry after the generation's seq, reading the meetings in the
   * same read transaction as the entries, and commits with the new seq. A generation ahead of
   * the database belongs to another one; one older than the pruned history would miss changes.
   */
  static CatchUp catchUp(Generation g, Db db, int threads) throws IOException, SQLException {
    try (Connection c = db.read()) {
      c.setAutoCommit(false);
      try {
        ChangeHistory.State history = ChangeHistory.state(c);
        long max = history.newest();
        if (max < g.seq()) return new CatchUp(0, 0, AHEAD_OF_DATABASE);
        if (g.seq() < history.prunedThrough()) return new CatchUp(0, 0, OLDER_THAN_HISTORY);
        if (max == g.seq()) return new CatchUp(0, 0, null);
        List<String> ids = ChangedSince.read(c, g.seq()).changed();
        Indexer.Stats stats = Indexer.index(c, ids, g.writer, false, threads, BuildProgress.NONE);
        g.commit(max);
        return new CatchUp(ids.size(), stats.deleted(), null);
      } finally {
        c.rollback();
      }
    }
  }

  /**
   * After an import: when no server holds the index, applies the import to it (or builds
   * the first one) so that the next server starts up to date, and merges away what the import
   * deleted. A running server holds the write lock and does both itself (the first within a
   * poll interval). Returns a line for the user.
   */
  public static String updateAfterImport(Config config) throws IOException, SQLException {
    Path root = config.indexPath();
    try (Db db = Db.open(Store.of(config), 1)) {
      Generation g = null;
      for (String name = IndexDirs.current(root); name != null && g == null; ) {
        try {
          g = Generation.open(root, name);
        } catch (LockObtainFailedException e) {
          return "search index: the running server applies this import";
        } catch (IOException e) {
          if (!CheckedFiles.damaged(e)) throw e; // damaged or of another format: rebuilt below
          if (!IndexDirs.superseded(root, name)) break;
          name = IndexDirs.current(root); // replaced by another build since read: open that one
        }
      }
      if (g != null) {
        try (Generation live = g) {
          CatchUp done = catchUp(live, db, indexingThreads());
          if (done.rebuild() == null && done.deleted() > 0) {
            live.eraseDeleted();
            return String.format("search index updated (%,d meetings; deleted ones merged away)", done.applied());
          }
          if (done.rebuild() == null) return String.format("search index updated (%,d meetings)", done.applied());
        }
      }
      Built b = rebuild(root, db, indexingThreads(), BuildProgress.NONE);
      return String.format("search index built (%,d meetings)", b.meetings());
    }
  }

  /**
   * Makes a backup's copy of the live generation (under {@code root}) match the backup's copy of
   * the database, which is as new or newer: applies what the index copy lacks and merges away
   * every deleted document, so that a backup taken after a delete holds none of the deleted text,
   * whatever the running server had merged when the copy was made.
   */
  public static void settleBackup(Path root, Store database) throws IOException, SQLException {
    String name = IndexDirs.current(root);
    if (name == null) return;
    try (Db db = Db.open(database, 1)) {
      String rebuild;
      try (Generation g = Generation.open(root, name)) { // of this format: copyLive checked it
        rebuild = catchUp(g, db, indexingThreads()).rebuild();
        if (rebuild == null && g.holdsDeleted()) g.eraseDeleted();
      }
      if (rebuild != null) rebuild(root, db, indexingThreads(), BuildProgress.NONE);
    }
  }
}
