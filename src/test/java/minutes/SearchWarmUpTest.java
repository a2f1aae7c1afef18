package minutes;

import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * search.warmup_ms through the real server: with it, the server has run searches on itself
 * before it listens (counted in /metrics), and they are no client's requests: not in the
 * request metrics, not against any key's rate limit. Without it (the suite's default) none run.
 */
@RunsAlone("a 400 ms warm-up must still run a search")
class SearchWarmUpTest {
  @RegisterExtension
  static final ApiServer warmed = new ApiServer("/transcripts.ndjson",
      Map.of("MINUTES_SEARCH_WARMUP_MS", "400", "MINUTES_HTTP_RATE_LIMIT_PER_MINUTE", "2"));
  @RegisterExtension
  static final ApiServer cold = new ApiServer("/transcripts.ndjson");

  @Test
  void aWarmedServerRanSearchesBeforeListeningThatNoClientSent() {
    String metrics = warmed.get("/metrics", null).body();
    assertTrue(ApiServer.metric(metrics, "minutes_search_warmup_searches") > 0, "the warm-up ran no search");
    assertFalse(metrics.contains("endpoint=\"/api/v1/search\""), "the warm-up's searches were counted as requests");
    // A limit of 2 a minute, yet the key's first two searches pass: the warm-up took none of its quota.
    assertEquals(200, warmed.get("/api/v1/search?q=remote", ALL).status());
    assertEquals(200, warmed.get("/api/v1/search?q=remote", ALL).status());
    assertEquals(429, warmed.get("/api/v1/search?q=remote", ALL).status());
  }

  @Test
  void withoutTheSettingNoSearchRuns() {
    assertEquals(0, cold.metric("minutes_search_warmup_searches"));
  }
}
