package minutes.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import minutes.ApiServer;
import minutes.RunsAlone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * More concurrent requests than pooled connections, for longer than the schema re-read
 * interval: a request must never wait for a second connection while holding one.
 */
@RunsAlone("each answer must come within 5 s under 16 clients, with the default 50 ms queue wait")
class ConcurrencyTest {
  // Thousands of requests with one key within seconds: above the per-key rate limit, and 16
  // clients on 4 requests in flight queue past http.max_queue_wait_ms on a busy 2-core machine
  // (a clean 503 by design). This test is about connections, not those limits (RateLimitApiTest
  // and LoadSheddingTest are), so both are off here.
  @RegisterExtension static final ApiServer api = new ApiServer("/fixtures.ndjson",
      java.util.Map.of("MINUTES_HTTP_RATE_LIMIT_PER_MINUTE", "0", "MINUTES_HTTP_MAX_QUEUE_WAIT_MS", "0"));
  /** One pooled connection: a request that asks for a second one while holding it waits forever (deterministically). */
  @RegisterExtension static final ApiServer single =
      new ApiServer("/fixtures.ndjson", java.util.Map.of("MINUTES_DB_POOL_SIZE", "1", "MINUTES_METRICS_REQUIRE_KEY", "true",
          "MINUTES_HTTP_RATE_LIMIT_PER_MINUTE", "0"));

  private static final List<String> EVERY_ENDPOINT = List.of("/healthz", "/metrics", "/api/v1/meetings",
      "/api/v1/meetings/" + minutes.Fixtures.M1, "/api/v1/meetings/" + minutes.Fixtures.M1 + "/participants",
      "/api/v1/meetings/" + minutes.Fixtures.M1 + "/action-items", "/api/v1/action-items", "/api/v1/customers",
      "/api/v1/meetings/" + minutes.Fixtures.M1 + "/transcript", "/api/v1/search?q=budget");

  @Test
  void noRequestHoldsOneConnectionWhileTakingAnother() throws Exception {
    // Past the schema re-read interval (1 s), so that the schema check reads the database too.
    long until = System.nanoTime() + 1_500_000_000L;
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<String>> results = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        results.add(pool.submit(() -> {
          while (System.nanoTime() < until) {
            for (String path : EVERY_ENDPOINT) {
              long t = System.nanoTime();
              int status = single.get(path, ApiServer.ALL).status();
              long ms = (System.nanoTime() - t) / 1_000_000;
              if (status != 200 || ms > 5_000) return path + " answered " + status + " after " + ms + " ms";
            }
          }
          return "ok";
        }));
      }
      for (Future<String> f : results) assertEquals("ok", f.get());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void moreConcurrentRequestsThanConnectionsAllSucceedQuickly() throws Exception {
    int clients = 16;
    long until = System.nanoTime() + 2_500_000_000L;
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<long[]>> results = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        String path = i % 2 == 0 ? "/api/v1/action-items" : "/api/v1/meetings";
        results.add(pool.submit(() -> {
          long count = 0, slowestMs = 0, failed = 0;
          while (System.nanoTime() < until) {
            long t = System.nanoTime();
            int status = api.get(path, ApiServer.ALL).status();
            if (status != 200) {
              failed++;
              System.err.println(path + " answered " + status);
            }
            slowestMs = Math.max(slowestMs, (System.nanoTime() - t) / 1_000_000);
            count++;
          }
          return new long[] {count, slowestMs, failed};
        }));
      }
      for (Future<long[]> f : results) {
        long[] r = f.get();
        assertTrue(r[0] > 0);
        assertEquals(0, r[2], "failed requests");
        assertTrue(r[1] < 5_000, "a request took " + r[1] + " ms");
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
