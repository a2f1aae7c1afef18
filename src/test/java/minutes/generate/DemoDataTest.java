package minutes.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import minutes.StoreIndependent;
import minutes.formats.ImportWriter.Counts;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@StoreIndependent
class DemoDataTest {
  private static final Pattern DATE_TIME = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
  private static final Pattern DATE = Pattern.compile("\\d{4}-\\d\\d-\\d\\d");
  private static final Pattern UUID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  private static final Set<String> INTERNAL = Set.of("demo.example", "demo-example.de", "other.example");

  private static String ndjson;
  private static Counts counts;
  private static List<JsonNode> lines;
  private static List<JsonNode> meetings;

  @BeforeAll
  static void generate() throws IOException {
    StringWriter out = new StringWriter();
    counts = DemoData.write(TestCorpus.get(), out);
    ndjson = out.toString();
    ObjectMapper json = new ObjectMapper();
    lines = new ArrayList<>();
    for (String line : ndjson.split("\n")) {
      lines.add(json.readTree(line));
    }
    meetings = lines.stream().filter(l -> l.path("kind").asText().equals("meeting")).toList();
  }

  @Test
  void everyLineIsAnObjectWithAKind() {
    assertTrue(ndjson.endsWith("\n"));
    Set<String> kinds = Set.of("workspace", "user", "company", "meeting");
    for (JsonNode line : lines) {
      assertTrue(line.isObject());
      assertTrue(kinds.contains(line.path("kind").asText()), line.toString());
    }
    assertEquals(30, meetings.size());
    assertEquals(new Counts(30, countTasks(meetings)), counts);
  }

  @Test
  void isDeterministic() throws IOException {
    StringWriter again = new StringWriter();
    DemoData.write(TestCorpus.get(), again);
    assertEquals(ndjson, again.toString());
  }

  @Test
  void idsAreUniqueLowerCaseUuidsAndTimesAreUtc() {
    Set<String> ids = new HashSet<>();
    for (JsonNode line : lines) {
      walk(line, (field, value) -> {
        if (field.equals("id") || field.equals("template_id")) {
          if (!value.isNull()) {
            assertTrue(UUID.matcher(value.asText()).matches(), value.asText());
            if (field.equals("id")) {
              assertTrue(ids.add(value.asText()), "duplicate id " + value.asText());
            }
          }
        } else if (field.endsWith("_at")) {
          assertTrue(value.isNull() || DATE_TIME.matcher(value.asText()).matches(), field + "=" + value);
        } else if (field.equals("due")) {
          assertTrue(value.isNull() || DATE.matcher(value.asText()).matches(), value.toString());
        }
      });
    }
    assertTrue(ids.size() > 150);
  }

  @Test
  void workspacesUsersAndCompanies() {
    JsonNode demo = only(l -> kind(l, "workspace") && l.get("slug").asText().equals("demo"));
    assertEquals("Demo Co", demo.get("name").asText());
    assertEquals(List.of("demo.example", "demo-example.de"), strings(demo.get("domains")));
    JsonNode other = only(l -> kind(l, "workspace") && l.get("slug").asText().equals("other"));
    assertFalse(strings(other.get("domains")).contains("demo.example"));
    List<String> demoUsers = lines.stream()
        .filter(l -> kind(l, "user") && l.get("workspace").asText().equals("demo"))
        .map(l -> l.get("email").asText()).toList();
    assertEquals(List.of("ann@demo.example", "bob@demo.example"), demoUsers);
    assertEquals(1, lines.stream().filter(l -> kind(l, "user") && l.get("workspace").asText().equals("other")).count());

    List<JsonNode> companies = lines.stream().filter(l -> kind(l, "company") && l.get("workspace").asText().equals("demo")).toList();
    assertEquals(4, companies.size());
    Map<String, Integer> meetingsPerDomain = new HashMap<>();
    for (JsonNode c : companies) {
      String domain = c.get("domains").get(0).asText();
      meetingsPerDomain.put(domain, (int) demoMeetings().stream()
          .filter(m -> emails(m).stream().anyMatch(e -> e.endsWith("@" + domain))).count());
    }
    assertTrue(meetingsPerDomain.get("globex.example") > 0);
    assertTrue(meetingsPerDomain.get("initech.example") > 0);
    assertTrue(meetingsPerDomain.get("umbrella.example") > 0);
    assertEquals(1, meetingsPerDomain.values().stream().filter(n -> n == 0).count(), "one company without meetings");
  }

