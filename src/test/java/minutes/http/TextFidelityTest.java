package minutes.http;

import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import minutes.ApiServer;
import minutes.json.Jackson;
import minutes.store.Importer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Text comes back exactly as imported, whichever way an answer is rendered: the list rows are
 * written by SQLite (json_object), a meeting by Jackson. Quotes, backslashes, control
 * characters, HTML, emoji, and text that looks like a number or a literal must all survive.
 */
class TextFidelityTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

  static final String MEETING = UUID.randomUUID().toString();
  static final String TASK = UUID.randomUUID().toString();
  static final String TITLE = "Q\"uote\\ back\nline\ttab \u0001 <b>&amp;</b> \uD83D\uDE80 Müller";
  static final String TASK_TEXT = "2026";
  static final String OWNER = "null";

  @BeforeAll
  static void importTrickyText() throws Exception {
    ObjectNode line = Jackson.MAPPER.createObjectNode()
        .put("kind", "meeting").put("workspace", "acme").put("id", MEETING).put("title", TITLE)
        .put("platform", "zoom").put("source", "calendar").put("status", "ready")
        .put("created_at", "2030-01-01T00:00:00Z");
    ObjectNode protocol = line.putArray("protocols").addObject()
        .put("id", UUID.randomUUID().toString()).put("tldr", "t").put("content_md", "c")
        .put("generated_at", "2030-01-01T01:00:00Z");
    protocol.putArray("action_items").addObject()
        .put("id", TASK).put("task", TASK_TEXT).put("owner_name", OWNER).put("due", "2030-01-02")
        .put("verdict", "open").put("status", "open");
    Path file = Files.createTempFile("minutes-text-", ".ndjson");
    try {
      Files.writeString(file, Jackson.MAPPER.writeValueAsString(line) + "\n");
      new Importer(api.store(), Importer.Progress.NONE).run(List.of(file));
    } finally {
      Files.delete(file);
    }
  }

  private static JsonNode row(String path, String id) {
    for (JsonNode row : api.get(path, ALL).json().get("data")) {
      if (row.get("id").asText().equals(id)) return row;
    }
    throw new AssertionError("no row " + id + " in " + path);
  }

  @Test
  void meetingListRowKeepsTextExactly() {
    JsonNode row = row("/api/v1/meetings?limit=200", MEETING);
    assertEquals(TITLE, row.get("title").textValue());
    assertEquals(TITLE, api.get("/api/v1/meetings/" + MEETING, ALL).json().get("title").textValue());
  }

  @Test
  void taskRowsKeepTextExactly() {
    for (String path : List.of("/api/v1/action-items?limit=200", "/api/v1/meetings/" + MEETING + "/action-items")) {
      JsonNode row = row(path, TASK);
      assertEquals(TASK_TEXT, row.get("task").textValue(), path); // a string, not the number 2026
      assertEquals(OWNER, row.get("owner_name").textValue(), path); // the word, not null
    }
    assertEquals(TITLE, row("/api/v1/action-items?limit=200", TASK).get("meeting_title").textValue());
  }
}
