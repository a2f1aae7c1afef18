package minutes.languages;

import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import minutes.ApiServer;
import minutes.CliRun;
import minutes.TestLines;
import minutes.formats.NameBasedIds;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A language per meeting (decisions.md "Languages") through the real import command and server,
 * on the run's store: the line's own language, detection when it names none (the fixture's
 * sentences, src/test/resources/languages), {@code und} for what cannot be told, the
 * {@code language} filter of the list and of search, the facet, and every refusal naming
 * {@code language}. The English meetings of fixtures.ndjson never read as another language.
 */
class LanguagesApiTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  private static final ObjectMapper MAPPER = new ObjectMapper();
  /** Languages whose meetings are imported without a language, to be detected. */
  static final List<String> DETECTED = List.of("de", "fr", "es", "ru", "zh", "ja", "ko", "th");
  static final String GIVEN = id("given"), SHORT = id("short");

  static String id(String name) {
    return java.util.UUID.nameUUIDFromBytes(("languages test " + name).getBytes()).toString();
  }

  /** A meeting of acme whose transcript is the sentences, one segment each, all of them saying "zqlang". */
  static String meeting(String id, String title, List<String> sentences, String language) {
    ObjectNode line = MAPPER.createObjectNode().put("kind", "meeting").put("workspace", "acme").put("id", id)
        .put("title", title).put("platform", "zoom").put("source", "upload").put("status", "ready")
        .put("created_at", "2026-06-01T10:00:00Z");
    if (language != null) line.put("language", language);
    ArrayNode transcript = line.putArray("transcript");
    int at = 0;
    for (String s : sentences) {
      transcript.addObject().put("speaker_name", "Speaker").put("start_ms", at).put("end_ms", at + 4000)
          .put("text", s + " zqlang");
      at += 4000;
    }
    return line.toString();
  }

  @BeforeAll
  static void importMeetings() throws Exception {
    List<String> lines = new ArrayList<>();
    for (String language : DETECTED) {
      lines.add(meeting(id(language), "Meeting " + language, LanguageDetectionTest.sentences(language), null));
    }
    // English words, but the line says German: what the line says wins.
    lines.add(meeting(GIVEN, "Given", LanguageDetectionTest.sentences("en"), "de"));
    lines.add(meeting(SHORT, "Q3 sync", List.of("ok"), null));
    CliRun run = api.cli("import", TestLines.file(api.dir(), lines.toArray(String[]::new)).toString());
    assertEquals(0, run.code(), run.err());
    api.awaitHits(ALL, "zqlang&limit=100&order=starts_at", sorted(), System.nanoTime(), Duration.ofSeconds(30));
  }

  /** Every imported meeting's id, in the order of {@code order=starts_at} (same time: by id). */
  static List<String> sorted() {
    List<String> ids = new ArrayList<>();
    for (String language : DETECTED) ids.add(id(language));
    ids.add(GIVEN);
    ids.add(SHORT);
    return ids.stream().sorted().toList();
  }

  static String language(String id) {
    ApiServer.Response r = api.get("/api/v1/meetings/" + id, ALL);
    assertEquals(200, r.status(), r.body());
    return r.json().get("language").asText();
  }

  @Test
  void aMeetingWithoutLanguageIsDetectedOneThatGivesItKeepsItAndTooLittleTextIsUnd() {
    for (String language : DETECTED) assertEquals(language, language(id(language)), language);
    assertEquals("de", language(GIVEN));
    assertEquals("und", language(SHORT));
  }

  @Test
  void theFixturesEnglishMeetingsReadAsEnglishOrUndetermined() {
    JsonNode rows = api.get("/api/v1/meetings?limit=200", ALL).json().get("data");
    int english = 0;
    for (JsonNode row : rows) {
      String id = row.get("id").asText(), language = row.get("language").asText();
      if (sorted().contains(id)) continue;
      assertTrue(language.equals("en") || language.equals("und"), row.get("title") + " read as " + language);
      if (language.equals("en")) english++;
    }
    assertTrue(english > 0, "no fixture meeting detected as English");
  }

  @Test
  void theListFiltersByLanguageAndItsRowsShowIt() {
    JsonNode body = api.get("/api/v1/meetings?language=de&limit=200", ALL).json();
    List<String> ids = ApiServer.column(body, "id");
    assertEquals(List.of(GIVEN, id("de")).stream().sorted().toList(), ids.stream().sorted().toList());
    assertEquals(2, body.get("pagination").get("total").asInt());
    for (JsonNode row : body.get("data")) assertEquals("de", row.get("language").asText());
    assertEquals(List.of(id("th")), ApiServer.column(api.get("/api/v1/meetings?language=th", ALL).json(), "id"));
    assertEquals(0, api.get("/api/v1/meetings?language=xx", ALL).json().get("pagination").get("total").asInt());
  }

  @Test
  void searchFiltersByLanguageAndCountsLanguages() {
    assertEquals(List.of(id("ja")), ApiServer.column(api.get("/api/v1/search?q=zqlang&language=ja", ALL).json(), "meeting_id"));
    JsonNode body = api.get("/api/v1/search?q=zqlang&facets=language,platform&limit=1", ALL).json();
    assertEquals(10, body.get("total").asInt());
    Map<String, Integer> counts = new TreeMap<>();
    for (JsonNode v : body.get("facets").get("language")) counts.put(v.get("value").asText(), v.get("count").asInt());
    Map<String, Integer> expected = new TreeMap<>();
    for (String language : DETECTED) expected.put(language, language.equals("de") ? 2 : 1);
    expected.put("und", 1);
    assertEquals(expected, counts);
    assertEquals("de", body.get("facets").get("language").get(0).get("value").asText(), "highest count first");
    assertEquals(List.of("language", "platform"), ApiServer.fields(body.get("facets")));
  }

  @Test
  void aMalformedLanguageIs400NamingIt() {
    for (String path : List.of("/api/v1/meetings", "/api/v1/search?q=zqlang&")) {
      for (String bad : List.of("DE", "de-DE", "d", "deut", "d1", "")) {
        String sep = path.endsWith("&") ? "" : "?";
        ApiServer.Response r = api.get(path + sep + "language=" + bad, ALL);
        assertEquals(400, r.status(), path + " " + bad);
        assertEquals("language", r.json().get("error").get("field").asText());
      }
    }
  }

  @Test
  void anImportLineWithAnUnusableLanguageIsRefusedNamingItAndNothingLands() throws Exception {
    String ok = meeting(id("refused ok"), "Fine", List.of("fine"), "en");
    for (String bad : List.of("\"German\"", "\"EN\"", "\"de-DE\"", "5", "\"\"")) {
      String line = meeting(id("refused"), "Bad", List.of("bad"), null).replace("{\"kind\"", "{\"language\":" + bad + ",\"kind\"");
      CliRun run = api.cli("import", TestLines.file(api.dir(), ok, line).toString());
      assertEquals(1, run.code(), bad);
      assertTrue(run.err().contains(".ndjson:2: language: "), run.err());
      assertEquals(404, api.get("/api/v1/meetings/" + id("refused ok"), ALL).status(), "nothing of the file landed");
    }
  }

  @Test
  void convertedFormatsTakeLanguageAndFathomsOwn() throws Exception {
    Path vtt = Files.writeString(api.dir().resolve("sprache.vtt"),
        "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Ann>Hello everyone, we start with the budget.</v>\n");
    CliRun run = api.cli("import", "--format", "vtt", "--workspace", "acme", "--language", "nl", vtt.toString());
    assertEquals(0, run.code(), run.err());
    assertEquals("nl", language(NameBasedIds.of(Files.readAllBytes(vtt), "acme")));

    CliRun refused = api.cli("import", "--format", "vtt", "--workspace", "acme", "--language", "Dutch", vtt.toString());
    assertEquals(2, refused.code());
    assertTrue(refused.err().contains("--language must be a BCP 47 primary language subtag"), refused.err());
    CliRun ndjson = api.cli("import", "--language", "de", TestLines.file(api.dir(), "").toString());
    assertEquals(2, ndjson.code());

    // Fathom names its transcript's language (transcript_language, "en" in the golden file);
    // a region is dropped, and --language wins over it.
    String fathom = Files.readString(Path.of(LanguagesApiTest.class.getResource("/formats/fathom-meeting.json").toURI()));
    Path file = Files.writeString(api.dir().resolve("fathom.json"), fathom.replace("\"transcript_language\": \"en\"",
        "\"transcript_language\": \"pt-BR\""));
    assertEquals(0, api.cli("import", "--format", "fathom", "--workspace", "acme", file.toString()).code());
    String fathomId = NameBasedIds.of("acme", "fathom", "123456789");
    assertEquals("pt", language(fathomId));
    assertEquals(0, api.cli("import", "--format", "fathom", "--workspace", "acme", "--language", "es", file.toString()).code());
    assertEquals("es", language(fathomId));
    Path bad = Files.writeString(api.dir().resolve("fathom-bad.json"), fathom.replace("\"transcript_language\": \"en\"",
        "\"transcript_language\": \"English!\""));
    CliRun badRun = api.cli("import", "--format", "fathom", "--workspace", "acme", bad.toString());
    assertEquals(1, badRun.code());
    assertTrue(badRun.err().contains("transcript_language"), badRun.err());
  }
}