  @Test
  void theOtherWorkspaceIsSeparate() {
    List<JsonNode> others = meetings.stream().filter(m -> m.get("workspace").asText().equals("other")).toList();
    assertEquals(3, others.size());
    for (JsonNode m : others) {
      assertEquals(List.of("olivia@other.example"), strings(m.get("visible_to")));
    }
    for (JsonNode m : demoMeetings()) {
      for (String e : strings(m.get("visible_to"))) {
        assertTrue(e.endsWith("@demo.example"), e);
      }
      assertTrue(emails(m).stream().noneMatch(e -> e.endsWith("@other.example")));
    }
  }

  @Test
  void annAndBobSeeDifferentOverlappingMeetings() {
    Set<String> ann = visibleTo("ann@demo.example");
    Set<String> bob = visibleTo("bob@demo.example");
    Set<String> both = new HashSet<>(ann);
    both.retainAll(bob);
    assertFalse(both.isEmpty());
    assertFalse(bob.containsAll(ann));
    assertFalse(ann.containsAll(bob));
    assertTrue(demoMeetings().stream().anyMatch(m -> m.get("visible_to").isEmpty()), "a meeting only workspace keys see");
  }

  @Test
  void everyStatusPlatformAndSourceAppears() {
    Map<String, Integer> statuses = histogram(meetings, m -> m.get("status").asText());
    assertEquals(Set.of("scheduled", "live", "processing", "ready", "failed", "no_bot", "no_speech"), statuses.keySet());
    assertEquals(Set.of("teams", "meet", "zoom", "upload"), histogram(meetings, m -> m.get("platform").asText()).keySet());
    assertEquals(Set.of("calendar", "url", "upload"), histogram(meetings, m -> m.get("source").asText()).keySet());
    for (JsonNode m : meetings) {
      String status = m.get("status").asText();
      if (!m.get("protocols").isEmpty()) {
        assertTrue(status.equals("ready") || status.equals("processing"), status);
      }
      if (status.equals("ready")) {
        assertFalse(m.get("protocols").isEmpty());
      }
      if (status.equals("scheduled") || status.equals("no_bot")) {
        assertTrue(m.get("transcript").isEmpty(), status);
      }
    }
    assertTrue(meetings.stream().anyMatch(m -> m.get("status").asText().equals("processing") && !m.get("protocols").isEmpty()));
    assertTrue(meetings.stream().anyMatch(m -> m.get("status").asText().equals("processing") && m.get("protocols").isEmpty()));
    assertTrue(meetings.stream().anyMatch(m -> m.get("organizer_email").isNull()));
    assertTrue(meetings.stream().anyMatch(m -> !m.get("organizer_email").isNull()));
    assertTrue(meetings.stream().anyMatch(m -> !m.get("template_id").isNull()));
  }

  @Test
  void exactlyOneUploadWithoutCalendarData() {
    List<JsonNode> uploads = meetings.stream().filter(m -> m.get("platform").asText().equals("upload")).toList();
    assertEquals(1, uploads.size());
    JsonNode u = uploads.getFirst();
    assertEquals("upload", u.get("source").asText());
    assertTrue(u.get("starts_at").isNull() && u.get("ends_at").isNull() && u.get("join_url").isNull());
    for (JsonNode p : u.get("participants")) {
      assertNotEquals("calendar", p.get("source").asText());
    }
    assertFalse(u.get("transcript").isEmpty());
  }

  @Test
  void timesAreConsistent() {
    for (JsonNode m : meetings) {
      Instant created = time(m.get("created_at"));
      if (m.get("starts_at").isNull()) {
        continue;
      }
      Instant starts = time(m.get("starts_at"));
      Instant ends = time(m.get("ends_at"));
      assertTrue(created.isBefore(starts), m.get("title").asText());
      assertTrue(starts.toString().startsWith("2026-"));
      long minutes = (ends.getEpochSecond() - starts.getEpochSecond()) / 60;
      assertTrue(minutes >= 15 && minutes <= 180, m.get("title") + " lasts " + minutes);
      for (JsonNode p : m.get("participants")) {
        if (!p.get("approx_joined_at").isNull()) {
          assertFalse(time(p.get("approx_joined_at")).isBefore(starts));
          assertFalse(time(p.get("approx_joined_at")).isAfter(ends));
        }
        if (!p.get("approx_left_at").isNull()) {
          assertFalse(time(p.get("approx_left_at")).isAfter(ends));
          assertFalse(time(p.get("approx_left_at")).isBefore(time(p.get("approx_joined_at"))));
        }
      }
      for (JsonNode pr : m.get("protocols")) {
        assertTrue(time(pr.get("generated_at")).isAfter(ends));
        if (!pr.get("edited_at").isNull()) {
          assertTrue(time(pr.get("edited_at")).isAfter(time(pr.get("generated_at"))));
        }
      }
    }
  }

