package minutes.http;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.BOB;
import static minutes.ApiServer.TASKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import minutes.ApiServer;
import minutes.RunsAlone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The per-key rate limit over the real server (decisions.md "Rate limits and overload"): the
 * headers on every keyed answer, 429 with its body and Retry-After once a key's quota is spent,
 * other keys untouched, unauthenticated requests not counted, 0 turning it off.
 */
@RunsAlone("two requests must fall within the same second of the rate window")
class RateLimitApiTest {
  // Two requests a minute: the third in a row is over, and the next one comes back only after 30 s.
  @RegisterExtension static final ApiServer tight =
      new ApiServer("/fixtures.ndjson", Map.of("MINUTES_HTTP_RATE_LIMIT_PER_MINUTE", "2"));
  @RegisterExtension static final ApiServer standard = new ApiServer();
  @RegisterExtension static final ApiServer off =
      new ApiServer("/fixtures.ndjson", Map.of("MINUTES_HTTP_RATE_LIMIT_PER_MINUTE", "0"));

  @Test
  void everyKeyedAnswerCarriesThePolicyAndWhatIsLeft() {
    ApiServer.Response r = standard.get("/api/v1/meetings", ALL);
    assertEquals(200, r.status());
    assertEquals("\"per-key\";q=3000;w=60", r.header("RateLimit-Policy"));
    assertTrue(r.header("RateLimit").matches("\"per-key\";r=29\\d\\d;t=\\d+"), r.header("RateLimit"));
    // Errors after the key was recognised count and say so too.
    ApiServer.Response forbidden = standard.get("/api/v1/meetings", TASKS);
    assertEquals(403, forbidden.status());
    assertEquals("\"per-key\";q=3000;w=60", forbidden.header("RateLimit-Policy"));
    ApiServer.Response bad = standard.get("/api/v1/meetings?limit=x", ALL);
    assertEquals(400, bad.status());
    assertTrue(bad.header("RateLimit").startsWith("\"per-key\";r="), bad.header("RateLimit"));
  }

  @Test
  void overTheLimitIs429WithRetryAfterAndOtherKeysGoOn() {
    ApiServer.Response first = tight.get("/api/v1/meetings", ALL);
    assertEquals(200, first.status());
    assertEquals("\"per-key\";q=2;w=60", first.header("RateLimit-Policy"));
    assertEquals("\"per-key\";r=1;t=30", first.header("RateLimit"));
    ApiServer.Response second = tight.get("/api/v1/customers", ALL);
    assertEquals(200, second.status());
    assertEquals("\"per-key\";r=0;t=60", second.header("RateLimit"));

    ApiServer.Response refused = tight.get("/api/v1/meetings", ALL);
    ErrorShapeTest.assertErrorShape(refused, 429, "rate_limited");
    assertTrue(refused.json().at("/error/field").isNull());
    int retryAfter = Integer.parseInt(refused.header("Retry-After"));
    assertTrue(retryAfter >= 1 && retryAfter <= 30, "the next request is at most 30 s away: " + retryAfter);
    assertEquals("\"per-key\";q=2;w=60", refused.header("RateLimit-Policy"));
    assertTrue(refused.header("RateLimit").startsWith("\"per-key\";r=0;t="), refused.header("RateLimit"));
    assertEquals("private, no-store", refused.header("Cache-Control"));
    // Checked right after the key: a key over its limit learns nothing more, not even a 403.
    ErrorShapeTest.assertErrorShape(tight.get("/api/v1/meetings?limit=x", ALL), 429, "rate_limited");

    // Another key of the same workspace has its own quota.
    ApiServer.Response other = tight.get("/api/v1/meetings", BOB);
    assertEquals(200, other.status());
    assertEquals("\"per-key\";r=1;t=30", other.header("RateLimit"));
  }

  @Test
  void mcpCallsCountAgainstTheSameQuotaAsRest() {
    // ANN's quota of two: one REST request, one MCP call, then both ways are over.
    assertEquals(200, tight.get("/api/v1/meetings", ApiServer.ANN).status());
    String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
    Map<String, String> headers = Map.of("Content-Type", "application/json",
        "Accept", "application/json, text/event-stream", "Authorization", "Bearer " + tight.key(ApiServer.ANN));
    ApiServer.Response mcp = tight.post("/mcp", headers, ping);
    assertEquals(200, mcp.status(), mcp.body());
    assertEquals("\"per-key\";r=0;t=60", mcp.header("RateLimit"));
    ErrorShapeTest.assertErrorShape(tight.post("/mcp", headers, ping), 429, "rate_limited");
    ErrorShapeTest.assertErrorShape(tight.get("/api/v1/meetings", ApiServer.ANN), 429, "rate_limited");
  }

  @Test
  void requestsWithoutAValidKeyAreNotCountedAndCarryNoRateLimitHeaders() {
    for (int i = 0; i < 5; i++) {
      ApiServer.Response r = tight.get("/api/v1/meetings", ApiServer.REVOKED);
      ErrorShapeTest.assertErrorShape(r, 401, "unauthorized");
      assertNull(r.header("RateLimit-Policy"));
      assertNull(r.header("RateLimit"));
    }
    ApiServer.Response open = tight.get("/healthz", null);
    assertEquals(200, open.status());
    assertNull(open.header("RateLimit"));
  }

  @Test
  void zeroTurnsTheLimitOff() {
    for (int i = 0; i < 5; i++) {
      ApiServer.Response r = off.get("/api/v1/meetings", ALL);
      assertEquals(200, r.status());
      assertNull(r.header("RateLimit-Policy"));
      assertNull(r.header("RateLimit"));
    }
  }
}
