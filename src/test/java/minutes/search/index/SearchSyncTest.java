package minutes.search.index;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import minutes.TestStore;
import minutes.config.Config;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.search.SearchApi;
import minutes.search.SearchData;
import minutes.search.query.SearchFilters;
import minutes.search.query.SearchHit;
import minutes.search.text.SearchAnalyzer;
import minutes.store.Db;
import minutes.store.Store;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Keeping the index in step with SQLite: pending changes, crashes, reindex switches, import without a server. */
class SearchSyncTest {
  @TempDir Path dir;
  Path root;
  TestStore testStore;
  Store store; // every import of a test goes here
  Db db;
  SearchIndex index;
  Principal acme, ann;

  @BeforeEach
  void setUp() throws Exception {
    testStore = TestStore.createMigrated(dir);
    store = testStore.store();
    root = dir.resolve("index");
    SearchData data = new SearchData().workspace("acme", "ann@acme.com", "bob@acme.com");
    for (int i = 0; i < 20; i++) {
      data.meeting("acme", "m" + i, "Meeting " + i, "2026-02-01T09:00:00Z", List.of("ann@acme.com"), null,
          "alpha bravo number" + i);
    }
    data.importInto(store, dir);
    db = Db.open(store, 4);
    long ws;
    try (Connection c = db.read()) {
      ws = Db.workspaceId(c, "acme").orElseThrow();
    }
    acme = new Principal("k1", ws, null, EnumSet.allOf(Scope.class), Set.of());
    ann = new Principal("k2", ws, "ann@acme.com", EnumSet.allOf(Scope.class), Set.of());
  }

  @AfterEach
  void tearDown() {
    if (index != null) index.close();
    db.close();
    testStore.close();
  }

  SearchIndex openLive() throws Exception {
    SearchIndex i = SearchIndex.open(root, db);
    while (!i.ready()) i.syncOnce();
    return i;
  }

  List<String> search(Principal p, String q) throws Exception {
    try (Connection c = db.read()) {
      c.setAutoCommit(false);
      try {
        List<String> ids = SearchData.search(index, c, p, q, 100).stream().map(SearchHit::meetingId).toList();
        // As a request whose key's statement read the data version (ApiKeys.resolve): an index
        // at that version skips the database, one behind it must still leave out what changed.
        List<String> knowingTheVersion = SearchData.answer(index, c, OptionalLong.of(Db.dataVersion(c)), p,
            SearchData.request(SearchApi.query(q, new SearchAnalyzer()), SearchFilters.NONE, 100), () -> false)
            .data().stream().map(SearchHit::meetingId).toList();
        assertEquals(ids, knowingTheVersion, "the same answer with the data version known");
        return ids;
      } finally {
        c.rollback();
      }
    }
  }

  long meetingsInIndex() throws Exception {
    try (Connection c = db.read()) {
      c.setAutoCommit(false);
      return SearchData.search(index, c, acme, "alpha", 100).size();
    }
  }

  @Test
  void withoutAnIndexSearchIsRefusedAsBuilding() throws Exception {
    index = SearchIndex.open(root, db);
    assertFalse(index.ready());
    SearchUnavailable e = assertThrows(SearchUnavailable.class, () -> search(acme, "alpha"));
    assertEquals(SearchUnavailable.Reason.BUILDING, e.reason());
    assertEquals(null, e.state(), "search says \"being built\"");
    assertEquals("search index: not built yet", index.unavailable());
  }

  /** What /healthz and search's 503 say while a generation is rebuilt: why, in the same words. */
  private void assertRebuildingSince(String why) {
    assertFalse(index.ready());
    assertEquals("search index: being rebuilt, since " + why, index.unavailable());
    SearchUnavailable e = assertThrows(SearchUnavailable.class, () -> search(acme, "alpha"));
    assertEquals(SearchUnavailable.Reason.BUILDING, e.reason());
    assertEquals("being rebuilt, since " + why, e.state());
  }