  @Test
  void participantsMixInternalExternalGuestsAndAbsentees() {
    List<JsonNode> all = new ArrayList<>();
    meetings.forEach(m -> m.get("participants").forEach(all::add));
    assertEquals(Set.of("calendar", "platform", "manual"), histogram(all, p -> p.get("source").asText()).keySet());
    assertTrue(all.stream().anyMatch(p -> p.get("email").asText("").endsWith("@gmail.example")));
    assertTrue(all.stream().anyMatch(p -> p.get("email").isNull()));
    assertTrue(all.stream().anyMatch(p -> p.get("email").asText("").endsWith("@demo-example.de")));
    for (String domain : List.of("globex.example", "initech.example", "umbrella.example")) {
      assertTrue(all.stream().anyMatch(p -> p.get("email").asText("").endsWith("@" + domain)), domain);
    }
    assertTrue(meetings.stream().anyMatch(m -> has(m.get("participants"),
        p -> !p.get("attended").asBoolean() && p.get("approx_joined_at").isNull()) && m.get("status").asText().equals("ready")),
        "someone invited to a held meeting who never came");
  }

  @Test
  void protocolsHaveMarkdownTasksAndOneRegeneration() {
    Map<String, Integer> verdicts = new HashMap<>();
    Map<String, Integer> statuses = new HashMap<>();
    int nullTldr = 0;
    int edited = 0;
    for (JsonNode m : meetings) {
      for (JsonNode p : m.get("protocols")) {
        String md = p.get("content_md").asText();
        assertTrue(md.contains("\n## ") && md.contains("\n- ") && md.contains("**") && md.contains("](https://"), md);
        int tasks = p.get("action_items").size();
        assertTrue(tasks >= 3 && tasks <= 10, "tasks: " + tasks);
        for (JsonNode a : p.get("action_items")) {
          verdicts.merge(a.get("verdict").asText(), 1, Integer::sum);
          statuses.merge(a.get("status").asText(), 1, Integer::sum);
          assertTrue(a.get("task").asText().endsWith("."));
        }
        nullTldr += p.get("tldr").isNull() ? 1 : 0;
        edited += p.get("edited_at").isNull() ? 0 : 1;
      }
    }
    assertEquals(Set.of("open", "resolved_in_meeting", "discarded", "duplicate", "unclear_owner"), verdicts.keySet());
    assertEquals(Set.of("open", "done", "dismissed"), statuses.keySet());
    verdicts.values().forEach(n -> assertTrue(n >= 3, verdicts.toString()));
    statuses.values().forEach(n -> assertTrue(n >= 3, statuses.toString()));
    assertEquals(1, nullTldr);
    assertTrue(edited >= 2);

    List<JsonNode> twice = meetings.stream().filter(m -> m.get("protocols").size() == 2).toList();
    assertEquals(1, twice.size());
    assertEquals(0, meetings.stream().filter(m -> m.get("protocols").size() > 2).count());
    JsonNode older = twice.getFirst().get("protocols").get(0);
    JsonNode newer = twice.getFirst().get("protocols").get(1);
    assertTrue(time(older.get("generated_at")).isBefore(time(newer.get("generated_at"))));
    assertNotEquals(taskTexts(older), taskTexts(newer));
  }

  @Test
  void ownersAreMostlyParticipants() {
    int owned = 0;
    int byParticipant = 0;
    int dueSet = 0;
    int tasks = 0;
    for (JsonNode m : meetings) {
      Set<String> names = new HashSet<>();
      m.get("participants").forEach(p -> names.add(p.get("display_name").asText()));
      for (JsonNode p : m.get("protocols")) {
        for (JsonNode a : p.get("action_items")) {
          tasks++;
          dueSet += a.get("due").isNull() ? 0 : 1;
          if (!a.get("owner_name").isNull()) {
            owned++;
            byParticipant += names.contains(a.get("owner_name").asText()) ? 1 : 0;
          }
        }
      }
    }
    assertEquals(owned, byParticipant);
    assertTrue(owned > tasks / 2 && owned < tasks);
    assertTrue(dueSet > tasks / 2 && dueSet < tasks);
  }

