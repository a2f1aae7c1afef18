package minutes.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Random;

/**
 * The fuzzer's side of POST /mcp: JSON-RPC bodies, valid (initialize, ping, tools/list, every
 * tool called with arguments of every JSON type, notifications) and broken (not JSON, cut short,
 * batches, responses instead of requests, wrong version, params of the wrong shape, deep
 * nesting), and the rules a JSON-RPC answer keeps beyond those of every answer. Stateless.
 */
final class FuzzMcp {
  private FuzzMcp() {}

  static final String[] TOOLS = {"search", "fetch", "list_meetings", "list_action_items", "get_transcript",
      "search_transcript", "no_such_tool", "", "SEARCH"};
  private static final String[] ARGUMENTS = {"q", "id", "limit", "offset", "from", "to", "platform", "participant",
      "company", "order", "status", "verdict", "due_from", "due_to", "meeting_id", "from_ms", "to_ms", "moments",
      "facets", "source", "x"};
  /** JSON-RPC's code for a failure of the server itself: never an answer to anything a client sends. */
  private static final int INTERNAL_ERROR = -32603;

  /** A body: one JSON-RPC message most of the time, something broken otherwise. */
  static String body(Random rnd, String[] meetingIds, String[] values) {
    String id = rnd.nextInt(3) > 0 ? pick(rnd, new String[] {"1", "\"a\""}) : pick(rnd, new String[] {"0", "-1", "null",
        "1.5", "9223372036854775808", "{}", "[]", "\"" + "i".repeat(300) + "\""});
    return switch (rnd.nextInt(16)) {
      case 0 -> request(id, "initialize", "{\"protocolVersion\":\"" + pick(rnd, new String[] {"2025-06-18", "2025-11-25",
          "2024-11-05", "1999-01-01", ""}) + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"}}");
      case 1 -> request(id, "tools/list", rnd.nextBoolean() ? "{}" : "{\"cursor\":\"x\"}");
      case 2 -> request(id, pick(rnd, new String[] {"ping", "resources/list", "prompts/list", "no/such", ""}), "{}");
      case 3 -> "{\"jsonrpc\":\"2.0\",\"method\":\"" + pick(rnd, new String[] {"notifications/initialized",
          "notifications/cancelled", "notifications/x"}) + "\"}";
      case 4 -> pick(rnd, new String[] {"", "{", "not json", "null", "[]", "\"text\"", "{\"jsonrpc\":\"2.0\"}",
          "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", "{\"id\":1,\"method\":\"ping\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"x\"}}",
          "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":\"search\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}", "\u0000", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}x"});
      case 5 -> "[".repeat(2000 + rnd.nextInt(3000)) + "]".repeat(rnd.nextInt(2) * 2000);
      case 6 -> request(id, "tools/call", "{\"name\":\"" + pick(rnd, TOOLS) + "\",\"arguments\":"
          + pick(rnd, new String[] {"null", "[]", "\"q\"", "7", "{\"arguments\":{}}"}) + "}");
      case 7, 8, 9 -> request(id, "tools/call", wellFormedCall(rnd, meetingIds, values));
      default -> request(id, "tools/call", "{\"name\":\"" + pick(rnd, TOOLS) + "\",\"arguments\":"
          + arguments(rnd, meetingIds, values) + "}");
    };
  }

  /** A call of a real tool with the arguments it needs, on a fixture meeting of any visibility: rows to check. */
  private static String wellFormedCall(Random rnd, String[] meetingIds, String[] values) {
    String meeting = json(pick(rnd, meetingIds)), q = json(pick(rnd, new String[] {"budget", "planning", "\"launch plan\"",
        pick(rnd, values)}));
    return switch (rnd.nextInt(6)) {
      case 0 -> "{\"name\":\"search\",\"arguments\":{\"q\":" + q + "}}";
      case 1 -> "{\"name\":\"fetch\",\"arguments\":{\"id\":" + meeting + "}}";
      case 2 -> "{\"name\":\"list_meetings\",\"arguments\":{}}";
      case 3 -> "{\"name\":\"list_action_items\",\"arguments\":{}}";
      case 4 -> "{\"name\":\"get_transcript\",\"arguments\":{\"id\":" + meeting + "}}";
      default -> "{\"name\":\"search_transcript\",\"arguments\":{\"id\":" + meeting + ",\"q\":" + q + "}}";
    };
  }

  /** A tools/call's arguments: known and unknown names with values of every JSON type, often a fixture meeting's id. */
  private static String arguments(Random rnd, String[] meetingIds, String[] values) {
    StringBuilder a = new StringBuilder("{");
    for (int i = 0, n = rnd.nextInt(5); i < n; i++) {
      String name = pick(rnd, ARGUMENTS);
      String value = switch (rnd.nextInt(8)) {
        case 0 -> "\"" + pick(rnd, meetingIds) + "\"";
        case 1 -> pick(rnd, new String[] {"0", "1", "-1", "100", "5000", "1e3", "2.5", "9223372036854775808", "-0"});
        case 2 -> pick(rnd, new String[] {"true", "false", "null"});
        case 3 -> pick(rnd, new String[] {"[]", "[\"zoom\"]", "{}", "{\"q\":\"x\"}", "[[[]]]"});
        default -> json(pick(rnd, values));
      };
      a.append(i == 0 ? "" : ",").append(json(name)).append(':').append(value);
    }
    return a.append('}').toString();
  }

  private static String request(String id, String method, String params) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}";
  }

  /**
   * What is wrong with an answer of /mcp that REST's rules do not cover, or null: a 2xx carries
   * one JSON-RPC response (202 and no body for a notification) that is never an internal error;
   * a 400 that our REST error shape does not explain is JSON-RPC's own parse or invalid-request
   * error. {@code restShape} is what the REST error check said of the body (null: it is ours).
   */
  static String check(int status, JsonNode json, int bodyLength, String restShape) {
    if (status == 202) return bodyLength == 0 ? null : "202 with a body";
    if (status == 200) {
      if (!json.path("jsonrpc").asText().equals("2.0")) return "a 200 of /mcp that is no JSON-RPC 2.0 response";
      if (json.has("result") == json.has("error")) return "a JSON-RPC response needs exactly one of result and error";
      if (json.path("error").path("code").asInt() == INTERNAL_ERROR) return "JSON-RPC internal error: the server failed";
      return null;
    }
    if (status == 400 && restShape != null) {
      int code = json.path("error").path("code").asInt();
      return json.path("jsonrpc").asText().equals("2.0") && (code == -32700 || code == -32600) ? null
          : "a 400 of /mcp that is neither our error body nor JSON-RPC's parse/invalid-request error";
    }
    return restShape;
  }

  /** What kind of answer a JSON-RPC body is, for the run's summary. */
  static String kind(int status, JsonNode json) {
    if (json.has("result")) return status + (json.path("result").path("isError").asBoolean() ? " tool error" : " result");
    return status + (json.has("error") ? " JSON-RPC error " + json.path("error").path("code").asInt() : " other");
  }

  private static String json(String s) {
    return TextNode.valueOf(s).toString();
  }

  private static <T> T pick(Random rnd, T[] options) {
    return options[rnd.nextInt(options.length)];
  }
}