  /**
   * A damaged index found at a start, or a CURRENT naming a generation that is gone, is rebuilt;
   * meanwhile /healthz and search say so, not "not built yet".
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"damaged", "dangling"})
  void aDamagedIndexSaysWhyUntilRebuilt(String damage) throws Exception {
    index = openLive();
    index.close();
    String old = IndexDirs.current(root);
    if (damage.equals("damaged")) {
      try (var files = Files.list(root.resolve(old))) {
        Path segments = files.filter(p -> p.getFileName().toString().startsWith("segments_")).findFirst().orElseThrow();
        Files.writeString(segments, "garbage");
      }
    } else {
      Files.writeString(root.resolve(IndexDirs.POINTER), "gen-999999\n");
    }
    index = SearchIndex.open(root, db);
    assertRebuildingSince(damage.equals("damaged") ? "its files are damaged" : "the generation its CURRENT file names is missing");
    for (int i = 0; i < 3 && !index.ready(); i++) index.syncOnce(); // rebuilds, then opens the rebuilt one
    assertTrue(index.ready());
    assertEquals(null, index.unavailable());
  }

  @Test
  void aMeetingChangedInSqliteIsHiddenUntilTheIndexHasAppliedIt() throws Exception {
    index = openLive();
    assertEquals(List.of(SearchData.id("m3")), search(ann, "number3"));
    // m3 now visible to bob only, with new words: SQLite changes, the index does not yet.
    new SearchData().meeting("acme", "m3", "Meeting 3", "2026-02-01T09:00:00Z", List.of("bob@acme.com"), null,
        "charlie delta").importInto(store, dir);
    assertEquals(List.of(), search(ann, "number3"), "ann must not see it, not even briefly");
    assertEquals(List.of(), search(acme, "number3"), "the old text is gone");
    assertEquals(List.of(), search(acme, "charlie"), "not indexed yet");
    assertEquals(19, search(acme, "alpha").size());
    index.syncOnce();
    assertEquals(List.of(SearchData.id("m3")), search(acme, "charlie delta"));
    assertEquals(List.of(), search(ann, "charlie"));
    assertEquals(List.of(), search(acme, "number3"));
  }

  @Test
  void aLimitThatCutsThroughEqualRanksKeepsTheNewestEvenWhenFoundLast() throws Exception {
    index = openLive();
    // Same words and length as m0..m19, so the same rank, but newer; applied last, so it is
    // the last document the search visits, after the queue is full and skipping has begun.
    new SearchData().meeting("acme", "newest", "Meeting new", "2026-03-01T09:00:00Z", List.of("ann@acme.com"), null,
        "alpha bravo numbernew").importInto(store, dir);
    index.syncOnce();
    try (Connection c = db.read()) {
      c.setAutoCommit(false);
      try {
        for (int limit : new int[] {1, 3}) {
          List<SearchHit> hits = SearchData.search(index, c, acme, "alpha", limit);
          assertEquals(limit, hits.size());
          assertEquals(SearchData.id("newest"), hits.get(0).meetingId());
          for (SearchHit h : hits) assertEquals(hits.get(0).rank(), h.rank(), "all tie on rank");
        }
      } finally {
        c.rollback();
      }
    }
  }

  @Test
  void pendingChangesNameEachMeetingOnceAndAreFoundByARangeOfSeqNotAScan() throws Exception {
    long seq;
    try (Connection c = db.read()) {
      seq = minutes.store.Db.dataVersion(c);
    }
    for (int round = 0; round < 2; round++) { // m5 twice, m7 once: three change_log entries
      new SearchData().meeting("acme", "m5", "Meeting 5", "2026-02-01T09:00:00Z", List.of("ann@acme.com"), null, "echo")
          .importInto(store, dir);
    }
    new SearchData().meeting("acme", "m7", "Meeting 7", "2026-02-01T09:00:00Z", List.of("ann@acme.com"), null, "echo")
        .importInto(store, dir);
    try (Connection c = db.read()) {
      assertEquals(List.of(SearchData.id("m5"), SearchData.id("m7")),
          minutes.store.ChangedSince.read(c, seq).changed());
      // Every search runs this lookup: a scan of change_log would cost in proportion to its whole history.
      assertTrue(plan(c, seq).contains(testStore.isPostgres() ? "change_log_pkey" : "SEARCH change_log USING INTEGER PRIMARY KEY"),
          plan(c, seq));
    }
  }

  @Test
  void aServerKilledMidSyncCatchesUpWithNoMeetingMissingOrDoubled() throws Exception {
    index = openLive();
    index.close();
    SearchData more = new SearchData();
    for (int i = 20; i < 50; i++) more.meeting("acme", "m" + i, "Meeting " + i, "2026-02-02T09:00:00Z", List.of(), null, "alpha late" + i);
    more.importInto(store, dir);
    // A sync that wrote half of the changes and died before its commit.
    try (Generation g = Generation.open(root, IndexDirs.current(root)); Connection c = db.read()) {
      List<String> half = new ArrayList<>();
      for (int i = 20; i < 35; i++) half.add(SearchData.id("m" + i));
      Indexer.index(c, half, g.writer, false, 2, BuildProgress.NONE);
      // close() rolls back like a kill -9: nothing after the last commit survives.
    }
    index = SearchIndex.open(root, db);
    assertEquals(20, meetingsInIndex(), "restarted at its last commit; the rest is excluded, not shown stale");
    index.syncOnce();
    assertEquals(50, meetingsInIndex());
    assertEquals(List.of(SearchData.id("m42")), search(acme, "late42"));
    // Applying the same changes again (a crash right after the commit) changes nothing.
    index.syncOnce();
    assertEquals(50, meetingsInIndex());
  }

  @Test
  void reindexSwitchesGenerationsWithoutFailingASearch() throws Exception {
    index = openLive();
    String first = IndexDirs.current(root);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger searches = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> clients = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      Thread c = new Thread(() -> {
        try {
          while (!stop.get()) {
            if (search(acme, "alpha bravo").size() != 20) throw new AssertionError("wrong number of hits");
            searches.incrementAndGet();
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      });
      c.start();
      clients.add(c);
    }
    for (int round = 0; round < 3; round++) {
      try (Db other = Db.open(store, 1)) { // as the reindex command does, from its own process
        IndexBuilds.rebuild(root, other, 2, BuildProgress.NONE);
      }
      index.syncOnce(); // the server notices CURRENT and switches
    }
    // Searches on the last generation too, not only on those the switches replaced.
    int switched = searches.get();
    for (long deadline = System.nanoTime() + 30_000_000_000L; searches.get() < switched + 10 && failure.get() == null
        && System.nanoTime() < deadline; ) {
      Thread.sleep(10);
    }
    stop.set(true);
    for (Thread c : clients) c.join();
    if (failure.get() != null) throw new AssertionError("a search failed during reindex", failure.get());
    assertTrue(searches.get() >= switched + 10, "searches after the last switch: " + (searches.get() - switched));
    String now = IndexDirs.current(root);
    assertNotEquals(first, now);
    try (var files = Files.list(root)) {
      assertEquals(List.of(now), files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("gen-")).toList(),
          "old generations are deleted once unused");
    }
  }

  @Test
  void importWithoutAServerUpdatesTheIndexAndLeavesItToARunningOne() throws Exception {
    java.util.Map<String, String> env = new java.util.HashMap<>(testStore.env());
    env.put("MINUTES_INDEX_PATH", root.toString());
    Config config = Config.load(Files.createFile(dir.resolve("none.properties")), env);
    assertTrue(IndexBuilds.updateAfterImport(config).startsWith("search index built"));
    new SearchData().meeting("acme", "fresh", "Fresh", "2026-02-03T09:00:00Z", List.of(), null, "echo").importInto(store, dir);
    assertEquals("search index updated (1 meetings)", IndexBuilds.updateAfterImport(config));
    index = SearchIndex.open(root, db);
    assertEquals(List.of(SearchData.id("fresh")), search(acme, "echo"));
    assertTrue(IndexBuilds.updateAfterImport(config).contains("running server"));
  }

  @Test
  void anIndexAheadOfItsDatabaseIsRebuiltNotServed() throws Exception {
    index = openLive();
    index.close();
    // Same index directory, a different (fresh) database: the index must not be trusted.
    Path otherDir = Files.createDirectories(dir.resolve("other"));
    try (TestStore other = TestStore.create(otherDir)) {
      new SearchData().workspace("acme").meeting("acme", "solo", "Solo", "2026-02-03T09:00:00Z", List.of(), null, "alpha")
          .importInto(other.store(), dir);
      try (Connection c = other.store().write()) {
        c.createStatement().execute("DELETE FROM change_log"); // seq restarts below the index's
      }
      db.close();
      db = Db.open(other.store(), 2);
      index = SearchIndex.open(root, db);
      assertEquals(null, index.unavailable(), "served until the sync thread has compared it with the database");
      index.syncOnce(); // finds it ahead, rebuilds
      assertEquals("search index: being rebuilt, since it is ahead of the database (another database?)",
          index.unavailable());
      for (int i = 0; i < 3 && meetingsInIndexOrZero() != 1; i++) index.syncOnce();
      assertEquals(1, meetingsInIndex());
      index.close();
      index = null;
      db.close(); // before its database is dropped; tearDown's close again is harmless
    }
  }

  /**
   * A build and the segments the server adds afterwards keep each workspace's documents in one
   * run ({@link MeetingDocument#INDEX_ORDER}), however the two workspaces' meetings interleave by
   * date, and searches still answer each key with its own workspace's meetings only.
   */
  @Test
  void everySegmentHoldsEachWorkspaceInOneRun() throws Exception {
    SearchData other = new SearchData().workspace("beta", "cy@beta.com");
    for (int i = 0; i < 10; i++) {
      other.meeting("beta", "b" + i, "Beta " + i, (i % 2 == 0 ? "2026-01-15" : "2026-02-15") + "T09:00:00Z",
          List.of(), null, "alpha bravo beta" + i);
    }
    other.importInto(store, dir);
    index = openLive();
    SearchData more = new SearchData();
    for (int i = 20; i < 25; i++) {
      more.meeting("acme", "m" + i, "Meeting " + i, "2026-02-01T09:00:00Z", List.of(), null, "alpha bravo number" + i);
      more.meeting("beta", "b" + i, "Beta " + i, "2026-01-20T09:00:00Z", List.of(), null, "alpha bravo beta" + i);
    }
    more.importInto(store, dir);
    index.syncOnce();
    assertEquals(25, meetingsInIndex(), "acme's meetings only");

    try (org.apache.lucene.store.FSDirectory d = org.apache.lucene.store.FSDirectory.open(root.resolve(IndexDirs.current(root)));
        org.apache.lucene.index.DirectoryReader r = org.apache.lucene.index.DirectoryReader.open(d)) {
      assertTrue(r.leaves().size() >= 2, "the build's segment and the update's: " + r.leaves().size());
      for (org.apache.lucene.index.LeafReaderContext leaf : r.leaves()) {
        assertEquals(MeetingDocument.INDEX_ORDER, leaf.reader().getMetaData().sort(), "sorted: " + leaf);
        org.apache.lucene.index.NumericDocValues ws = leaf.reader().getNumericDocValues(MeetingDocument.WORKSPACE);
        List<Long> runs = new ArrayList<>();
        while (ws.nextDoc() != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS) {
          if (runs.isEmpty() || runs.getLast() != ws.longValue()) runs.add(ws.longValue());
        }
        assertEquals(runs.stream().distinct().toList(), runs, "one run per workspace in " + leaf);
      }
    }
  }

