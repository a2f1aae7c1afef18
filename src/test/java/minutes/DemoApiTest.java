package minutes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import minutes.config.Config;
import minutes.generate.DemoData;
import minutes.generate.TestCorpus;
import minutes.json.Jackson;
import minutes.keys.ApiKeys;
import minutes.keys.Scope;
import minutes.store.Importer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bundled demo data, imported as a first start does, answers consistently on every endpoint. */
class DemoApiTest {
  @TempDir static Path dir;
  static App app;
  static TestStore testStore;
  static String all, ann, bob;
  static final HttpClient client = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    Path demo = dir.resolve("demo.ndjson");
    try (Writer w = Files.newBufferedWriter(demo)) {
      DemoData.write(TestCorpus.get(), w);
    }
    testStore = TestStore.create(dir);
    java.util.Map<String, String> env = new java.util.HashMap<>(testStore.env());
    env.putAll(java.util.Map.of("MINUTES_INDEX_PATH", dir.resolve("index").toString(), "MINUTES_HTTP_PORT", "0",
        "MINUTES_SEARCH_WARMUP_MS", "0")); // the answers are what counts here; the warm-up is SearchWarmUpTest's
    Config config = Config.load(Files.createFile(dir.resolve("none.properties")), env);
    new Importer(testStore.store(), Importer.Progress.NONE).run(List.of(demo));
    try (Connection c = testStore.store().write()) {
      all = ApiKeys.create(c, "demo", EnumSet.allOf(Scope.class), null, null).secret();
      ann = ApiKeys.create(c, "demo", EnumSet.allOf(Scope.class), "ann@demo.example", null).secret();
      bob = ApiKeys.create(c, "demo", EnumSet.allOf(Scope.class), "bob@demo.example", null).secret();
    }
    app = new App(config).start();
  }

  @AfterAll
  static void stop() {
    if (app != null) app.close();
    if (testStore != null) testStore.close();
  }

  /** GET with a key; the answer is checked against openapi.json as {@link ApiServer} checks every answer. */
  static HttpResponse<String> send(String path, String key) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
        .header("Authorization", "Bearer " + key).build();
    HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
    OpenApiCheck.assertConforms(request.method(), request.uri().getRawPath(), r.statusCode(), r.headers(), r.body());
    return r;
  }

  static JsonNode get(String path, String key) throws Exception {
    HttpResponse<String> r = send(path, key);
    assertEquals(200, r.statusCode(), path + ": " + r.body());
    return Jackson.MAPPER.readTree(r.body());
  }

  @Test
  void everyListedMeetingOpensAndItsTasksAndTranscriptAddUp() throws Exception {
    JsonNode meetings = get("/api/v1/meetings?limit=200", all);
    int count = meetings.get("data").size();
    assertEquals(count, meetings.at("/pagination/total").asInt());
    assertTrue(count >= 20 && count <= 40, "a demo of 20-40 meetings, got " + count);
    Set<String> statuses = new HashSet<>();
    long tasksOfMeetings = 0;
    for (JsonNode row : meetings.get("data")) {
      String id = row.get("id").asText();
      statuses.add(row.get("status").asText());
      JsonNode m = get("/api/v1/meetings/" + id, all);
      assertEquals(row.get("title"), m.get("title"));
      JsonNode people = get("/api/v1/meetings/" + id + "/participants", all);
      assertEquals(m.get("participants").size(), people.get("data").size());
      JsonNode tasks = get("/api/v1/meetings/" + id + "/action-items?limit=200", all);
      int nested = m.get("protocol").isNull() ? 0 : m.at("/protocol/action_items").size();
      assertEquals(nested, tasks.at("/pagination/total").asInt(), id);
      tasksOfMeetings += nested;
      JsonNode transcript = get("/api/v1/meetings/" + id + "/transcript?limit=5000", all);
      JsonNode segments = transcript.get("data");
      for (int i = 0; i < segments.size(); i++) assertEquals(i, segments.get(i).get("index").asInt());
      assertEquals(segments.size(), transcript.at("/pagination/total").asInt());
    }
    assertEquals(Set.of("scheduled", "live", "processing", "ready", "failed", "no_bot", "no_speech"), statuses);
    assertEquals(tasksOfMeetings, get("/api/v1/action-items", all).at("/pagination/total").asLong());
  }

  @Test
  void annAndBobSeeDifferentMeetings() throws Exception {
    Set<String> annIds = ids(get("/api/v1/meetings?limit=200", ann));
    Set<String> bobIds = ids(get("/api/v1/meetings?limit=200", bob));
    Set<String> allIds = ids(get("/api/v1/meetings?limit=200", all));
    assertTrue(allIds.containsAll(annIds) && allIds.containsAll(bobIds));
    assertTrue(!annIds.equals(bobIds) && !annIds.isEmpty() && !bobIds.isEmpty());
    for (String id : allIds) {
      assertEquals(annIds.contains(id) ? 200 : 404, send("/api/v1/meetings/" + id, ann).statusCode(), "ann " + id);
      assertEquals(bobIds.contains(id) ? 200 : 404, send("/api/v1/meetings/" + id, bob).statusCode(), "bob " + id);
    }
  }

  @Test
  void customersCountTheirMeetings() throws Exception {
    JsonNode customers = get("/api/v1/customers", all).get("data");
    assertTrue(customers.size() >= 3);
    JsonNode last = customers.get(customers.size() - 1);
    assertEquals(0, last.get("meeting_count").asInt(), "a company without meetings sorts last");
    assertTrue(customers.get(0).get("meeting_count").asInt() > 0);
  }

  /**
   * A search's moments are what the transcript search of each hit answers for the same q, over
   * the demo's real transcripts (punctuation, apostrophes, umlauts, common-word phrases), for a
   * workspace and a personal key; and its facets' counts add up to its total.
   */
  @Test
  void searchMomentsAgreeWithTheTranscriptSearchOfEachHit() throws Exception {
    int compared = 0;
    for (String key : List.of(all, ann)) {
      for (String q : List.of("budget", "remote control", "%22I%20think%22", "%22the%20remote%22", "market%20research",
          "M%C3%BCller", "don%27t", "%22we%20need%20to%22", "design")) {
        JsonNode answer = get("/api/v1/search?limit=100&moments=10&facets=platform&q=" + q.replace(" ", "%20"), key);
        int platforms = 0;
        for (JsonNode f : answer.at("/facets/platform")) platforms += f.get("count").asInt();
        assertEquals(answer.get("total").asInt(), platforms, "each meeting has one platform: " + q);
        for (JsonNode hit : answer.get("data")) {
          JsonNode inMeeting = get("/api/v1/meetings/" + hit.get("meeting_id").asText() + "/transcript/search?limit=500&q="
              + q.replace(" ", "%20"), key).get("data");
          assertEquals(Math.min(500, hit.get("moments_total").asInt()), inMeeting.size(), q + " in " + hit.get("meeting_id"));
          for (int i = 0; i < hit.get("moments").size(); i++) assertEquals(inMeeting.get(i), hit.get("moments").get(i), q);
          assertEquals(Math.min(10, inMeeting.size()), hit.get("moments").size(), q);
          compared += hit.get("moments").size();
        }
      }
    }
    assertTrue(compared > 200, "the queries find moments to compare: " + compared);
  }

  private static Set<String> ids(JsonNode page) {
    return new HashSet<>(ApiServer.column(page, "id"));
  }
}
