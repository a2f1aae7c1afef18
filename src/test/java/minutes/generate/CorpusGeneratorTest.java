package minutes.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import minutes.StoreIndependent;
import minutes.formats.ImportWriter.Counts;
import minutes.generate.CorpusGenerator.Options;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@StoreIndependent
class CorpusGeneratorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static CorpusGenerator generator;

  @BeforeAll
  static void prepare() {
    generator = new CorpusGenerator(TestCorpus.get());
  }

  private static String generate(Options options) throws IOException {
    StringWriter out = new StringWriter();
    generator.write(options, out);
    return out.toString();
  }

  private static List<JsonNode> parse(String ndjson) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : ndjson.split("\n")) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }

  private static List<JsonNode> meetings(List<JsonNode> lines) {
    return lines.stream().filter(l -> l.get("kind").asText().equals("meeting")).toList();
  }

  @Test
  void sameSeedSameBytesOtherSeedOtherBytes() throws IOException {
    Options one = new Options(40, 7, 5, 2, 6, 2, 3);
    String first = generate(one);
    assertEquals(first, generate(one));
    assertNotEquals(first, generate(new Options(40, 8, 5, 2, 6, 2, 3)));
  }

  @Test
  void writesExactlyTheRequestedMeetingsAndTasks() throws IOException {
    StringWriter out = new StringWriter();
    Counts counts = generator.write(new Options(250, 3, 20, 0, 0, 1, 5), out);
    List<JsonNode> lines = parse(out.toString());
    List<JsonNode> meetings = meetings(lines);
    assertEquals(250, meetings.size());
    long tasks = 0;
    Set<String> ids = new HashSet<>();
    Map<String, Integer> statuses = new HashMap<>();
    for (JsonNode m : meetings) {
      assertTrue(ids.add(m.get("id").asText()));
      statuses.merge(m.get("status").asText(), 1, Integer::sum);
      assertTrue(m.get("transcript").isEmpty(), "0 KB means no transcripts");
      for (JsonNode p : m.get("protocols")) {
        assertTrue(ids.add(p.get("id").asText()));
        for (JsonNode a : p.get("action_items")) {
          assertTrue(ids.add(a.get("id").asText()));
          tasks++;
        }
      }
    }
    assertEquals(250L * 20, tasks);
    assertEquals(new Counts(250, tasks), counts);
    assertTrue(statuses.get("ready") > 150, statuses.toString());
    // Everything before the first meeting: the workspace, its users and companies.
    int firstMeeting = lines.indexOf(meetings.getFirst());
    assertTrue(lines.subList(firstMeeting, lines.size()).stream().allMatch(l -> l.get("kind").asText().equals("meeting")));
    assertEquals(5, lines.stream().filter(l -> l.get("kind").asText().equals("user")).count());
  }

  @Test
  void transcriptsStayWithinTheSizeRange() throws IOException {
    List<JsonNode> meetings = meetings(parse(generate(new Options(60, 11, 4, 3, 5, 1, 5))));
    int sized = 0;
    for (JsonNode m : meetings) {
      long bytes = 0;
      long lastStart = -1;
      for (JsonNode s : m.get("transcript")) {
        bytes += s.get("text").asText().getBytes(StandardCharsets.UTF_8).length;
        assertTrue(s.get("start_ms").asLong() > lastStart);
        lastStart = s.get("start_ms").asLong();
      }
      String status = m.get("status").asText();
      if (Set.of("ready", "processing", "live").contains(status)) {
        assertTrue(bytes >= 3 * 1024 && bytes <= 5 * 1024, status + ": " + bytes + " bytes");
        sized++;
      } else {
        assertTrue(bytes < 200, status + ": " + bytes + " bytes");
      }
    }
    assertTrue(sized > 40);
  }

  @Test
  void workspacesKeepTheirUsersAndTheFirstIsTheLargest() throws IOException {
    List<JsonNode> lines = parse(generate(new Options(200, 5, 2, 0, 0, 3, 4)));
    Map<String, Set<String>> users = new HashMap<>();
    for (JsonNode l : lines) {
      if (l.get("kind").asText().equals("user")) {
        users.computeIfAbsent(l.get("workspace").asText(), w -> new HashSet<>()).add(l.get("email").asText());
      }
    }
    assertEquals(3, users.size());
    users.values().forEach(u -> assertEquals(4, u.size()));
    Map<String, Integer> perWorkspace = new HashMap<>();
    Map<String, Integer> seenByUser = new HashMap<>();
    for (JsonNode m : meetings(lines)) {
      String ws = m.get("workspace").asText();
      perWorkspace.merge(ws, 1, Integer::sum);
      for (JsonNode v : m.get("visible_to")) {
        assertTrue(users.get(ws).contains(v.asText()), v.asText() + " is not a user of " + ws);
        seenByUser.merge(v.asText(), 1, Integer::sum);
      }
    }
    int first = perWorkspace.get("bench-1");
    assertTrue(first > perWorkspace.get("bench-2") && first > perWorkspace.get("bench-3"), perWorkspace.toString());
    // Users see different subsets: neither nothing nor everything.
    for (String u : users.get("bench-1")) {
      int seen = seenByUser.getOrDefault(u, 0);
      assertTrue(seen > 0 && seen < first, u + " sees " + seen + " of " + first);
    }
  }

  @Test
  void rejectsImpossibleOptions() {
    assertThrows(IllegalArgumentException.class, () -> new Options(-1, 1, 20, 0, 0, 1, 5));
    assertThrows(IllegalArgumentException.class, () -> new Options(1, 1, 20, 50, 40, 1, 5));
    assertThrows(IllegalArgumentException.class, () -> new Options(1, 1, 20, 0, 0, 0, 5));
  }
}
