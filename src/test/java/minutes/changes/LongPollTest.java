package minutes.changes;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.TestLines.meeting;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import minutes.ApiServer;
import minutes.CliRun;
import minutes.RunsAlone;
import minutes.TestLines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * GET /api/v1/changes with {@code wait} (decisions.md "Push") on the real server, on the run's
 * store: held until a change the key may see commits or the wait is over, then the answer of
 * /changes; held requests outside http.max_in_flight (which is 1 here) and bounded by
 * changes.max_waiting (3 here).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@RunsAlone("held polls answer within 1 s and stay held for 3 s, on one request in flight")
class LongPollTest {
  @RegisterExtension static final ApiServer api = new ApiServer("/fixtures.ndjson", Map.of(
      "MINUTES_HTTP_MAX_IN_FLIGHT", "1", "MINUTES_HTTP_MAX_QUEUED", "1", "MINUTES_CHANGES_MAX_WAITING", "3"));
  private static final ExecutorService clients = Executors.newCachedThreadPool();

  @AfterAll
  static void stopClients() {
    clients.shutdownNow();
  }

  private static CompletableFuture<ApiServer.Response> poll(String key, String cursor, int wait) {
    return CompletableFuture.supplyAsync(() -> api.get("/api/v1/changes?since=" + cursor + "&wait=" + wait, key), clients);
  }

  /** Waits (bounded) until the server holds this many long-polls. */
  private static void awaitHeld(int n) throws InterruptedException {
    for (int i = 0; i < 500 && api.metric("minutes_changes_waiting") != n; i++) Thread.sleep(10);
    assertEquals(n, api.metric("minutes_changes_waiting"), "held long-polls");
  }

  @Test
  void waitThatIsNotAnIntegerIs400NamingWaitAndOutOfRangeIsClamped() {
    String cursor = api.cursor(ALL);
    for (String wait : List.of("x", "1.5", "", "1e3")) {
      ApiServer.Response r = api.get("/api/v1/changes?since=" + cursor + "&wait=" + wait, ALL);
      assertEquals(400, r.status(), wait);
      assertEquals("invalid_parameter", r.json().at("/error/code").asText());
      assertEquals("wait", r.json().at("/error/field").asText());
    }
    long started = System.nanoTime();
    ApiServer.Response below = api.get("/api/v1/changes?since=" + cursor + "&wait=-5", ALL);
    assertEquals(200, below.status());
    assertTrue(System.nanoTime() - started < 1_000_000_000L, "wait below 0 is 0: answered at once");
    ApiServer.Response noSince = api.get("/api/v1/changes?wait=60", ALL);
    assertEquals(200, noSince.status(), "without since there is nothing to wait for: the cursor for now, at once");
  }

  @Test
  void aHeldRequestAnswersWhenAnImportCommitsAChangeItCanSee() throws Exception {
    String id = new UUID(47, 1).toString();
    String cursor = api.cursor(ALL);
    CompletableFuture<ApiServer.Response> held = poll(ALL, cursor, 30);
    awaitHeld(1);
    assertFalse(held.isDone());
    long imported = System.nanoTime();
    importLines(meeting(id, "zqlongpoll", "ann@acme.com"));
    ApiServer.Response r = held.get(10, TimeUnit.SECONDS);
    long tookMs = (System.nanoTime() - imported) / 1_000_000;
    assertEquals(200, r.status(), r.body());
    assertEquals(List.of(id), ApiServer.column(r.json(), "meeting_id"));
    // Exactly what /changes answers now, field by field.
    assertEquals(api.get("/api/v1/changes?since=" + cursor, ALL).body(), r.body());
    assertTrue(tookMs < 5000, "woken " + tookMs + " ms after the import returned");
  }

  @Test
  void aChangeTheKeyCannotSeeDoesNotEndItsWait() throws Exception {
    String annOnly = new UUID(47, 2).toString();
    String bob = api.cursor(BOB), ann = api.cursor(ANN);
    long started = System.nanoTime();
    CompletableFuture<ApiServer.Response> bobs = poll(BOB, bob, 2);
    CompletableFuture<ApiServer.Response> anns = poll(ANN, ann, 30);
    awaitHeld(2);
    importLines(meeting(annOnly, "zqannonly", "ann@acme.com"));
    assertEquals(List.of(annOnly), ApiServer.column(anns.get(10, TimeUnit.SECONDS).json(), "meeting_id"));
    ApiServer.Response r = bobs.get(10, TimeUnit.SECONDS);
    assertEquals(0, r.json().get("data").size(), r.body());
    assertFalse(r.body().contains(annOnly));
    assertTrue(System.nanoTime() - started >= 2_000_000_000L, "bob waited his 2 s out");
    assertEquals(r.json().get("next_cursor").asText(), api.cursor(BOB), "and is told where the feed is now");
  }

  @Test
  void heldRequestsTakeNoPlaceOfMaxInFlightAndBeyondMaxWaitingAre503() throws Exception {
    List<CompletableFuture<ApiServer.Response>> held = new ArrayList<>();
    String cursor = api.cursor(ALL);
    for (int i = 0; i < 3; i++) held.add(poll(ALL, cursor, 3));
    awaitHeld(3);
    // http.max_in_flight is 1 and max_queued 1: three held requests inside it would shed these.
    for (int i = 0; i < 3; i++) assertEquals(200, api.get("/api/v1/meetings", ALL).status());
    ApiServer.Response beyond = api.get("/api/v1/changes?since=" + cursor + "&wait=3", ALL);
    assertEquals(503, beyond.status(), beyond.body());
    assertEquals("unavailable", beyond.json().at("/error/code").asText());
    assertTrue(Integer.parseInt(beyond.header("Retry-After")) > 0);
    for (CompletableFuture<ApiServer.Response> f : held) assertEquals(200, f.get(10, TimeUnit.SECONDS).status());
  }

  private static void importLines(String... lines) {
    CliRun r = api.cli("import", TestLines.file(api.dir(), lines).toString());
    assertEquals(0, r.code(), r.err());
  }
}
