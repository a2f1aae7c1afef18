package minutes.formats;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.ApiServer;
import minutes.CliRun;
import minutes.store.Sql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * WebVTT and SubRip files imported through the real command next to the real server, on the
 * run's store: the golden files under src/test/resources/formats (written from the W3C WebVTT
 * and SubRip descriptions, and w3c-*.vtt from the W3C parser's test expectations, each block
 * naming the rule it covers) give exactly their expected segments and, word for word, the lines
 * about what was skipped; the encodings read, the options, re-imports, the export-import round
 * trip, search and the change feed. Each test imports files of its own.
 */
class TranscriptImportTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** The golden files; those of decisions.md "Transcript files as written" have an .expected.err. */
  static final List<String> GOLDEN = List.of("teams.vtt", "zoom.vtt", "captions.vtt", "recorder.srt", "w3c-timings.vtt",
      "w3c-blocks.vtt", "teams-short.vtt", "lenient.srt");

  static List<String> golden() {
    return GOLDEN;
  }

  @ParameterizedTest
  @MethodSource("golden")
  void goldenFilesGiveExactlyTheirExpectedSegments(String name) throws Exception {
    Path file = resource(name);
    CliRun run = importFiles("--format", format(name), "--workspace", "acme", file.toString());
    assertEquals(0, run.code(), run.err());
    List<String> said = expectedErr(name).stream().map(l -> file + l.substring(name.length())).toList();
    assertEquals(said, run.err().lines().toList(), "what was skipped or changed, line by line");
    long skipped = said.stream().filter(l -> l.contains(": skipped: ")).count();
    assertTrue(run.out().startsWith("imported 1 meetings with 0 tasks from 1 files"
        + (skipped == 0 ? " (" : ", " + skipped + " blocks skipped (")), run.out());
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

  /** README's Teams example, in Teams' short timings, imports as its quick start says. */
  @Test
  void theReadmesTeamsExampleImports() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    int example = readme.indexOf("- **WebVTT from Microsoft Teams**");
    int from = readme.indexOf("  ```\n", example) + 6, to = readme.indexOf("  ```\n", from);
    String vtt = readme.substring(from, to).lines().map(l -> l.replaceFirst("^  ", "")).reduce("", (a, l) -> a + l + "\n");
    Path file = write("Weekly sync.vtt", vtt);
    CliRun run = importFiles("--format", "vtt", "--workspace", "acme", "--platform", "teams", "--starts-at",
        "2026-03-02T09:30:00Z", file.toString());
    assertEquals(0, run.code(), run.err());
    assertEquals("", run.err());
    assertEquals(MAPPER.readTree("""
        [{"index": 0, "speaker_name": "Jane Doe", "speaker_email": null, "start_ms": 13540, "end_ms": 17850,
          "text": "Good morning, everyone."},
         {"index": 1, "speaker_name": "Bob Smith", "speaker_email": null, "start_ms": 17850, "end_ms": 21120,
          "text": "Morning! Let's look at the budget."}]"""), transcript(NameBasedIds.of(Files.readAllBytes(file), "acme")));
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

  /**
   * The same segments, but that a zero-length one comes back ending where the next starts, or
   * 1 ms after its start (export rule of decisions.md "Transcript files as written"); every cue of
   * the export ends after it starts, as WebVTT's syntax and a validator's timing rules want.
   */
  @ParameterizedTest
  @ValueSource(strings = {"vtt", "srt"})
  void anExportImportedWithItsIdGivesTheSameTranscript(String format) throws Exception {
    Pattern timing = Pattern.compile("^(\\d{2,}):(\\d{2}):(\\d{2})[.,](\\d{3}) --> (\\d{2,}):(\\d{2}):(\\d{2})[.,](\\d{3})$",
        Pattern.MULTILINE);
    for (String name : GOLDEN) {
      Path original = resource(name);
      assertEquals(0, importFiles("--format", format(name), "--workspace", "acme", original.toString()).code());
      String id = NameBasedIds.of(Files.readAllBytes(original), "acme");
      ApiServer.Response exported = api.get("/api/v1/meetings/" + id + "/transcript?format=" + format, ALL);
      assertEquals(200, exported.status());
      Matcher cue = timing.matcher(exported.body());
      int cues = 0;
      for (; cue.find(); cues++) assertTrue(ms(cue, 5) > ms(cue, 1), name + ": " + cue.group());
      JsonNode segments = transcript(id);
      assertEquals(segments.size(), cues, name + ": a cue per segment");
      Path file = write("export-of-" + name + "." + format, exported.body());
      String copy = UUID.randomUUID().toString();
      CliRun run = importFiles("--format", format, "--workspace", "acme", "--id", copy, file.toString());
      assertEquals(0, run.code(), run.err());
      assertEquals("", run.err(), "an export reads back without a skip");
      for (int i = 0; i < segments.size(); i++) {
        ObjectNode s = (ObjectNode) segments.get(i);
        long start = s.get("start_ms").asLong(), end = s.get("end_ms").asLong();
        if (end <= start) {
          long next = i + 1 < segments.size() ? segments.get(i + 1).get("start_ms").asLong() : -1;
          s.put("end_ms", next > start ? next : start + 1);
        }
      }
      assertEquals(MAPPER.readTree(segments.toString()), transcript(copy), name + " through " + format);
    }
  }

  /** The milliseconds of the time in groups {@code from} to {@code from + 3} of a timing line. */
  private static long ms(Matcher m, int from) {
    return ((Long.parseLong(m.group(from)) * 60 + Long.parseLong(m.group(from + 1))) * 60 + Long.parseLong(m.group(from + 2)))
        * 1000 + Long.parseLong(m.group(from + 3));
  }

  /** UTF-16 with its byte order mark, either byte order, reads as the same text in UTF-8 does. */
  @ParameterizedTest
  @ValueSource(strings = {"UTF-16LE", "UTF-16BE"})
  void utf16WithAByteOrderMarkIsRead(String charset) throws Exception {
    byte[] text = ("\uFEFF" + resourceText("lenient.srt").replace("zqlenient", "zqutf16 Grüße")).getBytes(charset);
    Path file = Files.write(Files.createDirectories(api.dir().resolve("written")).resolve(charset + ".srt"), text);
    CliRun run = importFiles("--format", "srt", "--workspace", "acme", file.toString());
    assertEquals(0, run.code(), run.err());
    assertEquals(expectedErr("lenient.srt").stream().map(l -> file + l.substring("lenient.srt".length())).toList(),
        run.err().lines().toList());
    JsonNode expected = MAPPER.readTree(resourceText("lenient.srt.expected.json").replace("zqlenient", "zqutf16 Grüße"));
    assertEquals(expected, transcript(NameBasedIds.of(text, "acme")));
  }

  /** WebVTT's parser reads a NUL as U+FFFD; so does the import, on both stores (PostgreSQL's text holds no NUL). */
  @Test
  void aNulInACueReadsAsTheReplacementCharacter() throws Exception {
    Path file = write("nul.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\n<v Ann>zqnul a\u0000b\n");
    CliRun run = importFiles("--format", "vtt", "--workspace", "acme", file.toString());
    assertEquals(0, run.code(), run.err());
    assertEquals("zqnul a\uFFFDb", transcript(NameBasedIds.of(Files.readAllBytes(file), "acme")).get(0).get("text").asText());
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

  /** The lines of {@code name}.expected.err, none when there is no such file. */
  static List<String> expectedErr(String name) throws IOException {
    try (InputStream in = TranscriptImportTest.class.getResourceAsStream("/formats/" + name + ".expected.err")) {
      return in == null ? List.of() : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
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
