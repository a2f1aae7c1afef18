package minutes.changes;

import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import minutes.ApiServer;
import minutes.RunsAlone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A stopping server answers held long-polls at once (decisions.md "Push"), with the page they
 * would get at the end of their wait, instead of holding its stop for http.shutdown_seconds.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@RunsAlone("the server stops within 3 s while requests are held")
class HeldAtStopTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

  @Test
  void heldRequestsAreAnsweredAtOnceWhenTheServerStops() throws Exception {
    String cursor = api.cursor(ALL);
    CompletableFuture<ApiServer.Response> held =
        CompletableFuture.supplyAsync(() -> api.get("/api/v1/changes?since=" + cursor + "&wait=60", ALL));
    for (int i = 0; i < 500 && api.metric("minutes_changes_waiting") != 1; i++) Thread.sleep(10);
    assertEquals(1, api.metric("minutes_changes_waiting"));
    long stopping = System.nanoTime();
    api.stopServer();
    ApiServer.Response r = held.get(10, TimeUnit.SECONDS);
    long tookMs = (System.nanoTime() - stopping) / 1_000_000;
    assertEquals(200, r.status(), r.body());
    assertEquals(0, r.json().get("data").size());
    assertEquals(cursor, r.json().get("next_cursor").asText());
    assertTrue(tookMs < 3000, "answered " + tookMs + " ms after the stop began (shutdown_seconds is 10)");
  }
}
