package minutes.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.http.ApiError;
import minutes.http.ErrorMapper;
import minutes.http.Json;
import minutes.http.Metrics;
import minutes.http.Params;
import minutes.http.Routes;
import minutes.json.Jackson;
import minutes.keys.Principal;
import minutes.keys.Scope;

/**
 * The read-only tools of /mcp, each the twin of one REST route (decisions.md, "MCP endpoint
 * for AI agents"). A call runs that route's endpoint through {@link Routes#call} for the
 * caller's key, so its structured output is the REST answer itself, and a refusal is a tool
 * error whose text is the REST error body (it names the argument, or the scope). The input
 * schema is the route's parameters and the output schema its 200 answer, both read from
 * openapi.json, so a tool cannot describe its twin differently. Thread-safe.
 */
final class McpTools {
  private static final String SCHEMAS = "#/components/schemas/";

  /**
   * A tool: its name, title, REST twin, what it tells an agent, and the arguments it gives the
   * twin when the agent does not (decisions.md: agents send questions, so searches match most words).
   */
  private record Twin(String name, String title, String route, String description, Map<String, String> defaults) {
    Twin(String name, String title, String route, String description) {
      this(name, title, route, description, Map.of());
    }
  }

  /** Agents send questions: a meeting or segment holding most of their words is what they look for. */
  private static final Map<String, String> MATCH_MOST = Map.of("match", "most");

  private static final List<Twin> TWINS = List.of(
      new Twin("search", "Search meetings", "/api/v1/search", """
          Full-text search over the meetings this key can see: titles, minutes and transcripts. Ask in \
          your own words: by default (match=most) a meeting matches when it holds any word of q, and \
          those holding more of its words that tell come first, so a whole question works; match=all \
          keeps only meetings holding every word. Put "a phrase" in double quotes; case and accents are \
          ignored. At most one hit per meeting, best first, each with meeting_id, title, starts_at, \
          rank, matched_in (title, \
          protocol or transcript) and an HTML snippet with <mark> around the matches. Narrow with \
          from/to (dates), platform, participant (an email), company (an id from the customers list) or \
          language (a meeting's language: en, de, zh ...). \
          order=-starts_at lists the newest first; offset pages on (total then counts every match). \
          facets=platform,company,participant,month,language counts the matching meetings by each (with total), \
          e.g. to see who and which customers discussed something, and when. moments=3 gives each hit \
          up to 3 transcript segments where it matched, the best first, with speaker and start_ms, to \
          quote or jump to (needs transcripts:read). Then use fetch with a hit's meeting_id for the \
          whole meeting, or get_transcript around a moment's start_ms for its context.""", MATCH_MOST),
      new Twin("fetch", "Get one meeting", "/api/v1/meetings/{id}", """
          One meeting by id: title, platform, status, times, participants (is_internal tells colleagues \
          from guests) and its most recent minutes as "protocol" (tldr, Markdown content, action items). \
          Ids come from search, list_meetings or list_action_items. A meeting this key cannot see is \
          reported as not found."""),
      new Twin("list_meetings", "List meetings", "/api/v1/meetings", """
          The meetings this key can see, newest first by default, one page at a time (limit, offset; \
          pagination.total is the number of all matching meetings). Filter by time (from, to: a date \
          YYYY-MM-DD or an RFC 3339 date-time), by text in the title (q), status, platform, source or \
          language (en, de, zh ...); \
          order by starts_at, created_at or title, with a leading - for descending."""),
      new Twin("list_action_items", "List action items", "/api/v1/action-items", """
          Tasks (action items) from the current minutes of every meeting this key can see, across \
          meetings: earliest due date first, tasks without a due date last. Filter by meeting_id, status \
          (open, done, dismissed), verdict, due_from and due_to (YYYY-MM-DD, inclusive). Paged with \
          limit and offset."""),
      new Twin("get_transcript", "Read a transcript", "/api/v1/meetings/{id}/transcript", """
          Transcript segments of one meeting in time order: speaker, start_ms and end_ms (milliseconds \
          from the start of the recording) and text. Page with offset and limit, or read a time window \
          with from_ms and to_ms, e.g. a minute around a segment that search_transcript found."""),
      new Twin("search_transcript", "Search a transcript", "/api/v1/meetings/{id}/transcript/search", """
          Finds where something was said in one meeting: by default (match=most) the transcript \
          segments holding any word (or "quoted phrase") of q, those holding more of its words that \
          tell first; with match=all those holding every one, in time order. Each comes with its \
          index, speaker, start_ms and end_ms and a snippet with <mark> around the matches. Use \
          get_transcript with from_ms and to_ms around start_ms to read the context.""", MATCH_MOST));

