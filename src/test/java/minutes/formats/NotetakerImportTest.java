package minutes.formats;

import static minutes.ApiServer.ALL;
import static minutes.formats.TranscriptImportTest.resourceText;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import minutes.ApiServer;
import minutes.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fathom meeting objects and Fireflies transcript objects (src/test/resources/formats, in the
 * shape of their APIs) imported through the real command next to the real server, on the run's
 * store: each lands as a whole meeting, one file holds one object, an array or NDJSON of them,
 * and importing again replaces the same meetings.
 */
class NotetakerImportTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void aFathomMeetingLandsWithParticipantsMinutesTasksAndTranscript() throws Exception {
    CliRun run = importFile("fathom", "fathom-meeting.json", resourceText("fathom-meeting.json"));
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().startsWith("imported 1 meetings with 2 tasks from 1 files"), run.out());
    String id = NameBasedIds.of("acme", "fathom", "123456789");
    JsonNode m = api.get("/api/v1/meetings/" + id, ALL).json();
    assertEquals("Acme / Globex: zqfathom pilot review", m.get("title").asText());
    assertEquals("upload", m.get("platform").asText());
    assertEquals("upload", m.get("source").asText());
    assertEquals("ready", m.get("status").asText());
    assertEquals("2026-03-02T09:01:12Z", m.get("starts_at").asText(), "the recording's start");
    assertEquals("2026-03-02T09:58:40Z", m.get("ends_at").asText());
    assertEquals("2026-03-02T10:05:00Z", m.get("created_at").asText());
    assertTrue(m.get("organizer_email").isNull());

    assertEquals(List.of("Ann Example ann@acme.com calendar true", "Gina Globex gina@globex.com calendar true",
        "Al Absent al@globex.com calendar false", "Dev Guest null platform true"), participants(id));

    JsonNode protocol = m.get("protocol");
    assertEquals("## Summary\nThe zqfathom pilot is on track.", protocol.get("content_md").asText());
    assertEquals("2026-03-02T10:05:00Z", protocol.get("generated_at").asText());
    assertEquals(NameBasedIds.of(id, "protocol"), protocol.get("id").asText());
    JsonNode tasks = api.get("/api/v1/meetings/" + id + "/action-items", ALL).json().get("data");
    assertEquals(2, tasks.size());
    assertEquals(List.of("Send the pilot report|Ann Example|open|open", "Book the follow-up|Gina Globex|done|open"),
        List.of(task(tasks.get(0)), task(tasks.get(1))));

    JsonNode transcript = api.get("/api/v1/meetings/" + id + "/transcript", ALL).json().get("data");
    assertEquals(MAPPER.readTree("""
        [{"index": 0, "speaker_name": "Ann Example", "speaker_email": "ann@acme.com", "start_ms": 5000, "end_ms": 70000,
          "text": "Welcome, let's review the zqfathomword pilot."},
         {"index": 1, "speaker_name": "Gina Globex", "speaker_email": "gina@globex.com", "start_ms": 70000, "end_ms": 120000,
          "text": "The numbers look good."},
         {"index": 2, "speaker_name": "Dev Guest", "speaker_email": null, "start_ms": 120000, "end_ms": null,
          "text": "I joined from the lobby."}]"""), transcript, "in time order; each ends where the next begins");
    api.awaitHits(ALL, "zqfathomword", List.of(id), System.nanoTime(), Duration.ofSeconds(10));
  }

  @Test
  void aFirefliesTranscriptLandsWithParticipantsMinutesTasksAndTranscript() throws Exception {
    CliRun run = importFile("fireflies", "fireflies-transcript.json", resourceText("fireflies-transcript.json"),
        "--platform", "meet", "--visible-to", "ann@acme.com");
    assertEquals(0, run.code(), run.err());
    String id = NameBasedIds.of("acme", "fireflies", "01JNQ4ZK7Y8M2X3V5T6R9S0P1Q");
    JsonNode m = api.get("/api/v1/meetings/" + id, ALL).json();
    assertEquals("Weekly zqfireflies product sync", m.get("title").asText());
    assertEquals("meet", m.get("platform").asText());
    assertEquals("2026-03-02T09:00:00Z", m.get("starts_at").asText(), "date, epoch milliseconds");
    assertEquals("2026-03-02T09:42:30Z", m.get("ends_at").asText(), "42.5 minutes later");
    assertEquals("bob@acme.com", m.get("organizer_email").asText());
    assertEquals(404, api.get("/api/v1/meetings/" + id, ApiServer.BOB).status(), "visible to ann only");
    assertEquals(200, api.get("/api/v1/meetings/" + id, ApiServer.ANN).status());

    List<String> participants = new ArrayList<>();
    for (JsonNode p : api.get("/api/v1/meetings/" + id + "/participants", ALL).json().get("data")) {
      participants.add(p.get("display_name").asText() + " " + p.get("email").asText() + " " + p.get("source").asText());
    }
    assertEquals(List.of("Bob Builder bob@acme.com calendar", "ann@acme.com ann@acme.com calendar",
        "Hank Hooli hank@hooli.com calendar"), participants, "emails joined by a comma are two participants");

    assertEquals("The team agreed to ship the API first.", m.at("/protocol/content_md").asText());
    JsonNode tasks = api.get("/api/v1/meetings/" + id + "/action-items", ALL).json().get("data");
    assertEquals(List.of("Draft the API plan (02:10)|Bob Builder|open|open", "Share it with Hooli (05:00)|Bob Builder|open|open",
        "Review the plan (06:00)|Hank Hooli|open|open"), List.of(task(tasks.get(0)), task(tasks.get(1)), task(tasks.get(2))));

    assertEquals(MAPPER.readTree("""
        [{"index": 0, "speaker_name": "Bob Builder", "speaker_email": null, "start_ms": 480, "end_ms": 3200,
          "text": "Let's start with the zqfirefliesword roadmap."},
         {"index": 1, "speaker_name": "Hank Hooli", "speaker_email": null, "start_ms": 3500, "end_ms": 6250,
          "text": "We need the API first."},
         {"index": 2, "speaker_name": "Unknown speaker", "speaker_email": null, "start_ms": 7000, "end_ms": 7900,
          "text": "(inaudible)"}]"""), api.get("/api/v1/meetings/" + id + "/transcript", ALL).json().get("data"));
    api.awaitHits(ALL, "zqfirefliesword", List.of(id), System.nanoTime(), Duration.ofSeconds(10));
  }

  @Test
  void aFileMayHoldAnArrayOrNdjsonOfObjectsAndImportingAgainReplacesThem() throws Exception {
    ObjectNode fathom = (ObjectNode) MAPPER.readTree(resourceText("fathom-meeting.json"));
    List<String> ids = new ArrayList<>(), lines = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      fathom.put("recording_id", 900 + i).put("title", "zqbatch fathom " + i);
      lines.add(MAPPER.writeValueAsString(fathom));
      ids.add(NameBasedIds.of("acme", "fathom", Integer.toString(900 + i)));
    }
    String cursor = api.cursor(ALL);
    assertEquals(0, importFile("fathom", "array.json", "[" + String.join(",\n", lines) + "]").code());
    assertEquals(0, importFile("fathom", "again.ndjson", String.join("\n", lines) + "\n").code());
    List<String> changes = new ArrayList<>();
    for (String id : ids) changes.add(id + " upsert");
    List<String> twice = new ArrayList<>(changes);
    twice.addAll(changes);
    assertEquals(twice, api.changes(ALL, cursor), "the same three meetings, twice");
    assertEquals(3, api.get("/api/v1/meetings?q=zqbatch", ALL).json().at("/pagination/total").asInt());
    CliRun page = importFile("fathom", "page.json", "{\"limit\": 10, \"next_cursor\": null, \"items\": [" + lines.get(0) + "]}");
    assertEquals(0, page.code(), page.err());
    assertTrue(page.out().startsWith("imported 1 meetings"), "a page of GET /meetings as Fathom answers it");

    ObjectNode fireflies = (ObjectNode) MAPPER.readTree(resourceText("fireflies-transcript.json"));
    String first = MAPPER.writeValueAsString(fireflies.put("id", "ff-1").put("title", "zqbatch fireflies 1"));
    String second = MAPPER.writeValueAsString(fireflies.put("id", "ff-2").put("title", "zqbatch fireflies 2"));
    CliRun run = importFile("fireflies", "graphql.json", "{\"data\": {\"transcripts\": [" + first + ", " + second + "]}}");
    assertEquals(0, run.code(), run.err());
    run = importFile("fireflies", "one.json", "{\"data\": {\"transcript\": " + first + "}}");
    assertEquals(0, run.code(), run.err());
    assertEquals(5, api.get("/api/v1/meetings?q=zqbatch", ALL).json().at("/pagination/total").asInt());
    assertEquals(200, api.get("/api/v1/meetings/" + NameBasedIds.of("acme", "fireflies", "ff-2"), ALL).status());
  }

  /** decisions.md "Transcript files as written": a speaker and an attendee are one participant by these rules only. */
  @Test
  void aSpeakerIsTheAttendeeTheirNameOrEmailPointsToWithoutDoubt() throws Exception {
    String fireflies = """
        {"id": "ff-people", "title": "zqpeople fireflies",
         "participants": ["alice.smith@acme.com, olga@acme.com, bo.lind@acme.com", "bob.stone@acme.com", "jose@acme.com",
                          "chris.ng@acme.com", "chris.ode@acme.com"],
         "meeting_attendees": [{"displayName": "Alice Smith", "email": "alice.smith@acme.com"},
                               {"displayName": "Bo Lind", "email": "bo.lind@acme.com"},
                               {"name": "Bob Stone", "email": "bob.stone@acme.com"},
                               {"displayName": "José Núñez", "email": "jose@acme.com"},
                               {"displayName": "Chris Ng", "email": "chris.ng@acme.com"},
                               {"displayName": "Chris Ode", "email": "chris.ode@acme.com"}],
         "sentences": [%s]}""".formatted(sentences("Alice", "olga", "Bo", "jose nunez", "Bob", "Sam", "Chris", "ALICE SMITH"));
    assertEquals(0, importFile("fireflies", "people.json", fireflies).code());
    assertEquals(List.of("Alice Smith alice.smith@acme.com calendar true", "olga@acme.com olga@acme.com calendar true",
        "Bo Lind bo.lind@acme.com calendar true", "Bob Stone bob.stone@acme.com calendar true",
        "José Núñez jose@acme.com calendar true", "Chris Ng chris.ng@acme.com calendar true",
        "Chris Ode chris.ode@acme.com calendar true", "Sam null platform true", "Chris null platform true"),
        participants(NameBasedIds.of("acme", "fireflies", "ff-people")),
        "first word (Alice, Bo, Bob), email's local part (olga), accents (jose nunez); two Chrises: no match");

    String fathom = """
        {"recording_id": 4242, "title": "zqpeople fathom", "created_at": "2026-03-02T10:05:00Z",
         "calendar_invitees": [{"name": "Olga Petrova", "email": "olga.petrova@globex.com"}, {"email": "ivan_k@globex.com"},
                               {"name": "Al Absent", "email": "al@globex.com"}],
         "transcript": [{"speaker": {"display_name": "Olga"}, "text": "Hi", "timestamp": "00:00:01"},
                        {"speaker": {"display_name": "Ivan Kowalski"}, "text": "Hello", "timestamp": "00:00:02"},
                        {"speaker": {"display_name": "Alan"}, "text": "Hey", "timestamp": "00:00:03"}]}""";
    assertEquals(0, importFile("fathom", "people.json", fathom).code());
    assertEquals(List.of("Olga Petrova olga.petrova@globex.com calendar true", "ivan_k@globex.com ivan_k@globex.com calendar true",
        "Al Absent al@globex.com calendar false", "Alan null platform true"),
        participants(NameBasedIds.of("acme", "fathom", "4242")),
        "a speaker known by first name, one by the first piece of an email alone; Alan is not Al");
  }

  @Test
  void aMeetingObjectWithoutTranscriptImportsWithoutOneAndTheSummaryCountsIt() throws Exception {
    CliRun run = importFile("fathom", "no-transcript.json", """
        [{"recording_id": 5151, "title": "zqnotranscript fathom", "created_at": "2026-03-02T10:05:00Z",
          "default_summary": {"markdown_formatted": "## Summary"}, "action_items": [{"description": "Call back"}]},
         {"recording_id": 5152, "title": "zqnotranscript spoken", "created_at": "2026-03-02T10:05:00Z",
          "transcript": [{"speaker": {"display_name": "Ann"}, "text": "Hi", "timestamp": "00:00:01"}]}]""");
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().startsWith("imported 2 meetings with 1 tasks from 1 files, 1 of them without a transcript ("), run.out());
    String id = NameBasedIds.of("acme", "fathom", "5151");
    assertEquals("## Summary", api.get("/api/v1/meetings/" + id, ALL).json().at("/protocol/content_md").asText());
    assertEquals(0, api.get("/api/v1/meetings/" + id + "/transcript", ALL).json().get("data").size());
    run = importFile("fireflies", "no-sentences.json", """
        {"id": "ff-silent", "title": "zqnotranscript fireflies", "summary": {"overview": "Nothing said"}}""");
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().startsWith("imported 1 meetings with 0 tasks from 1 files, 1 of them without a transcript ("), run.out());
    id = NameBasedIds.of("acme", "fireflies", "ff-silent");
    assertEquals("Nothing said", api.get("/api/v1/meetings/" + id, ALL).json().at("/protocol/content_md").asText());
    assertEquals(0, api.get("/api/v1/meetings/" + id + "/transcript", ALL).json().get("data").size());
  }

  /** Fireflies sentences, one per speaker, a second apart. */
  private static String sentences(String... speakers) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < speakers.length; i++) {
      out.add("{\"speaker_name\": \"" + speakers[i] + "\", \"text\": \"line " + i + "\", \"start_time\": " + i + "}");
    }
    return String.join(", ", out);
  }

  private static List<String> participants(String meetingId) {
    List<String> out = new ArrayList<>();
    for (JsonNode p : api.get("/api/v1/meetings/" + meetingId + "/participants", ALL).json().get("data")) {
      out.add(p.get("display_name").asText() + " " + p.get("email").asText() + " " + p.get("source").asText() + " "
          + p.get("attended").asBoolean());
    }
    return out;
  }

  private static String task(JsonNode t) {
    return t.get("task").asText() + "|" + t.get("owner_name").asText() + "|" + t.get("status").asText() + "|"
        + t.get("verdict").asText();
  }

  private static CliRun importFile(String format, String name, String text, String... options) throws IOException {
    Path file = Files.writeString(Files.createDirectories(api.dir().resolve("notetakers")).resolve(name), text);
    List<String> args = new ArrayList<>(List.of("import", "--format", format, "--workspace", "acme"));
    args.addAll(List.of(options));
    args.add(file.toString());
    return api.cli(args.toArray(String[]::new));
  }
}
