package minutes.search;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import minutes.ApiServer;
import minutes.RunsAlone;
import minutes.cli.Cli;
import minutes.search.index.IndexDirs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.ApiServer.MEETINGS;
import static minutes.ApiServer.OTHER;
import static minutes.ApiServer.TASKS;
import static minutes.Fixtures.M1;
import static minutes.Fixtures.M2;
import static minutes.Fixtures.O1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GET /api/v1/search through the real server: shape, errors, visibility, live import, reindex under load. */
@RunsAlone("a live import is searchable within 2 s; searches during a reindex answer within the 2 s limit")
class SearchApiTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

  static ApiServer.Response search(String q, String key) {
    return api.get("/api/v1/search?q=" + URLEncoder.encode(q, StandardCharsets.UTF_8), key);
  }

  static List<String> ids(ApiServer.Response r) {
    assertEquals(200, r.status(), r.body());
    List<String> ids = new ArrayList<>();
    for (JsonNode h : r.json().get("data")) ids.add(h.get("meeting_id").asText());
    return ids;
  }

  @Test
  void aHitHasExactlyTheFieldsOfTheSpecAndTheQueryIsEchoedTrimmed() {
    ApiServer.Response r = search("  revised forecast ", ALL);
    assertEquals(200, r.status(), r.body());
    assertEquals("application/json; charset=utf-8", r.header("Content-Type"));
    assertEquals("revised forecast", r.json().get("query").asText());
    JsonNode hit = r.json().get("data").get(0);
    Set<String> names = new TreeSet<>();
    hit.fieldNames().forEachRemaining(names::add);
    assertEquals(new TreeSet<>(List.of("meeting_id", "title", "platform", "starts_at", "created_at", "rank", "snippet",
        "matched_in")), names);
    assertEquals(M1, hit.get("meeting_id").asText());
    assertTrue(hit.get("rank").isNumber());
    // Both words stand in M1's transcript once each, and in its current minutes, where
    // "forecast" stands twice: the minutes rank best.
    assertEquals("protocol", hit.get("matched_in").asText());
    assertEquals("Budget agreed; Müller to send the <mark>revised</mark> <mark>forecast</mark>. Quarterly planning "
        + "Decisions Budget agreed for Q2 Hiring freeze lifted See <mark>forecast</mark>.", hit.get("snippet").asText());
  }

  @Test
  void titleHitsRankExactly035() {
    JsonNode hit = search("weekly initech", ALL).json().get("data").get(0);
    assertEquals(M2, hit.get("meeting_id").asText());
    assertEquals("title", hit.get("matched_in").asText());
    assertEquals("0.35", hit.get("rank").asText());
    assertEquals("<mark>Weekly</mark> sync with <mark>Initech</mark>", hit.get("snippet").asText());
  }

  @Test
  void scriptInATranscriptIsEscaped() {
    JsonNode hit = search("alert", ALL).json().get("data").get(0);
    String snippet = hit.get("snippet").asText();
    assertTrue(snippet.contains("&lt;script&gt;"), snippet);
    assertFalse(snippet.replace("<mark>", "").replace("</mark>", "").matches("(?s).*[<>].*"), snippet);
  }

  @Test
  void badParametersAre400NamingTheField() {
    for (String path : List.of("/api/v1/search", "/api/v1/search?q=", "/api/v1/search?q=a", "/api/v1/search?q=%20x%20",
        "/api/v1/search?q=" + "x".repeat(5000))) {
      ApiServer.Response r = api.get(path, ALL);
      assertEquals(400, r.status(), path);
      assertEquals("q", r.json().get("error").get("field").asText(), path);
    }
    for (String limit : List.of("abc", "2.5", "1e3", "")) {
      ApiServer.Response r = api.get("/api/v1/search?q=budget&limit=" + limit, ALL);
      assertEquals(400, r.status(), limit);
      assertEquals("limit", r.json().get("error").get("field").asText());
    }
    assertEquals(200, api.get("/api/v1/search?q=budget&limit=1000", ALL).status());
    assertEquals(200, api.get("/api/v1/search?q=budget&limit=-5", ALL).status());
  }

  @Test
  void authAndScopeComeFirst() {
    assertEquals(401, api.get("/api/v1/search?q=budget", null).status());
    assertEquals(403, api.get("/api/v1/search?q=a", TASKS).status());
    assertEquals(200, api.get("/api/v1/search?q=budget", MEETINGS).status());
  }

  /**
   * Each hostile input has one status: 400 naming q where fewer than 2 characters are left,
   * otherwise 200, searched as the plain words it holds (SEARCH.md: no query syntax), never
   * finding another workspace's meeting.
   */
  @Test
  void eachHostileInputHasOneStatus() {
    for (String q : List.of("\"", "*", "\\")) {
      ApiServer.Response r = search(q, ALL);
      assertEquals(400, r.status(), q + " -> " + r.body());
      assertEquals("q", r.json().get("error").get("field").asText(), q);
    }
    for (String q : List.of("((x", "a:b", "title:secret", "AND OR NOT", "🙂🙂", "%00", "x\u0000y", "workspace:2",
        "<script>", "\"budget", "budget\"", "' OR 1=1 --", "secret OR budget")) {
      ApiServer.Response r = search(q, ALL);
      assertEquals(200, r.status(), q + " -> " + r.body());
      assertFalse(ids(r).contains(O1), q);
    }
    // Operators are words: "AND" finds what the word "and" finds, "AND OR NOT" what "and or
    // not" finds, and "budget" with a stray quote what "budget" finds.
    assertEquals(ids(search("and", ALL)), ids(search("AND", ALL)));
    // (SearchIndexTest#eachHostileInputHasExactlyOneOutcome finds a meeting through "AND".)
    assertEquals(ids(search("and or not", ALL)), ids(search("AND OR NOT", ALL)));
    assertEquals(ids(search("budget", ALL)), ids(search("\"budget", ALL)));
    assertEquals(List.of(), ids(search("🙂🙂", ALL)), "no meeting of the fixtures holds that emoji");
    ApiServer.Response raw = api.get("/api/v1/search?q=%ED%A0%80%ED%A0%80", ALL); // CESU-encoded lone surrogates
    assertEquals(200, raw.status(), raw.body());
  }

  @Test
  void noKeySeesAnotherWorkspacesOrAnotherPersonsMeetings() {
    assertEquals(List.of(O1), ids(search("secret budget", OTHER)));
    for (String key : List.of(ALL, ANN, BOB)) assertFalse(ids(search("secret budget", key)).contains(O1), key);
    assertFalse(ids(search("budget", OTHER)).contains(M1));
    assertEquals(List.of(M1), ids(search("budget", ANN)));
    assertEquals(List.of(), ids(search("budget", BOB)));
    assertEquals(List.of(M2), ids(search("integration", BOB)), "viewer emails compare case-insensitively");
    assertEquals(List.of(), ids(search("integration", ANN)));
  }

  @Test
  void aMeetingImportedWhileTheServerRunsIsSearchableWithinTwoSeconds() throws Exception {
    String id = SearchData.id("live-import");
    Path dir = Files.createTempDirectory("search-api-");
    try {
      new SearchData().meeting("acme", "live-import", "Live import", "2026-03-09T09:00:00Z", List.of("ann@acme.com"),
          "Quokkas were discussed.", "quokka").importInto(api.store(), dir);
      long deadline = System.nanoTime() + 2_000_000_000L;
      List<String> found = List.of();
      while (System.nanoTime() < deadline && found.isEmpty()) found = ids(search("quokka", ANN));
      assertEquals(List.of(id), found);
      assertEquals(List.of(), ids(search("quokka", BOB)));
      assertEquals(List.of(), ids(search("quokka", OTHER)));
    } finally {
      IndexDirs.deleteTree(dir);
    }
  }

  @Test
  void reindexUnderAStreamOfSearchesFailsNone() throws Exception {
    Path config = Files.createTempFile("search-api-", ".properties");
    Files.writeString(config, api.testStore().properties() + "index.path=" + api.config().indexPath() + "\n");
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger ok = new AtomicInteger();
    AtomicReference<String> failure = new AtomicReference<>();
    List<Thread> clients = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      Thread c = new Thread(() -> {
        while (!stop.get()) {
          ApiServer.Response r = search("revised forecast", ALL);
          if (r.status() != 200 || !ids(r).equals(List.of(M1))) failure.compareAndSet(null, r.status() + " " + r.body());
          ok.incrementAndGet();
        }
      });
      c.start();
      clients.add(c);
    }
    try {
      String before = Files.readString(api.config().indexPath().resolve("CURRENT")).strip();
      java.io.StringWriter out = new java.io.StringWriter();
      int code = Cli.run(new String[] {"reindex", "--config", config.toString()},
          new java.io.PrintWriter(out, true), new java.io.PrintWriter(new java.io.StringWriter(), true));
      assertEquals(0, code, out.toString());
      assertTrue(out.toString().startsWith("reindexed "), out.toString());
      String after = Files.readString(api.config().indexPath().resolve("CURRENT")).strip();
      assertFalse(before.equals(after));
      long deadline = System.nanoTime() + 5_000_000_000L; // the server switches within a poll or two
      while (Files.exists(api.config().indexPath().resolve(before)) && System.nanoTime() < deadline) Thread.sleep(20);
      assertFalse(Files.exists(api.config().indexPath().resolve(before)), "old index deleted after the switch");
      int switched = ok.get(); // searches answered from the new index too
      while (ok.get() < switched + 10 && failure.get() == null && System.nanoTime() < deadline + 30_000_000_000L) {
        Thread.sleep(10);
      }
      assertTrue(ok.get() >= switched + 10, "searches after the switch: " + (ok.get() - switched));
    } finally {
      stop.set(true);
      for (Thread c : clients) c.join();
      Files.deleteIfExists(config);
    }
    assertEquals(null, failure.get());
    assertTrue(ok.get() > 10, "searches: " + ok.get());
    assertEquals(200, api.get("/healthz", null).status());
  }
}
