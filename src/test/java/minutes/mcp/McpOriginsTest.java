package minutes.mcp;

import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** mcp.allowed_origins as an operator sets it: only the listed pages may call /mcp. */
class McpOriginsTest {
  @RegisterExtension static final ApiServer api = new ApiServer("/fixtures.ndjson",
      Map.of("MINUTES_MCP_ALLOWED_ORIGINS", "https://agent.example.com,http://10.1.2.3:*"));

  private static int status(String origin) {
    Map<String, String> h = new java.util.HashMap<>(McpProtocolTest.headers(api.key(ALL)));
    if (origin != null) h.put("Origin", origin);
    return api.post("/mcp", h, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").status();
  }

  @Test
  void onlyTheConfiguredOriginsAreAllowed() {
    assertEquals(200, status("https://agent.example.com"));
    assertEquals(200, status("http://10.1.2.3:9000"));
    assertEquals(200, status(null), "not a browser page");
    assertEquals(403, status("http://agent.example.com"), "another scheme is another origin");
    assertEquals(403, status("https://agent.example.com:8443"));
    assertEquals(403, status("http://localhost:3000"), "the loopback default is replaced, not extended");
  }
}