  private final Routes routes;
  private final Metrics metrics;
  private final Map<String, Scope> scopes = new HashMap<>();
  private final List<SyncToolSpecification> specifications = new ArrayList<>();

  McpTools(Routes routes, Metrics metrics) {
    this.routes = routes;
    this.metrics = metrics;
    JsonNode doc = openApi();
    for (Twin twin : TWINS) {
      scopes.put(twin.name, routes.scope(twin.route));
      JsonNode operation = doc.path("paths").path(twin.route).path("get");
      Map<String, Object> input = inputSchema(operation);
      withDefaults(input, twin.defaults);
      Tool tool = Tool.builder()
          .name(twin.name)
          .title(twin.title)
          .description(twin.description + "\n\nNeeds the key scope " + routes.scope(twin.route).value() + ".")
          .inputSchema(input)
          .outputSchema(outputSchema(doc, operation))
          .annotations(new ToolAnnotations(twin.title, true, false, true, false, null))
          .build();
      specifications.add(new SyncToolSpecification(tool, (context, request) ->
          call(twin, input, HttpTransport.principal(context), request.arguments())));
    }
  }

  List<SyncToolSpecification> specifications() {
    return specifications;
  }

  /** Whether the key's scopes allow the tool (tools/list shows only those). */
  boolean allowed(String tool, Principal principal) {
    Scope needed = scopes.get(tool);
    return needed != null && principal.scopes().contains(needed);
  }

  @SuppressWarnings("unchecked")
  private CallToolResult call(Twin twin, Map<String, Object> input, Principal principal, Map<String, Object> arguments) {
    try {
      Map<String, Deque<String>> query = new HashMap<>();
      Map<String, String> path = new HashMap<>();
      Map<String, Object> properties = (Map<String, Object>) input.get("properties");
      for (Map.Entry<String, Object> a : (arguments == null ? Map.<String, Object>of() : arguments).entrySet()) {
        if (!properties.containsKey(a.getKey())) {
          throw ApiError.badParam(a.getKey(), a.getKey() + " is not an argument of " + twin.name + "; it takes "
              + String.join(", ", properties.keySet()));
        }
        if (a.getValue() == null) continue; // an agent's "not given"
        String text = text(a.getKey(), a.getValue(), properties.get(a.getKey()));
        if (twin.route.contains("{" + a.getKey() + "}")) path.put(a.getKey(), text);
        else query.computeIfAbsent(a.getKey(), k -> new ArrayDeque<>()).add(text);
      }
      twin.defaults.forEach((name, value) -> query.computeIfAbsent(name, k -> new ArrayDeque<>(List.of(value))));
      for (String required : (List<String>) input.get("required")) {
        if (!path.containsKey(required) && !query.containsKey(required)) {
          throw ApiError.badParam(required, required + " is required");
        }
      }
      String answer = new String(Json.bytes(routes.call(twin.route, principal, new Params(query), path)),
          StandardCharsets.UTF_8);
      // The REST body itself, twice: as text for clients that read only content (MCP asks for
      // it), and, written as it is, as the structured output (parsing it again cost 0.1 ms).
      return CallToolResult.builder()
          .addTextContent(answer)
          .structuredContent(new RawValue(answer))
          .build();
    } catch (Throwable t) {
      ApiError error = ErrorMapper.asApiError(t, "MCP tool " + twin.name, metrics);
      return CallToolResult.builder()
          .addTextContent(new String(Json.bytes(error.body()), StandardCharsets.UTF_8))
          .isError(true)
          .build();
    }
  }

