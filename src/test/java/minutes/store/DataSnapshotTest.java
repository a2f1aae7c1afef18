package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import minutes.TestStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract of an in-memory order: a caller gets the value of its version or a newer one,
 * never an older one, waiting for the rebuild when it must; the watch's news of a newer version
 * lets the older value go and starts the rebuild; a failed build fails its waiters; a version
 * newer than the database's own (none such in the server) does not hold a caller forever; and
 * what /metrics says (minutes_list_order_ready). Each load waits for a permit, so that "while
 * it is rebuilt" is a state the test holds, not a race.
 */
class DataSnapshotTest {
  @TempDir Path dir;

  @Test
  void aCallerGetsItsVersionOrANewerOneWaitingForTheRebuild() throws Exception {
    try (TestStore test = TestStore.createMigrated(dir)) {
      importMeeting(test.store()); // before opening: a SQLite file must exist
      check(test.store());
    }
  }

  private void check(Store store) throws Exception {
    ExecutorService callers = Executors.newCachedThreadPool();
    try (Db db = Db.open(store, 2)) {
      Semaphore loads = new Semaphore(0); // one permit per load the test lets through
      Semaphore entered = new Semaphore(0); // a permit per load that has read its version
      AtomicBoolean fail = new AtomicBoolean();
      try (DataSnapshot<Long> snapshot = new DataSnapshot<>(db, "test order", c -> {
        entered.release();
        loads.acquireUninterruptibly();
        if (fail.get()) throw new SQLException("test: the build fails");
        return Db.dataVersion(c);
      })) {
        assertFalse(snapshot.status().ready(), "nothing built yet");
        assertTrue(Double.isNaN(snapshot.status().lastBuildSeconds()));
        loads.release();
        snapshot.build();
        long first = version(db);
        assertEquals(new DataSnapshot.Held<>(first, first), snapshot.at(first));
        assertTrue(snapshot.status().ready());
        assertTrue(snapshot.status().lastBuildSeconds() >= 0);

        // An import; the watch tells of it: the first value is let go, so that the rebuild
        // needs heap for one value, not two, and a caller of either version waits for it.
        importMeeting(store);
        long second = version(db);
        assertTrue(second > first);
        snapshot.changed(second);
        assertFalse(snapshot.status().ready(), "the first value was let go");
        Future<DataSnapshot.Held<Long>> ofSecond = callers.submit(() -> snapshot.at(second));
        Future<DataSnapshot.Held<Long>> ofFirst = callers.submit(() -> snapshot.at(first));
        // The rebuild holds until its permit: neither caller can have an answer yet.
        assertFalse(ofSecond.isDone(), "the rebuild is held");
        assertFalse(ofFirst.isDone(), "a transaction older than the import waits too, never gets the first value");
        loads.release();
        assertEquals(new DataSnapshot.Held<>(second, second), ofSecond.get(30, TimeUnit.SECONDS));
        assertEquals(new DataSnapshot.Held<>(second, second), ofFirst.get(30, TimeUnit.SECONDS),
            "the newer value, not the one of the older transaction");
        assertTrue(snapshot.status().ready());

        // A failed build fails the caller that waited for it; the next caller builds again.
        importMeeting(store);
        long third = version(db);
        fail.set(true);
        loads.release();
        SQLException failed = assertThrows(SQLException.class, () -> snapshot.at(third));
        assertEquals("test: the build fails", failed.getMessage());
        fail.set(false);
        loads.release();
        assertEquals(third, snapshot.at(third).version());

        // A version the database does not have (none such reaches it in the server): two builds,
        // then the newest value, instead of waiting forever.
        loads.release(2);
        assertEquals(new DataSnapshot.Held<>(third, third), snapshot.at(third + 1));

        // The watch tells of an import while a build that began before it runs: the next build
        // starts when that one ends, with no request asking.
        entered.drainPermits();
        importMeeting(store);
        long fourth = version(db);
        snapshot.changed(fourth);
        entered.acquire(); // the build has read the fourth version and waits in the loader
        importMeeting(store);
        long fifth = version(db);
        snapshot.changed(fifth);
        loads.release();
        assertTrue(entered.tryAcquire(30, TimeUnit.SECONDS), "a build of the fifth version started by itself");
        assertFalse(snapshot.status().ready(), "the fourth version's value was let go");
        loads.release();
        assertEquals(new DataSnapshot.Held<>(fifth, fifth), snapshot.at(fifth));
      }
    } finally {
      callers.shutdownNow();
    }
  }

  private static long version(Db db) throws Exception {
    try (Connection c = db.read()) {
      return Db.dataVersion(c);
    }
  }

  private void importMeeting(Store store) throws Exception {
    Path file = Files.createTempFile(dir, "meeting-", ".ndjson");
    Files.writeString(file, "{\"kind\":\"workspace\",\"slug\":\"w\",\"name\":\"W\"}\n"
        + "{\"kind\":\"meeting\",\"workspace\":\"w\",\"id\":\"" + UUID.randomUUID() + "\",\"title\":\"T\",\"platform\":\"zoom\","
        + "\"source\":\"calendar\",\"status\":\"ready\",\"created_at\":\"2026-03-01T12:00:00Z\"}\n");
    new Importer(store, Importer.Progress.NONE).run(List.of(file));
  }
}
