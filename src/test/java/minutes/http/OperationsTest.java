package minutes.http;

import static minutes.ApiServer.ALL;
import static minutes.Fixtures.M1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.ApiServer;
import minutes.OpenApiCheck;
import minutes.RunsAlone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What every answer carries for operators and clients: request id, one access-log line,
 * gzip, ETag and 304, Cache-Control, HEAD; and the OpenAPI document and docs page themselves.
 */
@RunsAlone("it replaces System.err and reads every line written there")
class OperationsTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  /** The same server with the operator's choices: its own Cache-Control, search terms in the log. */
  @RegisterExtension static final ApiServer tuned = new ApiServer("/fixtures.ndjson",
      Map.of("MINUTES_HTTP_CACHE_CONTROL", "private, max-age=60", "MINUTES_LOG_QUERY_TEXT", "true"));

  private static final Pattern UUID_SHAPE = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  /** Every route the server has, as documented. */
  static final List<String> ROUTES = List.of("/api/v1/meetings", "/api/v1/meetings/{id}",
      "/api/v1/meetings/{id}/participants", "/api/v1/meetings/{id}/action-items", "/api/v1/action-items",
      "/api/v1/search", "/api/v1/customers", "/api/v1/changes", "/api/v1/meetings/{id}/transcript",
      "/api/v1/meetings/{id}/transcript/search", "/healthz", "/metrics",
      "/api/v1/openapi.json", "/docs", "/docs/{file}");

  private Map<String, String> auth(String... more) {
    Map<String, String> h = new java.util.HashMap<>(Map.of("Authorization", "Bearer " + api.key(ALL)));
    for (int i = 0; i < more.length; i += 2) h.put(more[i], more[i + 1]);
    return h;
  }

  @Test
  void requestIdIsEchoedWhenSaneElseGenerated() {
    assertTrue(UUID_SHAPE.matcher(api.get("/api/v1/meetings", ALL).header("X-Request-Id")).matches());
    assertEquals("trace-42.a:b", api.send("GET", "/api/v1/meetings", auth("X-Request-Id", "trace-42.a:b")).header("X-Request-Id"));
    for (String bad : List.of("has space", "x".repeat(129), "quote\"d", "semi;colon")) {
      String echoed = api.send("GET", "/nowhere", Map.of("X-Request-Id", bad)).header("X-Request-Id");
      assertTrue(UUID_SHAPE.matcher(echoed).matches(), bad + " -> " + echoed);
    }
  }

  @Test
  void accessLogWritesOneLinePerRequestWithKeyIdButNeverTheKeyOrSearchText() throws Exception {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      api.send("GET", "/api/v1/search?limit=5&q=Quarterly%20planning", auth("X-Request-Id", "log-test-1"));
      api.send("GET", "/api/v1/meetings", Map.of("Authorization", "Bearer " + api.key(ALL) + "x", "X-Request-Id", "log-test-2"));
      // A key pasted into the path, the query or the request id is neither logged nor echoed.
      String key = api.key(ApiServer.MEETINGS);
      ApiServer.Response pasted = api.send("GET", "/x/" + key + "?limit=2&access_token=" + key + "&t=%6Dk_" + key.substring(3),
          Map.of("X-Request-Id", key));
      assertNotEquals(key, pasted.header("X-Request-Id"));
      waitFor(captured, "request_id=log-test-2");
      waitFor(captured, "request_id=" + pasted.header("X-Request-Id"));
    } finally {
      System.setErr(original);
    }
    String log = captured.toString(StandardCharsets.UTF_8);
    String search = line(log, "request_id=log-test-1");
    assertTrue(search.contains(" method=\"GET\" route=\"/api/v1/search\" path=\"/api/v1/search\""), search);
    assertTrue(search.contains("query=\"limit=5&q=[redacted]\""), search);
    assertTrue(search.matches(".*time=\\d{4}-\\d\\d-\\d\\dT\\S+Z .* status=200 ms=\\d+\\.\\d bytes=\\d+ key=\\S+$"), search);
    assertFalse(search.contains("key=-"), "the key id is logged: " + search);
    String refused = line(log, "request_id=log-test-2");
    assertTrue(refused.contains("status=401") && refused.endsWith("key=-"), refused);
    assertFalse(log.contains(api.key(ALL)) || log.contains(api.key(ApiServer.MEETINGS)), "a key was logged:\n" + log);
    assertTrue(line(log, "path=\"/x/[redacted]\"").contains("query=\"limit=2&[redacted]&[redacted]\""), log);
    assertFalse(log.contains("Quarterly") || log.contains("planning"), "search text was logged");
  }

  private static void waitFor(ByteArrayOutputStream captured, String text) throws InterruptedException {
    // The line is written when the exchange completes, which may be just after the client has the answer.
    for (int i = 0; i < 100 && !captured.toString(StandardCharsets.UTF_8).contains(text); i++) Thread.sleep(20);
  }

  private static String line(String log, String marker) {
    return log.lines().filter(l -> l.contains(marker)).reduce((a, b) -> {
      throw new AssertionError("more than one line for " + marker + ":\n" + a + "\n" + b);
    }).orElseThrow(() -> new AssertionError("no access-log line for " + marker + " in:\n" + log));
  }

  @Test
  void cacheControlAndLoggingSearchTermsAreTheOperatorsChoice() throws Exception {
    assertEquals("private, max-age=60", tuned.get("/api/v1/meetings", ALL).header("Cache-Control"));
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      tuned.send("GET", "/api/v1/search?q=planning", Map.of("Authorization", "Bearer " + tuned.key(ALL), "X-Request-Id", "log-q"));
      waitFor(captured, "request_id=log-q");
    } finally {
      System.setErr(original);
    }
    assertTrue(line(captured.toString(StandardCharsets.UTF_8), "request_id=log-q").contains("query=\"q=planning\""));
  }

  @Test
  void answersOverAKilobyteAreGzippedWhenAccepted() {
    ApiServer.Response big = api.send("GET", "/api/v1/meetings/" + M1, auth("Accept-Encoding", "gzip"));
    assertEquals("gzip", big.header("Content-Encoding"));
    assertEquals(M1, big.json().get("id").asText()); // ApiServer decoded it (and checked it against openapi.json)
    assertTrue(big.body().length() > 1024, "the test needs an answer over 1 KB");
    assertEquals("Accept-Encoding", big.header("Vary"));
    assertNull(api.get("/api/v1/meetings/" + M1, ALL).header("Content-Encoding"), "not accepted, not compressed");
    assertNull(api.send("GET", "/api/v1/meetings/" + M1, auth("Accept-Encoding", "gzip;q=0")).header("Content-Encoding"));
    assertNull(api.send("GET", "/healthz", Map.of("Accept-Encoding", "gzip")).header("Content-Encoding"), "small stays plain");
    ApiServer.Response head = api.send("HEAD", "/api/v1/meetings/" + M1, auth("Accept-Encoding", "gzip"));
    assertNull(head.header("Content-Encoding"), "HEAD reports the plain length");
  }

  @Test
  void getAnswersCarryAnEtagAndAMatchingIfNoneMatchGets304() {
    ApiServer.Response first = api.get("/api/v1/meetings/" + M1, ALL);
    String etag = first.header("ETag");
    assertTrue(etag.matches("W/\"[0-9a-f]+-[0-9a-f]+\""), etag);
    ApiServer.Response again = api.send("GET", "/api/v1/meetings/" + M1, auth("If-None-Match", etag));
    assertEquals(304, again.status());
    assertEquals("", again.body());
    assertEquals(Json.CONTENT_TYPE, again.header("Content-Type"));
    assertEquals(etag, again.header("ETag"));
    assertEquals(304, api.send("GET", "/api/v1/meetings/" + M1, auth("If-None-Match", "\"other\", " + etag.substring(2))).status());
    assertEquals(200, api.send("GET", "/api/v1/meetings/" + M1, auth("If-None-Match", "W/\"stale\"")).status());
    assertNotEquals(etag, api.get("/api/v1/meetings", ALL).header("ETag"), "another body, another tag");
    for (String open : List.of("/healthz", "/api/v1/openapi.json", "/docs", "/metrics")) {
      assertTrue(api.get(open, null).header("ETag").startsWith("W/\""), open);
    }
  }

  @Test
  void keyedAnswersArePrivateNoStoreEvenWhenRefused() {
    assertEquals("private, no-store", api.get("/api/v1/meetings", ALL).header("Cache-Control"));
    assertEquals("private, no-store", api.get("/api/v1/meetings", null).header("Cache-Control"));
    assertEquals("private, no-store", api.get("/api/v1/search?q=x", ALL).header("Cache-Control"));
    assertEquals("no-cache", api.get("/api/v1/openapi.json", null).header("Cache-Control"));
    assertEquals("no-store", api.get("/metrics", null).header("Cache-Control"));
  }

  @Test
  void headAnswersLikeGetOnEveryRoute() {
    for (String route : ROUTES) {
      // search needs a word the fixture has, so that both answers carry hits
      String path = route.replace("{id}", M1).replace("{file}", "swagger-ui.css")
          .replace("/api/v1/search", "/api/v1/search?q=planning").replace("/transcript/search", "/transcript/search?q=budget");
      ApiServer.Response get = api.send("GET", path, auth());
      ApiServer.Response head = api.send("HEAD", path, auth());
      assertEquals(200, get.status(), path + ": " + get.body());
      assertEquals(get.status(), head.status(), path);
      assertEquals("", head.body(), path);
      assertEquals(get.header("Content-Type"), head.header("Content-Type"), path);
      assertNotNull(get.header("Content-Length"), path);
      // /metrics counts requests, so its length may change between the two; every other answer is fixed
      if (!path.equals("/metrics")) assertEquals(get.header("Content-Length"), head.header("Content-Length"), path);
    }
  }

  @Test
  void openApiDocumentIsServedWithoutAKeyAndDocumentsEveryRoute() {
    ApiServer.Response r = api.get("/api/v1/openapi.json", null);
    assertEquals(200, r.status());
    JsonNode doc = r.json();
    assertTrue(doc.get("openapi").asText().startsWith("3.1."));
    java.util.Set<String> routes = new java.util.TreeSet<>(ROUTES);
    routes.add("/mcp"); // POST only, so not among the GET routes above
    routes.add("/api/v1/changes/stream"); // an answer that never ends, so not among the GET routes above
    assertEquals(routes, new java.util.TreeSet<>(ApiServer.fields(doc.get("paths"))));
    doc.get("paths").forEach(item -> item.elements().next().path("parameters").forEach(p -> {
      assertTrue(p.at("/schema/type").isTextual(), "typed parameter " + p);
      assertFalse(p.path("description").asText().isBlank(), "described parameter " + p);
    }));
    assertEquals(List.of(), OpenApiCheck.exampleProblems(), "every example is valid against its own schema");
  }

  @Test
  void theResponseCheckFailsOnDrift() {
    HttpHeaders json = HttpHeaders.of(Map.of("Content-Type", List.of(Json.CONTENT_TYPE), "X-Request-Id", List.of("x"),
        "ETag", List.of("W/\"x\""), "Cache-Control", List.of("private, no-store")), (a, b) -> true);
    assertEquals(List.of(), OpenApiCheck.problems("GET", "/api/v1/customers", 200, json, "{\"data\":[]}"));
    assertFalse(OpenApiCheck.problems("GET", "/api/v1/customers", 200, json, "{\"data\":[],\"extra\":1}").isEmpty());
    assertFalse(OpenApiCheck.problems("GET", "/api/v1/customers", 418, json, "{}").isEmpty());
    assertFalse(OpenApiCheck.problems("GET", "/api/v1/customers", 200,
        HttpHeaders.of(Map.of("Content-Type", List.of(Json.CONTENT_TYPE)), (a, b) -> true), "{\"data\":[]}").isEmpty(),
        "required headers are checked");
    String error405 = "{\"error\":{\"status\":405,\"code\":\"method_not_allowed\",\"field\":null,\"message\":\"no\"}}";
    assertFalse(OpenApiCheck.problems("POST", "/api/v1/customers", 405, json, error405).isEmpty(), "405 needs Allow");
    assertFalse(OpenApiCheck.problems("GET", "/nowhere", 200, json, "{}").isEmpty(), "an unknown path is 404");
  }

  @Test
  void docsPageIsServedFromTheJarWithoutAKey() {
    ApiServer.Response page = api.get("/docs", null);
    assertEquals(200, page.status());
    assertTrue(page.header("Content-Type").startsWith("text/html"));
    assertTrue(page.body().contains("/docs/swagger-ui-bundle.js"));
    Matcher external = Pattern.compile("(src|href)=\"(?!/docs/)").matcher(page.body());
    assertFalse(external.find(), "everything comes from this server (no CDN)");
    assertTrue(page.header("Content-Security-Policy").contains("default-src 'self'"));
    assertEquals(200, api.get("/docs/swagger-ui-bundle.js", null).status());
    assertTrue(api.get("/docs/init.js", null).body().contains("/api/v1/openapi.json"));
    for (String missing : List.of("/docs/nothing.js", "/docs/..%2Fpom.xml", "/docs/pom.properties", "/docs/.hidden.js")) {
      assertEquals(404, api.get(missing, null).status(), missing);
    }
  }
}
