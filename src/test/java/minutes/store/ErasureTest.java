package minutes.store;

import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import minutes.ApiServer;
import minutes.CliRun;
import minutes.TestLines;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Erasure proved on the bytes (decisions.md "Deleting data"), next to the real server on the run's
 * store. After a delete no unique word of the meeting (title, minutes, task, transcript) stands in
 * the server's index files (every generation directory under index.path); on SQLite nor in the
 * database file and its WAL, nor in a backup taken afterwards; on PostgreSQL no tuple of the
 * tables, live or dead, holds one (VACUUM removed them; what PostgreSQL keeps beyond that is in
 * docs/OPERATIONS.md). Each test first finds the words where they stood, so that the search for
 * them is known to work. Readers that hold a snapshot from before the delete are waited for.
 */
class ErasureTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  /** The tables that hold a meeting line's texts; PostgreSQL's pages are read through pageinspect. */
  private static final List<String> TEXT_TABLES = List.of("meeting", "protocol", "action_item", "transcript_segment");

  @BeforeAll
  static void pageinspect() throws Exception {
    if (!api.testStore().isPostgres()) return;
    try (Connection c = api.store().write(); var st = c.createStatement()) {
      st.execute("CREATE EXTENSION IF NOT EXISTS pageinspect"); // contrib, in Debian's postgresql; the test role is a superuser
    }
  }

  @Test
  void aDeletedMeetingsWordsLeaveTheDatabaseItsWalTheIndexFilesAndLaterBackups() throws Exception {
    String m = new UUID(17, 1).toString();
    List<String> words = TestLines.words("zqerase");
    // A companion in the same import shares the index segment: a segment whose documents are all
    // deleted is dropped by Lucene anyway, one that keeps a live document must be merged.
    importLines(TestLines.meeting(m, "zqerase", "ann@acme.com"), TestLines.meeting(new UUID(17, 11).toString(), "zqstays"));
    api.awaitHits(ALL, "zqerasetranscript", List.of(m), System.nanoTime(), Duration.ofSeconds(10));
    for (String word : words) assertTrue(inDatabase(word), word + " is in the database before the delete");
    // The index stores minutes and transcript as they are (MinutesCodec); titles and tasks are not stored there.
    for (String word : List.of("zqeraseminutes", "zqerasetranscript")) {
      assertTrue(inFiles(indexRoot(), word), word + " is in the index before the delete");
    }

    CliRun deleted = importLines(TestLines.delete("meeting", "acme", m));
    assertTrue(deleted.out().contains("erased what the deletes removed"), deleted.out());
    for (String word : words) assertFalse(inDatabase(word), word + " is still in the database");
    awaitGoneFromIndex(words);

    if (!api.testStore().isPostgres()) {
      Path backup = api.dir().resolve("backup-after-delete");
      CliRun b = api.cli("backup", "--out", backup.toString());
      assertEquals(0, b.code(), b.err());
      for (String word : words) assertFalse(inFiles(backup, word), word + " is in the backup");
    }
  }

  @Test
  void erasureWaitsForAReaderThatStillSeesTheDeletedMeeting() throws Exception {
    String m = new UUID(17, 2).toString();
    List<String> words = TestLines.words("zqreader");
    importLines(TestLines.meeting(m, "zqreader", "ann@acme.com"), TestLines.meeting(new UUID(17, 12).toString(), "zqkept"));
    CompletableFuture<Importer.Summary> delete;
    try (Connection reader = snapshotReader()) {
      // The reader's snapshot shows the meeting: the deleted rows must outlive the delete for it.
      try (var rs = reader.createStatement().executeQuery("SELECT title FROM meeting WHERE id = '" + m + "'")) {
        assertTrue(rs.next());
      }
      Path file = TestLines.file(api.dir(), TestLines.delete("meeting", "acme", m));
      CountDownLatch erasing = new CountDownLatch(1); // the delete has committed; its erasure starts
      Importer importer = new Importer(api.store(), (phase, lines, read, total) -> {
        if (phase.equals("erasing")) erasing.countDown();
      });
      delete = CompletableFuture.supplyAsync(() -> {
        try {
          return importer.run(List.of(file));
        } catch (Exception e) {
          throw new CompletionException(e);
        }
      });
      assertTrue(erasing.await(60, TimeUnit.SECONDS), "the delete reached its erasure");
      assertFalse(delete.isDone(), "the erasure waits while a reader sees the deleted meeting");
      reader.rollback();
    }
    Dialect.Erasure erasure = delete.get(60, TimeUnit.SECONDS).erasure();
    assertTrue(erasure.complete(), erasure.done());
    for (String word : words) assertFalse(inDatabase(word), word + " is still in the database");
    awaitGoneFromIndex(words);
  }

  /**
   * PostgreSQL's VACUUM leaves the dead tuples of a page that another reader holds pinned, even
   * a reader whose snapshot is newer than the delete, which the wait for old snapshots lets by:
   * the erasure vacuums again until none is left. The reader here holds the page of the deleted
   * meeting's transcript (that of its companion's row) from after the delete committed until the
   * erasure's first VACUUM of the table has run; the erasure must then vacuum it again. The
   * reader's snapshot must be newer than the delete, or the erasure waits for the reader while the
   * reader waits for the erasure's VACUUM: a snapshot's oldest transaction is the oldest running
   * anywhere on the server when it is taken (another test's, on a shared server), so the reader
   * takes it again until it is.
   */
  @Test
  void erasureOnPostgresqlVacuumsAgainWhileAReaderHoldsAPageOfTheDeletedRows() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(api.testStore().isPostgres(), "pages and pins are PostgreSQL's");
    String m = new UUID(17, 3).toString();
    List<String> words = TestLines.words("zqpinned");
    importLines(TestLines.meeting(m, "zqpinned", "ann@acme.com"), TestLines.meeting(new UUID(17, 13).toString(), "zqpinkept"));
    Path file = TestLines.file(api.dir(), TestLines.delete("meeting", "acme", m));
    Connection[] reader = new Connection[1];
    long[] vacuumsBefore = {vacuums()};
    Importer importer = new Importer(api.store(), (phase, lines, read, total) -> {
      if (!phase.equals("erasing") || reader[0] != null) return;
      try { // committed, not yet erased: pin the page, with a snapshot taken after the delete
        reader[0] = api.store().write();
        reader[0].setAutoCommit(false);
        long snapshotBy = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!pinAfter(reader[0], m)) {
          reader[0].rollback();
          assertTrue(System.nanoTime() < snapshotBy, "a snapshot newer than the delete within 10 s");
          Thread.sleep(20);
        }
        CompletableFuture.runAsync(() -> {
          try {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (vacuums() == vacuumsBefore[0] && System.nanoTime() < deadline) Thread.sleep(20);
            reader[0].rollback();
            reader[0].close();
          } catch (Exception e) {
            throw new CompletionException(e);
          }
        });
      } catch (java.sql.SQLException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    Dialect.Erasure erasure = importer.run(List.of(file)).erasure();
    assertTrue(reader[0] != null, "the delete reached its erasure");
    assertTrue(erasure.complete(), erasure.done());
    assertTrue(vacuums() - vacuumsBefore[0] >= 2, "the erasure vacuumed transcript_segment again after the pinned first pass: "
        + (vacuums() - vacuumsBefore[0]) + " VACUUMs");
    for (String word : words) assertFalse(inDatabase(word), word + " is still in the database");
  }

  // ------------------------------------------------------------------ helpers

  /**
   * Pins, in reader's open transaction, the page of the companion's segment; true when the
   * erasure would not wait for any snapshot ({@link Dialect#snapshotsBefore}) of the transaction
   * that deleted {@code meeting} (the one that wrote its last change_log row).
   */
  private static boolean pinAfter(Connection reader, String meeting) throws java.sql.SQLException {
    try (var st = reader.createStatement()) {
      st.execute("SET LOCAL enable_indexscan = off");
      st.execute("SET LOCAL enable_bitmapscan = off");
      st.execute("DECLARE pin CURSOR FOR SELECT text FROM transcript_segment WHERE text LIKE '%zqpinkept%'");
      try (var rs = st.executeQuery("FETCH 1 FROM pin")) {
        assertTrue(rs.next(), "the companion's segment");
      }
    }
    try (Connection c = api.store().write()) {
      c.setAutoCommit(true);
      String deleting = new Sql("SELECT xmin::text FROM change_log WHERE meeting_id = ? ORDER BY seq DESC LIMIT 1", meeting)
          .one(c, rs -> rs.getString(1)).orElseThrow();
      return Dialect.snapshotsBefore(c, deleting) == 0;
    }
  }

  /** How many times VACUUM has run on transcript_segment (PostgreSQL's statistics, read afresh). */
  private static long vacuums() {
    try (Connection c = api.store().write()) {
      c.setAutoCommit(true);
      return new Sql("SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = 'transcript_segment'").count(c);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static CliRun importLines(String... lines) {
    CliRun r = api.cli("import", TestLines.file(api.dir(), lines).toString());
    assertEquals(0, r.code(), r.err());
    return r;
  }

  /** A connection in a read transaction whose snapshot is taken by its first query, as a request's is. */
  private static Connection snapshotReader() throws Exception {
    Connection c;
    if (api.testStore().isPostgres()) {
      c = api.store().write();
      c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    } else {
      c = DriverManager.getConnection("jdbc:sqlite:" + api.testStore().sqliteFile());
    }
    c.setAutoCommit(false);
    return c;
  }

  private static Path indexRoot() {
    return api.config().indexPath();
  }

  /**
   * SQLite: the raw bytes of the database file and its WAL. PostgreSQL: the tuples of the text
   * tables' pages, live or dead, as pageinspect reads them from the pages.
   */
  private static boolean inDatabase(String word) throws Exception {
    if (!api.testStore().isPostgres()) {
      Path file = api.testStore().sqliteFile();
      return inFile(file, word) || inFile(file.resolveSibling(file.getFileName() + "-wal"), word);
    }
    try (Connection c = api.store().write()) {
      for (String table : TEXT_TABLES) {
        long tuples = new Sql("SELECT count(*) FROM generate_series(0, pg_relation_size('" + table + "') / 8192 - 1) b, "
            + "heap_page_items(get_raw_page('" + table + "', b::int)) h WHERE position(convert_to(?, 'UTF8') in h.t_data) > 0",
            word).count(c);
        if (tuples > 0) return true;
      }
    }
    return false;
  }

  /** Waits (up to 20 s: the server merges deleted documents away after applying the delete) until no index file holds a word. */
  private static void awaitGoneFromIndex(List<String> words) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    List<String> left;
    do {
      left = new ArrayList<>();
      for (String word : words) if (inFiles(indexRoot(), word)) left.add(word);
      if (!left.isEmpty()) Thread.sleep(50);
    } while (!left.isEmpty() && System.nanoTime() < deadline);
    assertEquals(List.of(), left, "words still in the index files under " + indexRoot());
  }

  /** True when any file under {@code root} holds the word's bytes. */
  static boolean inFiles(Path root, String word) throws IOException {
    while (true) {
      try (var files = Files.walk(root)) {
        for (Path p : files.filter(Files::isRegularFile).toList()) if (inFile(p, word)) return true;
        return false;
      } catch (java.io.UncheckedIOException fileWentWhileListing) {
        // the server deleted merged-away files meanwhile: look again
      }
    }
  }

  private static boolean inFile(Path file, String word) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (java.nio.file.NoSuchFileException gone) {
      return false; // deleted while we looked (a merged-away segment, an emptied WAL)
    }
    byte[] w = word.getBytes(StandardCharsets.UTF_8);
    outer:
    for (int i = 0; i + w.length <= bytes.length; i++) {
      for (int j = 0; j < w.length; j++) if (bytes[i + j] != w[j]) continue outer;
      return true;
    }
    return false;
  }
}
