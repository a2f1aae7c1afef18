package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import minutes.TestStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What /metrics says of an in-memory order (minutes_list_order_ready): ready once built, not
 * ready from the first request that sees a newer data version until the rebuild is done; and
 * that the older order is let go at that first request. Each
 * load waits for a permit, so that "while it is rebuilt" is a state the test holds, not a race.
 */
class DataSnapshotTest {
  @TempDir Path dir;

  @Test
  void readyOnceBuiltAndNotWhileARequestWaitsForANewerVersion() throws Exception {
    try (TestStore test = TestStore.create(dir)) {
      importMeeting(test.store()); // before opening: a SQLite file must exist
      check(test.store());
    }
  }

  private void check(Store store) throws Exception {
    try (Db db = Db.open(store, 2)) {
      Semaphore loads = new Semaphore(0); // one permit per load the test lets through
      try (DataSnapshot<Long> snapshot = new DataSnapshot<>(db, "test order", c -> {
        loads.acquireUninterruptibly();
        return Db.dataVersion(c);
      })) {
        assertFalse(snapshot.status().ready(), "nothing built yet");
        assertTrue(Double.isNaN(snapshot.status().lastBuildSeconds()));
        loads.release();
        snapshot.buildNow();
        long first = version(db);
        assertEquals(first, snapshot.at(first).orElseThrow());
        assertTrue(snapshot.status().ready());
        assertTrue(snapshot.status().lastBuildSeconds() >= 0);

        // An import, then a request that sees it: answered from SQL while the order is rebuilt.
        importMeeting(store);
        long second = version(db);
        assertTrue(second > first);
        assertTrue(snapshot.at(second).isEmpty(), "the held order is of the first version");
        assertFalse(snapshot.status().ready(), "a request saw a newer version than the one held");
        // Let go, so that the rebuild needs heap for one order, not two: a transaction from before
        // the import is answered from SQL too.
        assertTrue(snapshot.at(first).isEmpty(), "the order of the first version was let go");
        assertFalse(snapshot.status().ready(), "the newest version asked for still waits");

        loads.release(); // the rebuild the first miss started
        for (int i = 0; i < 400 && snapshot.at(second).isEmpty(); i++) Thread.sleep(25);
        assertEquals(second, snapshot.at(second).orElseThrow());
        assertTrue(snapshot.status().ready());
      }
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