  /**
   * An index of another format (IndexFormat) is never opened: search answers as while building
   * (503), the sync thread rebuilds it from the database, then serves the new generation.
   */
  @ParameterizedTest
  @EnumSource(OtherFormat.class)
  void anIndexOfAnotherFormatIsRebuiltNotOpened(OtherFormat other) throws Exception {
    index = openLive();
    index.close();
    String old = IndexDirs.current(root);
    other.applyTo(root.resolve(old));
    assertThrows(IndexFormat.Other.class, () -> Generation.open(root, old).close());
    index = SearchIndex.open(root, db);
    assertFalse(index.ready(), "not served as it is");
    SearchUnavailable e = assertThrows(SearchUnavailable.class, () -> search(acme, "alpha"));
    assertEquals(SearchUnavailable.Reason.BUILDING, e.reason());
    assertRebuildingSince(other.differs());
    index.syncOnce(); // rebuilds
    assertNotEquals(old, IndexDirs.current(root));
    assertFalse(Files.exists(root.resolve(old)), "the old generation is deleted once replaced");
    index.syncOnce(); // opens the rebuilt one
    assertTrue(index.ready());
    assertEquals(20, meetingsInIndex());
    IndexFormat.check(root.resolve(IndexDirs.current(root))); // the rebuilt one records this code's format
  }

