package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** An import commits while the server answers: no failed request, and no answer sees half an import. */
class ImportWhileServingTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

  @Test
  void serverKeepsAnsweringAndSeesTheImportWholeOrNotAtAll() throws Exception {
    int added = 300;
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < added; i++) {
      String id = UUID.randomUUID().toString();
      lines.add("{\"kind\":\"meeting\",\"workspace\":\"acme\",\"id\":\"" + id + "\",\"title\":\"Bulk " + i
          + "\",\"platform\":\"zoom\",\"source\":\"calendar\",\"status\":\"ready\",\"starts_at\":\"2026-05-01T10:00:00Z\","
          + "\"created_at\":\"2026-04-01T10:00:00Z\",\"protocols\":[{\"id\":\"" + UUID.randomUUID()
          + "\",\"content_md\":\"x\",\"generated_at\":\"2026-05-01T11:00:00Z\",\"action_items\":[{\"id\":\"" + UUID.randomUUID()
          + "\",\"task\":\"Task " + i + "\",\"due\":\"2026-06-01\",\"verdict\":\"open\",\"status\":\"open\"}]}]}");
    }
    Path file = Files.createTempFile("bulk", ".ndjson");
    Files.write(file, lines);

    long tasksBefore = api.get("/api/v1/action-items", ApiServer.ALL).json().at("/pagination/total").asLong();
    long meetingsBefore = api.get("/api/v1/meetings", ApiServer.ALL).json().at("/pagination/total").asLong();
    Set<Long> totalsSeen = ConcurrentHashMap.newKeySet();
    AtomicInteger failures = new AtomicInteger();
    AtomicInteger requests = new AtomicInteger();
    AtomicBoolean importing = new AtomicBoolean(true);
    CountDownLatch answered = new CountDownLatch(1);
    // The reader runs as a Future: an exception or failed assertion in it fails the test at get().
    ExecutorService pool = Executors.newSingleThreadExecutor();
    Future<?> reader = pool.submit(() -> {
      while (importing.get()) {
        ApiServer.Response r = api.get("/api/v1/action-items?limit=5", ApiServer.ALL);
        requests.incrementAndGet();
        if (r.status() != 200) failures.incrementAndGet();
        else totalsSeen.add(r.json().at("/pagination/total").asLong());
        answered.countDown();
      }
    });
    // The reader must straddle the import: answered once before it starts, and asked again after
    // it ends. A reader that ran wholly before or after the import would check nothing.
    try {
      assertTrue(answered.await(30, TimeUnit.SECONDS), "the reader answered before the import");
      new Importer(api.store(), Importer.Progress.NONE).run(List.of(file));
      // The request after the next one was sent after the import ended.
      int after = requests.get() + 2;
      for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
          requests.get() < after && !reader.isDone() && System.nanoTime() < deadline; ) {
        Thread.sleep(10);
      }
    } finally {
      importing.set(false);
      try {
        reader.get(30, TimeUnit.SECONDS);
      } finally {
        pool.shutdownNow();
        Files.delete(file);
      }
    }
    assertEquals(0, failures.get(), "failed requests out of " + requests.get());
    assertTrue(requests.get() > 0);
    assertEquals(Set.of(tasksBefore, tasksBefore + added), totalsSeen, "the totals before and after, nothing between");
    assertEquals(tasksBefore + added, api.get("/api/v1/action-items", ApiServer.ALL).json().at("/pagination/total").asLong());
    // Totals are remembered per data version: the import's version must not answer the old one.
    assertEquals(meetingsBefore + added, api.get("/api/v1/meetings", ApiServer.ALL).json().at("/pagination/total").asLong());
  }
}