  @Test
  void transcriptsAreTimedAndVoicedByParticipants() {
    for (JsonNode m : meetings) {
      Map<String, String> emailByName = new HashMap<>();
      m.get("participants").forEach(p -> emailByName.put(p.get("display_name").asText(), p.get("email").asText(null)));
      long lastStart = -1;
      for (JsonNode s : m.get("transcript")) {
        String name = s.get("speaker_name").asText();
        assertTrue(emailByName.containsKey(name), name + " speaks in " + m.get("title"));
        String email = emailByName.get(name);
        boolean internal = email != null && INTERNAL.contains(email.substring(email.indexOf('@') + 1));
        assertEquals(internal ? email : null, s.get("speaker_email").asText(null));
        long start = s.get("start_ms").asLong();
        assertTrue(start > lastStart);
        assertTrue(s.get("end_ms").isNull() || s.get("end_ms").asLong() > start);
        assertFalse(s.get("text").asText().isBlank());
        lastStart = start;
      }
    }
  }

  @Test
  void holdsTheScriptSegmentAndTheGermanMeeting() {
    long scripts = meetings.stream()
        .flatMap(m -> stream(m.get("transcript")))
        .filter(s -> s.get("text").asText().contains("<script>alert(1)</script>"))
        .count();
    assertEquals(1, scripts);
    JsonNode german = only(l -> kind(l, "meeting") && l.get("title").asText().equals("Quartalsplanung mit Müller"));
    assertTrue(stream(german.get("transcript")).anyMatch(s -> s.get("text").asText().contains("Wir prüfen die Größe der Änderung")));
  }

  // --- helpers ---

  private static List<JsonNode> demoMeetings() {
    return meetings.stream().filter(m -> m.get("workspace").asText().equals("demo")).toList();
  }

  private static Set<String> visibleTo(String email) {
    Set<String> ids = new HashSet<>();
    for (JsonNode m : demoMeetings()) {
      if (strings(m.get("visible_to")).contains(email)) {
        ids.add(m.get("id").asText());
      }
    }
    return ids;
  }

  private static List<String> emails(JsonNode meeting) {
    List<String> emails = new ArrayList<>();
    meeting.get("participants").forEach(p -> {
      if (!p.get("email").isNull()) {
        emails.add(p.get("email").asText());
      }
    });
    return emails;
  }

  private static Set<String> taskTexts(JsonNode protocol) {
    Set<String> texts = new HashSet<>();
    protocol.get("action_items").forEach(a -> texts.add(a.get("task").asText()));
    return texts;
  }

  private static long countTasks(List<JsonNode> meetings) {
    return meetings.stream().flatMap(m -> stream(m.get("protocols"))).mapToLong(p -> p.get("action_items").size()).sum();
  }

  private static boolean kind(JsonNode line, String kind) {
    return line.get("kind").asText().equals(kind);
  }

  private static JsonNode only(Predicate<JsonNode> test) {
    List<JsonNode> found = lines.stream().filter(test).toList();
    assertEquals(1, found.size());
    return found.getFirst();
  }

  private static boolean has(JsonNode array, Predicate<JsonNode> test) {
    return stream(array).anyMatch(test);
  }

  private static java.util.stream.Stream<JsonNode> stream(JsonNode array) {
    List<JsonNode> list = new ArrayList<>();
    array.forEach(list::add);
    return list.stream();
  }

  private static List<String> strings(JsonNode array) {
    return stream(array).map(JsonNode::asText).toList();
  }

  private static <T> Map<String, Integer> histogram(List<T> items, java.util.function.Function<T, String> key) {
    Map<String, Integer> counts = new HashMap<>();
    items.forEach(i -> counts.merge(key.apply(i), 1, Integer::sum));
    return counts;
  }

  private static Instant time(JsonNode value) {
    assertNotNull(value);
    return Instant.parse(value.asText());
  }

  private interface FieldVisitor {
    void visit(String field, JsonNode value);
  }

  private static void walk(JsonNode node, FieldVisitor visitor) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        visitor.visit(e.getKey(), e.getValue());
        walk(e.getValue(), visitor);
      }
    } else if (node.isArray()) {
      node.forEach(child -> walk(child, visitor));
    }
  }
}
