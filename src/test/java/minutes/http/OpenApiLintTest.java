package minutes.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import minutes.NodeTool;
import minutes.StoreIndependent;
import org.junit.jupiter.api.Test;

/** openapi.json as its users' tools read it: Redocly's recommended lint, no error and no warning (issue 14). */
@StoreIndependent
class OpenApiLintTest {
  private static final String DOC = "../../main/resources/openapi.json";
  private static final String REDOCLY = "node_modules/@redocly/cli/bin/cli.js";

  @Test
  void redoclyRecommendedLintFindsNothing() throws Exception {
    NodeTool.Run json = NodeTool.node(Map.of(), REDOCLY, "lint", "--config", "redocly.yaml", "--format", "json", DOC);
    JsonNode report = new ObjectMapper().readTree(json.out());
    JsonNode totals = report.get("totals");
    if (totals.get("errors").asInt() + totals.get("warnings").asInt() + totals.get("ignored").asInt() > 0) {
      NodeTool.Run readable = NodeTool.node(Map.of(), REDOCLY, "lint", "--config", "redocly.yaml", "--format", "stylish", DOC);
      throw new AssertionError("redocly lint: " + totals + "\n" + readable.out() + readable.err());
    }
    assertEquals(0, json.exit(), json.err());
  }
}