  /** An import while no server runs rebuilds an index of another format instead of failing on it. */
  @ParameterizedTest
  @EnumSource(value = OtherFormat.class, names = {"UNKNOWN_CODEC", "FORMAT_FILE_MISSING"})
  void importWithoutAServerRebuildsAnIndexOfAnotherFormat(OtherFormat other) throws Exception {
    index = openLive();
    index.close();
    index = null;
    String old = IndexDirs.current(root);
    other.applyTo(root.resolve(old));
    java.util.Map<String, String> env = new java.util.HashMap<>(testStore.env());
    env.put("MINUTES_INDEX_PATH", root.toString());
    Config config = Config.load(Files.createFile(dir.resolve("none.properties")), env);
    assertEquals("search index built (20 meetings)", IndexBuilds.updateAfterImport(config));
    assertNotEquals(old, IndexDirs.current(root));
  }

  /**
   * How the database runs ChangedSince.SQL. PostgreSQL scans a table this small whatever its
   * indexes, so there the question is whether the primary key can serve the range at all.
   */
  private String plan(Connection c, long seq) throws java.sql.SQLException {
    if (testStore.isPostgres()) {
      c.setAutoCommit(false);
      c.createStatement().execute("SET LOCAL enable_seqscan = off");
    }
    String explain = testStore.isPostgres() ? "EXPLAIN " : "EXPLAIN QUERY PLAN ";
    StringBuilder plan = new StringBuilder();
    try (var ps = c.prepareStatement(explain + minutes.store.ChangedSince.SQL)) {
      ps.setLong(1, seq);
      try (var rs = ps.executeQuery()) {
        while (rs.next()) plan.append(rs.getString(testStore.isPostgres() ? 1 : 4)).append('\n');
      }
    } finally {
      if (testStore.isPostgres()) c.rollback();
    }
    return plan.toString();
  }

  long meetingsInIndexOrZero() {
    try {
      return meetingsInIndex();
    } catch (Exception e) {
      return 0;
    }
  }
}
