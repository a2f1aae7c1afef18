package minutes.mcp;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.TRANSCRIPTS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import minutes.ApiServer;
import minutes.NodeTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * /mcp through the official TypeScript SDK client (@modelcontextprotocol/sdk, run by node from
 * src/test/node/mcp-client.mjs): it negotiates, lists the tools, checks each answer against
 * the tool's output schema, and every answer equals the REST twin's for the same key.
 */
class McpTypeScriptClientTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode run(String keyName) throws Exception {
    Path cases = Files.createTempFile("mcp-cases-", ".json");
    try {
      List<Map<String, Object>> calls = new ArrayList<>();
      for (TwinCases.Case c : TwinCases.CASES) calls.add(Map.of("tool", c.tool(), "arguments", c.arguments()));
      JSON.writeValue(cases.toFile(), calls);
      NodeTool.Run run = NodeTool.node(Map.of("MINUTES_KEY", api.key(keyName)), "mcp-client.mjs",
          api.uri("/mcp").toString(), cases.toAbsolutePath().toString());
      assertEquals(0, run.exit(), run.err());
      return JSON.readTree(run.out());
    } finally {
      Files.delete(cases);
    }
  }

  @Test
  void everyToolAnswersWhatItsRestTwinAnswers() throws Exception {
    for (String key : List.of(ALL, ANN, TRANSCRIPTS)) {
      JsonNode out = run(key);
      assertTrue(List.of("2025-06-18", "2025-11-25").contains(out.get("protocolVersion").asText()), out.toString());
      assertEquals("minutes", out.get("server").asText());
      List<String> listed = new ArrayList<>();
      out.get("tools").forEach(t -> listed.add(t.get("name").asText()));
      assertEquals(key.equals(TRANSCRIPTS) ? List.of("get_transcript", "search_transcript")
          : List.of("search", "fetch", "list_meetings", "list_action_items", "get_transcript", "search_transcript"), listed);
      for (int i = 0; i < TwinCases.CASES.size(); i++) {
        TwinCases.Case c = TwinCases.CASES.get(i);
        JsonNode result = out.get("results").get(i);
        ApiServer.Response rest = api.get(c.rest(), key);
        String what = key + " " + c.tool() + " " + c.arguments();
        String text = result.at("/content/0/text").asText();
        if (rest.status() != 200) {
          assertTrue(result.get("isError").asBoolean(), what);
          assertEquals(rest.json(), JSON.readTree(text), what);
          continue;
        }
        assertFalse(result.path("isError").asBoolean(), what + ": " + result);
        assertEquals(rest.json(), result.get("structuredContent"), what);
        assertEquals(rest.body(), text, what);
      }
    }
  }
}
