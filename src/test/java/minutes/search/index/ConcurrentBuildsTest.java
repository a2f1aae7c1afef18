package minutes.search.index;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import minutes.TestStore;
import minutes.search.SearchData;
import minutes.store.Db;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Full builds of one index folder at the same time, as an import's and a running server's (or
 * a reindex's) are: each build's clean-up leaves the other's generation alone, every build
 * succeeds, and CURRENT names a whole generation afterwards. An import's build once found its
 * new generation deleted by a server's clean-up (ChangeStreamTest, 2026-12-06): a build was
 * unlocked between its commit and CURRENT naming it.
 */
class ConcurrentBuildsTest {
  static final int MEETINGS = 12, ROUNDS = 20;

  @TempDir Path dir;

  /** A migrated store of the run's kind holding {@link #MEETINGS} meetings of one workspace. */
  private TestStore withMeetings() throws Exception {
    SearchData data = new SearchData().workspace("acme", "ann@acme.com");
    for (int i = 0; i < MEETINGS; i++) {
      data.meeting("acme", "m" + i, "Meeting " + i, "2026-02-01T09:00:00Z", List.of("ann@acme.com"), null, "alpha " + i);
    }
    TestStore testStore = TestStore.createMigrated(dir);
    try {
      data.importInto(testStore.store(), dir);
      return testStore;
    } catch (Exception e) {
      testStore.close();
      throw e;
    }
  }

  @Test
  void twoBuildsAtOnceNeitherDeletesTheOthers() throws Exception {
    Path root = dir.resolve("index");
    try (TestStore testStore = withMeetings(); ExecutorService two = Executors.newFixedThreadPool(2)) {
      for (int round = 0; round < ROUNDS; round++) {
        CyclicBarrier together = new CyclicBarrier(2);
        List<Future<IndexBuilds.Built>> builds = new ArrayList<>();
        for (int b = 0; b < 2; b++) {
          builds.add(two.submit(() -> {
            try (Db db = Db.open(testStore.store(), 1)) { // each as its own process would
              together.await(30, TimeUnit.SECONDS); // a build that failed to start fails the other, not hangs it
              return IndexBuilds.rebuild(root, db, 1, BuildProgress.NONE);
            }
          }));
        }
        for (Future<IndexBuilds.Built> b : builds) assertEquals(MEETINGS, b.get().meetings(), "round " + round);
        String live = IndexDirs.current(root);
        assertNotNull(live, "round " + round + ": CURRENT names a generation that exists");
        try (Generation g = Generation.open(root, live)) {
          assertEquals(MEETINGS, g.numDocs(), "round " + round);
        }
      }
    }
  }

  /**
   * A server read CURRENT, then two builds of other processes replaced the generation it named
   * and deleted it before the server opened it: the server opens the newest one and builds
   * nothing, where it once took the missing files for damage and rebuilt the whole index.
   */
  @Test
  void aGenerationReplacedAfterCurrentWasReadIsNotTakenForDamage() throws Exception {
    Path root = dir.resolve("index");
    try (TestStore testStore = withMeetings()) {
      try (Db db = Db.open(testStore.store(), 2)) {
        IndexBuilds.rebuild(root, db, 1, BuildProgress.NONE);
        try (SearchIndex server = SearchIndex.open(root, db)) {
          String served = IndexDirs.current(root);
          String readByServer = IndexBuilds.rebuild(root, db, 1, BuildProgress.NONE).name();
          String newest = IndexBuilds.rebuild(root, db, 1, BuildProgress.NONE).name();
          assertFalse(Files.exists(root.resolve(readByServer).resolve("minutes-format")), "deleted, nobody held it");
          assertTrue(IndexDirs.superseded(root, readByServer));
          assertFalse(IndexDirs.superseded(root, newest));

          server.switchTo(readByServer);
          assertEquals(newest, IndexDirs.current(root), "no rebuild named a generation of its own");
          assertTrue(server.ready(), "still answering from " + served);
          server.syncOnce();
          try (Stream<Path> dirs = Files.list(root)) {
            assertEquals(List.of(newest), dirs.map(d -> d.getFileName().toString()).filter(n -> n.startsWith("gen-")).toList());
          }
        }
      }
    }
  }
}
