package minutes.mcp;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.ApiServer.MEETINGS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * /mcp through the official Java SDK client: every tool answers what its REST twin answers,
 * key by key, and the client finds each answer valid against the tool's output schema.
 */
class McpJavaClientTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  private static final ObjectMapper JSON = new ObjectMapper();

  private static McpSyncClient client(String keyName) {
    HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
        .builder(api.uri("").toString())
        .endpoint("/mcp")
        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + api.key(keyName)))
        .build();
    // Schema caching makes the client check every structured answer against the tool's output schema.
    McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20))
        .enableCallToolSchemaCaching(true).build();
    McpSchema.InitializeResult init = client.initialize();
    assertEquals("minutes", init.serverInfo().name());
    assertTrue(List.of("2025-06-18", "2025-11-25").contains(init.protocolVersion()), init.protocolVersion());
    return client;
  }

  @Test
  void everyToolAnswersWhatItsRestTwinAnswersForTheSameKey() throws Exception {
    for (String key : List.of(ALL, ANN, BOB)) {
      try (McpSyncClient client = client(key)) {
        assertEquals(6, client.listTools().tools().size());
        for (TwinCases.Case c : TwinCases.CASES) {
          McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(c.tool(), c.arguments()));
          ApiServer.Response rest = api.get(c.rest(), key);
          String what = key + " " + c.tool() + " " + c.arguments();
          if (rest.status() != 200) {
            assertTrue(result.isError(), what);
            JsonNode error = JSON.readTree(((McpSchema.TextContent) result.content().get(0)).text());
            assertEquals(rest.json(), error, what);
            continue;
          }
          assertFalse(result.isError(), what + ": " + result);
          assertEquals(rest.json(), JSON.valueToTree(result.structuredContent()), what);
          assertEquals(rest.body(), ((McpSchema.TextContent) result.content().get(0)).text(), what);
        }
      }
    }
  }

  @Test
  void aPersonalKeySeesThroughMcpWhatItSeesThroughRest() {
    try (McpSyncClient ann = client(ANN); McpSyncClient bob = client(BOB)) {
      JsonNode annList = JSON.valueToTree(ann.callTool(new McpSchema.CallToolRequest("list_meetings", Map.of()))
          .structuredContent());
      JsonNode bobList = JSON.valueToTree(bob.callTool(new McpSchema.CallToolRequest("list_meetings", Map.of()))
          .structuredContent());
      assertEquals(ApiServer.column(api.get("/api/v1/meetings", ANN).json(), "id"), ApiServer.column(annList, "id"));
      assertEquals(ApiServer.column(api.get("/api/v1/meetings", BOB).json(), "id"), ApiServer.column(bobList, "id"));
      assertFalse(ApiServer.column(annList, "id").equals(ApiServer.column(bobList, "id")));
    }
  }

  @Test
  void toolsTheKeyLacksTheScopeForAreNeitherListedNorAnswered() throws Exception {
    try (McpSyncClient client = client(MEETINGS)) {
      assertEquals(List.of("search", "fetch", "list_meetings"),
          client.listTools().tools().stream().map(McpSchema.Tool::name).toList());
      McpSchema.CallToolResult refused = client.callTool(
          new McpSchema.CallToolRequest("list_action_items", Map.of()));
      assertTrue(refused.isError());
      assertTrue(((McpSchema.TextContent) refused.content().get(0)).text().contains("action_items:read"));
      McpSchema.CallToolResult noMoments = client.callTool(
          new McpSchema.CallToolRequest("search", Map.of("q", "budget", "moments", 3)));
      assertTrue(noMoments.isError(), "moments need transcripts:read, as over REST");
      assertEquals(api.get("/api/v1/search?q=budget&moments=3", MEETINGS).json(),
          JSON.readTree(((McpSchema.TextContent) noMoments.content().get(0)).text()));
    }
  }
}
