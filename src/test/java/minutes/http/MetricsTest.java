package minutes.http;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.MEETINGS;
import static minutes.Fixtures.M1;
import static minutes.Fixtures.M2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import minutes.ApiServer;
import minutes.RunsAlone;
import minutes.store.Importer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** GET /metrics: Prometheus text, requests by route template and status, index, database and JVM gauges; the key switch. */
@RunsAlone("it forces GCs, which pause every class beside it")
class MetricsTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  @RegisterExtension static final ApiServer locked = new ApiServer("/fixtures.ndjson", java.util.Map.of("MINUTES_METRICS_REQUIRE_KEY", "true"));

  @Test
  void requestsAreCountedByRouteTemplateAndStatusWithLatencyBuckets() {
    api.get("/api/v1/meetings/" + M1, ALL);
    api.get("/api/v1/meetings/" + M2, ALL);
    api.get("/api/v1/meetings/" + M1, null);
    api.get("/no/such/path", null);
    ApiServer.Response r = api.get("/metrics", null);
    assertEquals(200, r.status());
    assertEquals("text/plain; version=0.0.4; charset=utf-8", r.header("Content-Type"));
    String m = r.body();
    String ok = "{endpoint=\"/api/v1/meetings/{id}\",method=\"GET\",status=\"200\"}";
    assertTrue(ApiServer.metric(m, "minutes_http_requests_seconds_count" + ok) >= 2);
    assertTrue(ApiServer.metric(m, "minutes_http_requests_seconds_count{endpoint=\"/api/v1/meetings/{id}\",method=\"GET\",status=\"401\"}") >= 1);
    assertTrue(ApiServer.metric(m, "minutes_http_requests_seconds_count{endpoint=\"unmatched\",method=\"GET\",status=\"404\"}") >= 1);
    assertTrue(ApiServer.metric(m, "minutes_http_requests_seconds_bucket{endpoint=\"/api/v1/meetings/{id}\",method=\"GET\",status=\"200\",le=\"+Inf\"}") >= 2);
    assertTrue(m.contains("minutes_http_requests_seconds_bucket{endpoint=\"/api/v1/meetings/{id}\",method=\"GET\",status=\"200\",le=\"0.025\"}"));
    assertFalse(m.contains(M1) || m.contains("/no/such/path"), "raw paths never become labels");
  }

  @Test
  void indexDatabaseAndJvmGaugesHaveValues() {
    String m = api.get("/metrics", null).body();
    assertEquals(6, ApiServer.metric(m, "minutes_index_documents")); // the meetings of fixtures.ndjson
    assertEquals(0, ApiServer.metric(m, "minutes_index_deleted_documents")); // a first build holds nothing deleted
    assertTrue(ApiServer.metric(m, "minutes_index_size_bytes") > 0);
    assertEquals(0, ApiServer.metric(m, "minutes_index_lag_entries"));
    assertEquals(0, ApiServer.metric(m, "minutes_index_lag_seconds"));
    assertTrue(ApiServer.metric(m, "minutes_database_size_bytes") > 0);
    assertEquals(0, ApiServer.metric(m, "minutes_search_split_total")); // six small meetings: nothing costly
    assertTrue(m.contains("jvm_memory_used_bytes{area=\"heap\""));
  }

  @Test
  void indexGaugesFollowAnImportWhileServing() throws Exception {
    double before = ApiServer.metric(locked.get("/metrics", MEETINGS).body(), "minutes_index_documents");
    Path file = Files.createTempFile("minutes-metrics-", ".ndjson");
    try {
      Files.writeString(file, "{\"kind\":\"meeting\",\"workspace\":\"acme\",\"id\":\"" + UUID.randomUUID()
          + "\",\"title\":\"Metrics check\",\"platform\":\"zoom\",\"source\":\"calendar\",\"status\":\"ready\","
          + "\"created_at\":\"2026-03-01T12:00:00Z\"}\n");
      new Importer(locked.store(), Importer.Progress.NONE).run(List.of(file));
    } finally {
      Files.delete(file);
    }
    // The server applies the change within its poll interval; until then the lag gauges say so.
    String m = "";
    for (int i = 0; i < 100; i++) {
      m = locked.get("/metrics", MEETINGS).body();
      if (ApiServer.metric(m, "minutes_index_documents") == before + 1) break;
      assertTrue(ApiServer.metric(m, "minutes_index_lag_entries") <= 1, m);
      Thread.sleep(50);
    }
    assertEquals(before + 1, ApiServer.metric(m, "minutes_index_documents"));
    assertEquals(0, ApiServer.metric(m, "minutes_index_lag_entries"));
    assertEquals(0, ApiServer.metric(m, "minutes_index_lag_seconds"));
  }

  @Test
  void listOrdersSayWhetherTheyAreBuilt() throws Exception {
    // Built before the server listens: ready from its first answer on (DataSnapshotTest for the rest).
    for (String order : new String[] {"tasks", "meetings"}) {
      String ready = "minutes_list_order_ready{order=\"" + order + "\"}";
      String m = api.get("/metrics", null).body();
      assertEquals(1, ApiServer.metric(m, ready));
      assertTrue(ApiServer.metric(m, "minutes_list_order_build_seconds{order=\"" + order + "\"}") >= 0);
    }
  }

  /**
   * Counts read through a lambda keep moving after a garbage collection: Micrometer holds what
   * it counts weakly, and a lambda only it refers to would be collected, freezing the count.
   */
  @Test
  void countsReadThroughALambdaKeepMovingAfterAGarbageCollection(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    minutes.TestStore store = minutes.TestStore.create(dir);
    minutes.store.Migrations.migrate(store.store());
    minutes.store.Db db = minutes.store.Db.open(store.store(), 1);
    java.util.concurrent.atomic.AtomicLong n = new java.util.concurrent.atomic.AtomicLong(1);
    Metrics metrics = new Metrics(db, () -> null, n::get);
    try (HandlerServer server = new HandlerServer(metrics.endpoint())) {
      assertEquals(1, ApiServer.metric(scrape(server), "minutes_search_split_total"));
      // Until a collection has cleared weak references, as Micrometer's to what it counts.
      java.lang.ref.WeakReference<Object> probe = new java.lang.ref.WeakReference<>(new Object());
      for (int i = 0; i < 100 && probe.get() != null; i++) System.gc();
      assertNull(probe.get(), "no collection cleared a weak reference");
      n.set(5);
      String after = scrape(server);
      assertEquals(5, ApiServer.metric(after, "minutes_search_split_total"));
    } finally {
      db.close();
      store.close();
    }
  }

  private static String scrape(HandlerServer server) throws Exception {
    return server.get("/metrics", java.time.Duration.ofSeconds(10)).body();
  }

  @Test
  void withRequireKeyAnyValidKeyIsNeeded() {
    ApiServer.Response refused = locked.get("/metrics", null);
    assertEquals(401, refused.status());
    assertEquals("Bearer", refused.header("WWW-Authenticate"));
    assertEquals(401, locked.get("/metrics", ApiServer.REVOKED).status());
    assertEquals(200, locked.get("/metrics", MEETINGS).status());
  }
}
