package minutes.formats;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;

/**
 * The objects of a notetaker's JSON file, one at a time: the file holds one object, an array of
 * them, or several objects one after the other (NDJSON). Memory holds one object, never the
 * file. Each comes as a {@link JsonObject} that knows its file, line and path for errors.
 */
final class JsonSource {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonSource() {}

  static void forEach(String file, InputStream in, Consumer<JsonObject> each) throws IOException {
    try (JsonParser p = MAPPER.createParser(in)) {
      JsonToken t = p.nextToken();
      if (t == null) throw new FormatError(file, 1, null, "expected a JSON object, an array of them or NDJSON; the file is empty");
      if (t == JsonToken.START_ARRAY) {
        for (int i = 0; p.nextToken() != JsonToken.END_ARRAY; i++) each(file, p, "[" + i + "]", each);
        if (p.nextToken() != null) {
          throw new FormatError(file, p.currentLocation().getLineNr(), null, "expected the end of the file after the array");
        }
      } else {
        for (; t != null; t = p.nextToken()) each(file, p, "", each);
      }
    } catch (JsonProcessingException e) {
      throw new FormatError(file, e.getLocation() == null ? 1 : e.getLocation().getLineNr(), null,
          "expected JSON: " + e.getOriginalMessage());
    }
  }

  private static void each(String file, JsonParser p, String path, Consumer<JsonObject> each) throws IOException {
    long line = p.currentLocation().getLineNr();
    JsonNode n = p.readValueAsTree();
    if (!n.isObject()) {
      String found = n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
      throw new FormatError(file, line, path, "expected a JSON object, found " + found);
    }
    each.accept(new JsonObject(n, file, line, path));
  }
}