  /** Shows the tool's own defaults in its input schema, where they differ from its twin's. */
  @SuppressWarnings("unchecked")
  private static void withDefaults(Map<String, Object> input, Map<String, String> defaults) {
    Map<String, Object> properties = (Map<String, Object>) input.get("properties");
    defaults.forEach((name, value) -> {
      Map<String, Object> property = new LinkedHashMap<>((Map<String, Object>) properties.get(name));
      property.put("default", value);
      properties.put(name, property);
    });
  }

  /**
   * An argument as the text REST would get in its query: strings as they are, numbers
   * written out (so Params judges them as it judges REST's); anything else names the argument.
   */
  private static String text(String name, Object value, Object schema) {
    if (value instanceof String s) return s;
    if (value instanceof Number n) return n.toString();
    boolean integer = schema instanceof Map<?, ?> m && "integer".equals(m.get("type"));
    throw ApiError.badParam(name, name + " must be " + (integer ? "an integer" : "a string"));
  }

  /** The route's parameters (path and query) as a JSON Schema object, each with its openapi.json description. */
  private static Map<String, Object> inputSchema(JsonNode operation) {
    Map<String, Object> properties = new LinkedHashMap<>();
    List<String> required = new ArrayList<>();
    for (JsonNode p : operation.path("parameters")) {
      // A parameter that changes the answer's media type (transcript format=vtt) is for REST only:
      // a tool answers the JSON its output schema describes.
      if (p.path("x-rest-only").asBoolean()) continue;
      Map<String, Object> property = new LinkedHashMap<>(Jackson.MAPPER.convertValue(p.get("schema"),
          new TypeReference<Map<String, Object>>() {}));
      property.put("description", p.path("description").asText());
      properties.put(p.get("name").asText(), property);
      if (p.path("required").asBoolean()) required.add(p.get("name").asText());
    }
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    schema.put("required", required);
    schema.put("additionalProperties", false);
    return schema;
  }

  /**
   * The route's 200 answer schema, made self-contained: the component it names becomes the
   * top level (an object, as MCP wants), and every component it reaches goes into $defs.
   */
  private static Map<String, Object> outputSchema(JsonNode doc, JsonNode operation) {
    String ref = operation.at("/responses/200/content/application~1json/schema/$ref").asText();
    JsonNode components = doc.at("/components/schemas");
    Map<String, JsonNode> defs = new LinkedHashMap<>();
    collect(components, ref.substring(SCHEMAS.length()), defs);
    ObjectNode top = (ObjectNode) rewrite(defs.remove(ref.substring(SCHEMAS.length())));
    ObjectNode all = Jackson.MAPPER.createObjectNode();
    defs.forEach((name, schema) -> all.set(name, rewrite(schema)));
    if (!all.isEmpty()) top.set("$defs", all);
    return Jackson.MAPPER.convertValue(top, new TypeReference<Map<String, Object>>() {});
  }

  private static void collect(JsonNode components, String name, Map<String, JsonNode> into) {
    if (into.containsKey(name)) return;
    JsonNode schema = components.get(name);
    into.put(name, schema);
    Matcher m = Pattern.compile("\"\\$ref\":\"" + Pattern.quote(SCHEMAS) + "(\\w+)\"").matcher(schema.toString());
    while (m.find()) collect(components, m.group(1), into);
  }

  private static JsonNode rewrite(JsonNode schema) {
    try {
      return Jackson.MAPPER.readTree(schema.toString().replace("\"" + SCHEMAS, "\"#/$defs/"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode openApi() {
    try (InputStream in = McpTools.class.getResourceAsStream("/openapi.json")) {
      return Jackson.MAPPER.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
