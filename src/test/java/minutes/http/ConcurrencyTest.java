package minutes.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * More concurrent requests than pooled connections, for longer than the schema re-read
 * interval: a request must never wait for a second connection while holding one.
 */
class ConcurrencyTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

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
            if (api.get(path, ApiServer.ALL).status() != 200) failed++;
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
