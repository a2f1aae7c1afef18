package minutes.formats;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import minutes.ApiServer;
import minutes.CliRun;
import minutes.store.Sql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * WebVTT and SubRip files imported through the real command next to the real server, on the
 * run's store: the golden files under src/test/resources/formats (written from the W3C WebVTT
 * and SubRip descriptions) give exactly their expected segments; the options, re-imports, the
 * export-import round trip, search and the change feed. Each test imports files of its own.
 */
class TranscriptImportTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @ParameterizedTest
  @ValueSource(strings = {"teams.vtt", "zoom.vtt", "captions.vtt", "recorder.srt"})
  void goldenFilesGiveExactlyTheirExpectedSegments(String name) throws Exception {
    Path file = resource(name);
    CliRun run = importFiles("--format", format(name), "--workspace", "acme", file.toString());
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().startsWith("imported 1 meetings with 0 tasks from 1 files"), run.out());
    String id = NameBasedIds.of(Files.readAllBytes(file), "acme");
    JsonNode expected = MAPPER.readTree(resourceText(name + ".expected.json"));
    assertEquals(expected, transcript(id), name);

    JsonNode meeting = api.get("/api/v1/meetings/" + id, ALL).json();
    assertEquals(name.substring(0, name.indexOf('.')), meeting.get("title").asText(), "the file name without extension");
    assertEquals("upload", meeting.get("platform").asText());
    assertEquals("upload", meeting.get("source").asText());
    assertEquals("ready", meeting.get("status").asText());
    assertTrue(meeting.get("starts_at").isNull());
    assertTrue(meeting.get("ends_at").isNull());
    assertTrue(meeting.get("protocol").isNull());
    List<String> speakers = new ArrayList<>();
    for (JsonNode s : expected) {
      String speaker = s.get("speaker_name").asText();
      if (!speaker.equals("Unknown speaker") && !speakers.contains(speaker)) speakers.add(speaker);
    }
    JsonNode participants = api.get("/api/v1/meetings/" + id + "/participants", ALL).json().get("data");
    assertEquals(speakers, ApiServer.column(api.get("/api/v1/meetings/" + id + "/participants", ALL).json(), "display_name"),
        "one participant per distinct speaker, in order of first words");
    for (JsonNode p : participants) {
      assertEquals("platform", p.get("source").asText());
      assertTrue(p.get("attended").asBoolean());
      assertTrue(p.get("email").isNull());
    }
  }

  @Test
  void optionsGiveTitleStartPlatformIdAndWhoSeesIt() throws Exception {
    String id = UUID.randomUUID().toString();
    CliRun run = importFiles("--format", "vtt", "--workspace", "acme", "--title", "Zoom call with Globex",
        "--starts-at", "2026-03-02T09:30:00+01:00", "--platform", "zoom", "--id", id.toUpperCase(),
        "--visible-to", "ann@acme.com", resource("zoom.vtt").toString());
    assertEquals(0, run.code(), run.err());
    JsonNode meeting = api.get("/api/v1/meetings/" + id, ANN).json();
    assertEquals(id, meeting.get("id").asText());
    assertEquals("Zoom call with Globex", meeting.get("title").asText());
    assertEquals("zoom", meeting.get("platform").asText());
    assertEquals("upload", meeting.get("source").asText());
    assertEquals("2026-03-02T08:30:00Z", meeting.get("starts_at").asText());
    assertEquals("2026-03-02T09:32:05Z", meeting.get("ends_at").asText(), "the start plus the last cue's end, 01:02:05.000");
    assertEquals(404, api.get("/api/v1/meetings/" + id, BOB).status(), "visible to ann only");
  }

  @Test
  void theSameFileAgainReplacesTheSameMeeting() throws Exception {
    Path file = write("again.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\n<v Ann Example>zqagainword first take\n");
    String id = NameBasedIds.of(Files.readAllBytes(file), "acme");
    String cursor = api.cursor(ALL);
    long before = count("SELECT count(*) FROM meeting");
    assertEquals(0, importFiles("--format", "vtt", "--workspace", "acme", file.toString()).code());
    assertEquals(0, importFiles("--format", "vtt", "--workspace", "acme", file.toString()).code());
    assertEquals(before + 1, count("SELECT count(*) FROM meeting"));
    assertEquals(1, count("SELECT count(*) FROM transcript_segment WHERE meeting_id = ?", id));
    assertEquals(List.of(id + " upsert", id + " upsert"), api.changes(ALL, cursor));
    api.awaitHits(ALL, "zqagainword", List.of(id), System.nanoTime(), Duration.ofSeconds(10));
  }

  @ParameterizedTest
  @ValueSource(strings = {"vtt", "srt"})
  void anExportImportedWithItsIdGivesTheSameTranscript(String format) throws Exception {
    for (String name : List.of("teams.vtt", "zoom.vtt", "captions.vtt", "recorder.srt")) {
      Path original = resource(name);
      assertEquals(0, importFiles("--format", format(name), "--workspace", "acme", original.toString()).code());
      String id = NameBasedIds.of(Files.readAllBytes(original), "acme");
      ApiServer.Response exported = api.get("/api/v1/meetings/" + id + "/transcript?format=" + format, ALL);
      assertEquals(200, exported.status());
      Path file = write("export-of-" + name + "." + format, exported.body());
      String copy = UUID.randomUUID().toString();
      CliRun run = importFiles("--format", format, "--workspace", "acme", "--id", copy, file.toString());
      assertEquals(0, run.code(), run.err());
      assertEquals(transcript(id), transcript(copy), name + " through " + format);
    }
  }

  @Test
  void importedTranscriptsAreSearchableAndInTheChangeFeed() throws Exception {
    String cursor = api.cursor(ALL), bob = api.cursor(BOB);
    Path file = write("Standup 2026-03-02.vtt", "WEBVTT\n\n1\n00:00.000 --> 00:04.000\n"
        + "Ann Example: The zqsearchword release ships today.\n");
    long sent = System.nanoTime();
    CliRun run = importFiles("--format", "vtt", "--workspace", "acme", "--visible-to", "ann@acme.com", file.toString());
    assertEquals(0, run.code(), run.err());
    String id = NameBasedIds.of(Files.readAllBytes(file), "acme");
    api.awaitHits(ALL, "zqsearchword", List.of(id), sent, Duration.ofSeconds(10));
    api.awaitHits(ANN, "zqsearchword", List.of(id), sent, Duration.ofSeconds(10));
    assertEquals(List.of(), api.hits(BOB, "zqsearchword"));
    JsonNode hit = api.get("/api/v1/search?q=zqsearchword", ALL).json().get("data").get(0);
    assertEquals("transcript", hit.get("matched_in").asText());
    assertEquals("Standup 2026-03-02", hit.get("title").asText());
    assertEquals(List.of(id + " upsert"), api.changes(ALL, cursor));
    assertEquals(List.of(), api.changes(BOB, bob));
  }

  // ------------------------------------------------------------------ helpers

  static String format(String fileName) {
    return fileName.substring(fileName.lastIndexOf('.') + 1);
  }

  static CliRun importFiles(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "import";
    System.arraycopy(args, 0, all, 1, args.length);
    return api.cli(all);
  }

  /** The whole transcript's segments as the JSON answer gives them. */
  static JsonNode transcript(String id) {
    ApiServer.Response r = api.get("/api/v1/meetings/" + id + "/transcript?limit=5000", ALL);
    assertEquals(200, r.status(), r.body());
    return r.json().get("data");
  }

  static long count(String sql, Object... values) throws Exception {
    try (Connection c = api.store().write()) {
      return new Sql(sql, values).count(c);
    }
  }

  /** A test resource of src/test/resources/formats, copied as it is into a file of its own name. */
  static Path resource(String name) throws IOException {
    Path dir = Files.createDirectories(api.dir().resolve("resources"));
    try (InputStream in = TranscriptImportTest.class.getResourceAsStream("/formats/" + name)) {
      Path file = dir.resolve(name);
      Files.write(file, in.readAllBytes());
      return file;
    }
  }

  static String resourceText(String name) throws IOException {
    try (InputStream in = TranscriptImportTest.class.getResourceAsStream("/formats/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static Path write(String name, String text) throws IOException {
    Path dir = Files.createDirectories(api.dir().resolve("written"));
    return Files.writeString(dir.resolve(name), text);
  }
}
