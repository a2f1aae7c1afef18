package minutes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpHeaders;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Checks a received answer against src/main/resources/openapi.json: the path, method and status
 * must be documented, the documented required headers present, the content type documented,
 * and a JSON body valid against its schema (JSON Schema 2020-12 through networknt's validator,
 * with format assertions on). Used by {@link ApiServer} for every answer. Thread-safe.
 */
public final class OpenApiCheck {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNode DOC = load();
  private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi31(),
      b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
  private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();
  private static final List<Map.Entry<Pattern, String>> TEMPLATES = templates();

  private OpenApiCheck() {}

  /** Throws an AssertionError naming every way the answer differs from the document. */
  public static void assertConforms(String method, String rawPath, int status, HttpHeaders headers, String body) {
    List<String> problems = problems(method, rawPath, status, headers, body);
    if (!problems.isEmpty()) {
      throw new AssertionError("answer to " + method + " " + rawPath + " (" + status + ") differs from openapi.json: "
          + String.join("; ", problems) + "\nbody: " + abbreviate(body));
    }
  }

  /** The ways an answer differs from the document; empty when it conforms. */
  public static List<String> problems(String method, String rawPath, int status, HttpHeaders headers, String body) {
    List<String> problems = new ArrayList<>();
    String template = template(rawPath);
    if (template == null) {
      // Not a documented path: the API's JSON 404 (components/responses/NoSuchPath).
      if (status != 404) problems.add("undocumented path answered " + status);
      return checkResponse(problems, method, status, "/components/responses/NoSuchPath", headers, body);
    }
    JsonNode pathItem = DOC.path("paths").path(template);
    String m = method.equals("HEAD") ? "get" : method.toLowerCase(); // HEAD answers like GET (info.description)
    JsonNode op = pathItem.path(m);
    if (op.isMissingNode()) {
      if (status != 405) problems.add(method + " is not documented on " + template + " but answered " + status);
      return checkResponse(problems, method, status, "/components/responses/MethodNotAllowed", headers, body);
    }
    String responsePointer = "/paths/" + escape(template) + "/" + m + "/responses/" + status;
    JsonNode response = DOC.at(responsePointer);
    if (response.isMissingNode()) {
      problems.add("status " + status + " is not documented for " + method + " " + template);
      return problems;
    }
    if (response.has("$ref")) responsePointer = response.get("$ref").asText().substring(1);
    return checkResponse(problems, method, status, responsePointer, headers, body);
  }

  /** Headers, content type and body against the response object at the pointer. */
  private static List<String> checkResponse(List<String> problems, String method, int status, String responsePointer,
      HttpHeaders headers, String body) {
    JsonNode response = DOC.at(responsePointer);
    for (Iterator<Map.Entry<String, JsonNode>> it = response.path("headers").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> h = it.next();
      JsonNode spec = h.getValue().has("$ref") ? DOC.at(h.getValue().get("$ref").asText().substring(1)) : h.getValue();
      if (spec.path("required").asBoolean() && headers.firstValue(h.getKey()).isEmpty()) {
        problems.add("required header " + h.getKey() + " missing");
      }
    }
    JsonNode content = response.path("content");
    if (method.equals("HEAD") || status == 304) {
      if (!body.isEmpty()) problems.add("a " + method + " " + status + " answer has a body");
      return problems;
    }
    if (content.isMissingNode()) {
      if (!body.isEmpty()) problems.add("no body documented, but one was sent");
      return problems;
    }
    String type = headers.firstValue("Content-Type").orElse("").split(";")[0].trim();
    if (!content.has(type)) {
      problems.add("content type '" + type + "' not documented (documented: " + iterable(content.fieldNames()) + ")");
      return problems;
    }
    if (type.equals("application/json")) {
      checkBody(problems, responsePointer + "/content/" + escape(type) + "/schema", body);
    }
    return problems;
  }

  private static void checkBody(List<String> problems, String schemaPointer, String body) {
    JsonNode node;
    try {
      node = MAPPER.readTree(body);
    } catch (IOException e) {
      problems.add("body is not JSON");
      return;
    }
    for (Error e : schema(schemaPointer).validate(node)) problems.add(e.toString());
  }

  /** Every JSON example of a 200 answer that does not validate against its own schema. */
  public static List<String> exampleProblems() {
    List<String> problems = new ArrayList<>();
    for (String path : iterable(DOC.path("paths").fieldNames())) {
      String pointer = "/paths/" + escape(path) + "/get/responses/200/content/application~1json";
      JsonNode example = DOC.at(pointer + "/example");
      if (example.isMissingNode()) continue;
      for (Error e : schema(pointer + "/schema").validate(example)) problems.add(path + ": " + e);
    }
    return problems;
  }

  /** The schema at a JSON pointer into openapi.json, compiled once. */
  static Schema schema(String pointer) {
    return SCHEMAS.computeIfAbsent(pointer, p -> REGISTRY.getSchema(SchemaLocation.of("classpath:openapi.json#" + p)));
  }

  /** The documented template a raw path falls under; literal paths win over templated ones. */
  static String template(String rawPath) {
    if (DOC.path("paths").has(rawPath)) return rawPath;
    for (Map.Entry<Pattern, String> t : TEMPLATES) {
      if (t.getKey().matcher(rawPath).matches()) return t.getValue();
    }
    return null;
  }

  private static List<Map.Entry<Pattern, String>> templates() {
    List<Map.Entry<Pattern, String>> out = new ArrayList<>();
    for (String t : iterable(DOC.path("paths").fieldNames())) {
      if (t.contains("{")) out.add(Map.entry(Pattern.compile(t.replaceAll("\\{[^}]+}", "[^/]+")), t));
    }
    return out;
  }

  private static String escape(String pointerToken) {
    return pointerToken.replace("~", "~0").replace("/", "~1");
  }

  private static List<String> iterable(Iterator<String> it) {
    List<String> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }

  private static String abbreviate(String s) {
    return s.length() <= 500 ? s : s.substring(0, 500) + "...";
  }

  private static JsonNode load() {
    try (InputStream in = OpenApiCheck.class.getResourceAsStream("/openapi.json")) {
      return MAPPER.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
