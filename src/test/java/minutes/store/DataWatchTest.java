package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import minutes.RunsAlone;
import minutes.TestStore;
import minutes.keys.ApiKeys;
import minutes.keys.Scope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DataWatch} on the run's store against the database itself: on SQLite it never claims
 * to know (each request asks); on PostgreSQL it knows only once migration V8's triggers exist,
 * its version is the database's {@link Db#dataVersion} soon after every import, and its keys'
 * epoch rises when a key is revoked, created or deleted, or a workspace's domains change,
 * whichever connection wrote it, each within {@link DataWatch#TRUST_MILLIS}.
 */
@RunsAlone("a revoked key is refused within 1 s")
class DataWatchTest {
  @TempDir Path dir;

  @Test
  void hearsEveryImportAndKeyChangeOnPostgresAndNothingOnSqlite() throws Exception {
    try (TestStore test = TestStore.create(dir)) {
      Store store = test.store();
      Migrations.migrateTo(store, "7");
      try (DataWatch watch = store.watch()) {
        Thread.sleep(3 * DataWatch.POLL_MILLIS);
        assertEquals(Optional.empty(), watch.now(), "before V8 each request asks");
        Migrations.migrate(store);
        if (!test.isPostgres()) {
          Thread.sleep(3 * DataWatch.POLL_MILLIS);
          assertEquals(Optional.empty(), watch.now(), "SQLite: each request asks, always");
          return;
        }
        DataWatch.View first = await(watch, v -> v.dataVersion() == 0);

        DataWatch.View imported = importAndAwait(store, watch, "fixtures.ndjson", first);
        assertTrue(imported.dataVersion() > 0, imported.toString());
        String key;
        try (Connection c = store.write()) {
          key = ApiKeys.create(c, "acme", Set.of(Scope.MEETINGS_READ), null, "watched").id();
        }
        DataWatch.View created = await(watch, v -> v.keysEpoch() > imported.keysEpoch());
        try (Connection c = store.write()) {
          assertTrue(ApiKeys.revoke(c, key));
        }
        DataWatch.View revoked = await(watch, v -> v.keysEpoch() > created.keysEpoch());
        assertEquals(imported.dataVersion(), revoked.dataVersion(), "a key is no data");

        Path domains = Files.writeString(dir.resolve("domains.ndjson"),
            "{\"kind\":\"workspace\",\"slug\":\"acme\",\"name\":\"Acme\",\"domains\":[\"acme.com\",\"acme.test\"]}\n");
        importAndAwait(store, watch, domains.toString(), revoked);
      }
    }
  }

  /** Imports {@code file} (a test resource by name, or a path) and waits until the watch has heard it. */
  private DataWatch.View importAndAwait(Store store, DataWatch watch, String file, DataWatch.View before) throws Exception {
    Path path = file.contains("/") ? Path.of(file) : dir.resolve(file);
    if (!Files.exists(path)) {
      try (var in = DataWatchTest.class.getResourceAsStream("/" + file)) {
        Files.copy(in, path);
      }
    }
    new Importer(store, Importer.Progress.NONE).run(List.of(path));
    long version;
    try (Connection c = store.write()) {
      version = Db.dataVersion(c);
    }
    return await(watch, v -> v.dataVersion() == version && v.keysEpoch() > before.keysEpoch());
  }

  /** The watch's first view that {@code heard} accepts; it must come within TRUST_MILLIS. */
  private static DataWatch.View await(DataWatch watch, Predicate<DataWatch.View> heard) throws InterruptedException {
    long start = System.nanoTime();
    Optional<DataWatch.View> now = watch.now();
    while (now.filter(heard).isEmpty() && System.nanoTime() - start < 10_000_000_000L) {
      Thread.sleep(2);
      now = watch.now();
    }
    long took = (System.nanoTime() - start) / 1_000_000;
    assertTrue(now.filter(heard).isPresent(), "not heard within 10 s: " + now);
    assertTrue(took <= DataWatch.TRUST_MILLIS, "heard after " + took + " ms");
    return now.get();
  }
}
