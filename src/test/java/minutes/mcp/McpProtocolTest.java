package minutes.mcp;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.ApiServer.MEETINGS;
import static minutes.ApiServer.REVOKED;
import static minutes.ApiServer.TASKS;
import static minutes.ApiServer.TRANSCRIPTS;
import static minutes.Fixtures.M1;
import static minutes.Fixtures.O1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** /mcp at the HTTP and JSON-RPC level: what it refuses, and how, before and inside the SDK. */
class McpProtocolTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String ACCEPT = "application/json, text/event-stream";

  static Map<String, String> headers(String key) {
    Map<String, String> h = new HashMap<>(Map.of("Content-Type", "application/json", "Accept", ACCEPT));
    if (key != null) h.put("Authorization", "Bearer " + key);
    return h;
  }

  private static ApiServer.Response post(String keyName, String body) {
    return api.post("/mcp", headers(keyName == null ? null : api.key(keyName)), body);
  }

  private static ApiServer.Response post(Map<String, String> headers, String body) {
    return api.post("/mcp", headers, body);
  }

  /** A tools/call's result; asserts the HTTP exchange itself succeeded. */
  static JsonNode call(String keyName, String tool, String arguments) {
    ApiServer.Response r = post(keyName, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool + "\",\"arguments\":" + arguments + "}}");
    assertEquals(200, r.status(), r.body());
    assertEquals(7, r.json().get("id").asInt());
    return r.json().get("result");
  }

  /** The REST error body a tool error carries as its text. */
  static JsonNode toolError(JsonNode result) {
    assertTrue(result.get("isError").asBoolean(), result.toString());
    assertFalse(result.has("structuredContent"), result.toString());
    try {
      return JSON.readTree(result.at("/content/0/text").asText()).get("error");
    } catch (Exception e) {
      throw new AssertionError("tool error text is not the error body: " + result, e);
    }
  }

  private static List<String> toolNames(String keyName) {
    ApiServer.Response r = post(keyName, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
    assertEquals(200, r.status(), r.body());
    List<String> names = new java.util.ArrayList<>();
    r.json().at("/result/tools").forEach(t -> names.add(t.get("name").asText()));
    return names;
  }

  @Test
  void noKeyOrABadKeyIs401WithABearerChallenge() {
    Map<String, String> malformed = headers(null);
    malformed.put("Authorization", "Token abc");
    Map<String, String> unknown = headers("mk_" + "x".repeat(43));
    for (ApiServer.Response r : List.of(post((String) null, "{}"), post(REVOKED, "{}"), post(malformed, "{}"),
        post(unknown, "{}"))) {
      assertEquals(401, r.status(), r.body());
      assertEquals("Bearer", r.header("WWW-Authenticate"));
      assertEquals("unauthorized", r.json().at("/error/code").asText());
    }
  }

  @Test
  void pagesFromOriginsNotAllowedAreRefusedBeforeTheKeyIsLookedAt() {
    for (String origin : List.of("http://evil.example", "https://localhost.evil.example", "null", "http://localhost.evil:80")) {
      Map<String, String> h = headers(api.key(ALL));
      h.put("Origin", origin);
      ApiServer.Response r = post(h, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
      assertEquals(403, r.status(), origin + ": " + r.body());
      assertEquals("forbidden", r.json().at("/error/code").asText());
      assertTrue(r.json().at("/error/message").asText().contains("mcp.allowed_origins"));
      Map<String, String> noKey = headers(null);
      noKey.put("Origin", origin);
      assertEquals(403, post(noKey, "{}").status(), "the origin is checked first");
    }
    // Loopback pages are allowed by default (any port); requests without Origin are not browsers.
    for (String origin : List.of("http://localhost:6274", "http://127.0.0.1:3000", "http://[::1]:8080", "http://localhost")) {
      Map<String, String> h = headers(api.key(ALL));
      h.put("Origin", origin);
      assertEquals(200, post(h, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").status(), origin);
    }
  }

  @Test
  void onlyPostIsAnswered() {
    // BREW and PROPFIND: methods the router is not given (found by fuzzing answering Allow: GET, HEAD).
    for (String method : List.of("GET", "DELETE", "PUT", "BREW", "PROPFIND")) {
      ApiServer.Response r = api.send(method, "/mcp", headers(api.key(ALL)));
      assertEquals(405, r.status(), method);
      assertEquals("POST", r.header("Allow"));
      assertEquals("method_not_allowed", r.json().at("/error/code").asText());
    }
  }

  @Test
  void aBodyOverTheRestBoundIsRefusedUnread() throws Exception {
    String huge = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"search\",\"arguments\":{\"q\":\""
        + "a".repeat(70_000) + "\"}}}";
    ApiServer.Response r = post(ALL, huge);
    assertEquals(413, r.status(), r.body());
    assertEquals("content_too_large", r.json().at("/error/code").asText());
    // Without a Content-Length (chunked), Undertow cuts the body off at the same bound while it
    // is read (as for REST): the connection is closed, or the SDK answers that it is no message.
    HttpRequest.Builder chunked = HttpRequest.newBuilder(api.uri("/mcp"))
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(huge.getBytes())));
    headers(api.key(ALL)).forEach(chunked::header);
    try {
      HttpResponse<String> c = HttpClient.newHttpClient().send(chunked.build(), HttpResponse.BodyHandlers.ofString());
      assertTrue(c.statusCode() == 400 || c.statusCode() == 413, c.statusCode() + " " + c.body());
      assertFalse(c.body().contains("stackTrace") || c.body().contains("Exception"), c.body());
    } catch (java.io.IOException closed) {
      // refused by closing the connection
    }
    assertEquals(200, post(ALL, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").status(), "still serving");
  }

  @Test
  void initializeNegotiatesTheProtocolVersion() {
    for (String[] asked : new String[][] {{"2025-06-18", "2025-06-18"}, {"2025-11-25", "2025-11-25"},
        {"2024-11-05", "2025-11-25"}, {"1999-01-01", "2025-11-25"}}) {
      JsonNode result = post(ALL, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
          + asked[0] + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}").json().get("result");
      assertEquals(asked[1], result.get("protocolVersion").asText(), asked[0]);
      assertEquals("minutes", result.at("/serverInfo/name").asText());
      assertTrue(result.at("/capabilities/tools").isObject());
      assertFalse(result.get("instructions").asText().isBlank());
    }
    Map<String, String> h = headers(api.key(ALL));
    h.put("MCP-Protocol-Version", "2024-11-05");
    ApiServer.Response r = post(h, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    assertEquals(400, r.status());
    assertEquals("MCP-Protocol-Version", r.json().at("/error/field").asText());
    h.put("MCP-Protocol-Version", "2025-06-18");
    assertEquals(200, post(h, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").status());
  }

  @Test
  void messagesThatAreNotJsonRpcAreJsonRpcErrorsWithoutATrace() {
    // null, 7, "text", true: JSON that is no object (null was a 500 until fuzzing found it).
    for (String body : List.of("not json", "[1,2]", "{\"id\":1}", "", "null", " null ", "7", "\"text\"", "true")) {
      ApiServer.Response r = post(ALL, body);
      assertEquals(400, r.status(), body + ": " + r.body());
      assertEquals(-32700, r.json().at("/error/code").asInt(), r.body());
      assertTrue(r.json().get("id").isNull(), r.body());
      assertFalse(r.body().contains("stackTrace") || r.body().contains("Exception"), r.body());
    }
    Map<String, String> noAccept = headers(api.key(ALL));
    noAccept.put("Accept", "application/json");
    ApiServer.Response accept = post(noAccept, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    assertEquals(400, accept.status());
    assertEquals("Accept", accept.json().at("/error/field").asText());
    Map<String, String> text = headers(api.key(ALL));
    text.put("Content-Type", "text/plain");
    assertEquals("Content-Type", post(text, "{}").json().at("/error/field").asText());
    // Params of the wrong form are the caller's mistake: a JSON-RPC error, never a 500.
    for (String params : List.of("\"x\"", "{\"name\":\"search\",\"arguments\":\"q=x\"}", "7")) {
      ApiServer.Response r = post(ALL, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":" + params + "}");
      assertEquals(200, r.status(), params + ": " + r.body());
      assertEquals(-32602, r.json().at("/error/code").asInt(), r.body());
    }
    ApiServer.Response none = post(ALL, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\"}");
    assertEquals(-32602, none.json().at("/error/code").asInt(), none.body());
    ApiServer.Response unknown = post(ALL, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"drop\"}}");
    assertEquals(-32602, unknown.json().at("/error/code").asInt(), unknown.body());
    assertEquals(-32601, post(ALL, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/list\"}").json()
        .at("/error/code").asInt());
  }

  @Test
  void aNotificationIsAcceptedWithoutABody() {
    ApiServer.Response r = post(ALL, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    assertEquals(202, r.status());
    assertEquals("", r.body());
  }

  @Test
  void toolsListShowsOnlyTheToolsTheScopesAllow() {
    assertEquals(List.of("search", "fetch", "list_meetings"), toolNames(MEETINGS));
    assertEquals(List.of("list_action_items"), toolNames(TASKS));
    assertEquals(List.of("get_transcript", "search_transcript"), toolNames(TRANSCRIPTS));
    List<String> all = List.of("search", "fetch", "list_meetings", "list_action_items", "get_transcript", "search_transcript");
    assertEquals(all, toolNames(ALL));
    assertEquals(all, toolNames(ANN), "a personal key with every scope");
  }

  @Test
  void everyToolDescribesItselfForAnAgent() {
    JsonNode tools = post(ALL, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}").json().at("/result/tools");
    for (JsonNode t : tools) {
      String name = t.get("name").asText();
      assertTrue(t.get("description").asText().length() > 100, name);
      assertTrue(t.get("description").asText().contains("Needs the key scope "), name);
      assertEquals("object", t.at("/inputSchema/type").asText(), name);
      assertFalse(t.at("/inputSchema/additionalProperties").asBoolean(true), name);
      t.at("/inputSchema/properties").forEach(p -> assertFalse(p.path("description").asText().isBlank(), name + " " + p));
      assertEquals("object", t.at("/outputSchema/type").asText(), name);
      assertTrue(t.at("/annotations/readOnlyHint").asBoolean(), name);
      assertFalse(t.at("/annotations/destructiveHint").asBoolean(), name);
    }
    JsonNode search = tools.get(0);
    assertEquals(List.of("q"), JSON.convertValue(search.at("/inputSchema/required"), List.class));
    for (String filter : List.of("q", "limit", "from", "to", "platform", "participant", "company")) {
      assertTrue(search.at("/inputSchema/properties").has(filter), filter);
    }
    JsonNode transcript = tools.get(4);
    assertEquals(List.of("id", "limit", "offset", "from_ms", "to_ms"),
        ApiServer.fields(transcript.at("/inputSchema/properties")));
    assertEquals(5000, transcript.at("/inputSchema/properties/limit/maximum").asInt());
  }

  @Test
  void aToolOutsideTheScopesIsAToolErrorNamingTheScope() {
    JsonNode error = toolError(call(MEETINGS, "get_transcript", "{\"id\":\"" + M1 + "\"}"));
    assertEquals(403, error.get("status").asInt());
    assertTrue(error.get("message").asText().contains("transcripts:read"), error.toString());
    assertTrue(toolError(call(TRANSCRIPTS, "search", "{\"q\":\"budget\"}")).get("message").asText().contains("meetings:read"));
    assertTrue(toolError(call(MEETINGS, "list_action_items", "{}")).get("message").asText().contains("action_items:read"));
  }

  @Test
  void badArgumentsAreToolErrorsNamingTheArgument() {
    String[][] cases = {
        {"list_meetings", "{\"limit\":\"lots\"}", "limit"},
        {"list_meetings", "{\"limit\":2.5}", "limit"},
        {"list_meetings", "{\"order\":\"bogus\"}", "order"},
        {"list_meetings", "{\"from\":\"yesterday\"}", "from"},
        {"search", "{\"q\":\"x\"}", "q"},
        {"search", "{}", "q"},
        {"search", "{\"q\":\"budget\",\"limit\":[1]}", "limit"},
        {"fetch", "{}", "id"},
        {"fetch", "{\"id\":{\"a\":1}}", "id"},
        {"get_transcript", "{\"id\":\"" + M1 + "\",\"from_ms\":-1}", "from_ms"},
        {"get_transcript", "{\"id\":\"" + M1 + "\",\"from_ms\":10,\"to_ms\":5}", "to_ms"},
        // format=vtt|srt changes REST's media type; the tool answers the JSON its output schema describes.
        {"get_transcript", "{\"id\":\"" + M1 + "\",\"format\":\"vtt\"}", "format"},
        {"search_transcript", "{\"id\":\"" + M1 + "\",\"q\":\"budget\",\"foo\":1}", "foo"},
        {"search_transcript", "{\"id\":\"" + M1 + "\",\"q\":true}", "q"},
        {"list_action_items", "{\"due_from\":\"2026-02-30\"}", "due_from"},
        {"list_action_items", "{\"meeting_id\":\"nope\"}", "meeting_id"}};
    for (String[] c : cases) {
      JsonNode error = toolError(call(ALL, c[0], c[1]));
      assertEquals(400, error.get("status").asInt(), c[0] + " " + c[1]);
      assertEquals(c[2], error.get("field").asText(), c[0] + " " + c[1] + ": " + error);
      assertTrue(error.get("message").asText().contains(c[2]), error.toString());
    }
  }

  @Test
  void aMeetingTheKeyCannotSeeIsNotFound() {
    assertEquals(404, toolError(call(ALL, "fetch", "{\"id\":\"" + O1 + "\"}")).get("status").asInt());
    assertEquals(404, toolError(call(BOB, "fetch", "{\"id\":\"" + M1 + "\"}")).get("status").asInt());
    assertEquals(404, toolError(call(BOB, "search_transcript", "{\"id\":\"" + M1 + "\",\"q\":\"budget\"}"))
        .get("status").asInt());
    assertFalse(call(ANN, "fetch", "{\"id\":\"" + M1 + "\"}").get("isError").asBoolean());
    // null stands for an argument not given, as agents send it
    assertFalse(call(ALL, "list_meetings", "{\"q\":null,\"limit\":1}").get("isError").asBoolean());
  }
}
