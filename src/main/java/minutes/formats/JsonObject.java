package minutes.formats;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import minutes.languages.Languages;
import minutes.store.Emails;
import minutes.store.Times;

/**
 * One object of a notetaker's JSON with where it stands (file, the line its source object
 * starts on, its JSON path), to read fields from and to name in an error what was expected
 * and where. A field that is absent or null reads as null; one of the wrong type is an error.
 */
record JsonObject(JsonNode node, String file, long line, String path) {

  FormatError error(String field, String message) {
    return new FormatError(file, line, at(field), message);
  }

  private String at(String field) {
    if (field == null) return path;
    return path.isEmpty() ? field : path + "." + field;
  }

  private JsonNode value(String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : v;
  }

  boolean has(String field) {
    return value(field) != null;
  }

  /** A string, null when absent; a blank one counts as absent. */
  String text(String field) {
    JsonNode v = value(field);
    if (v == null) return null;
    if (!v.isTextual()) throw error(field, "expected a string, found " + type(v));
    return v.asText().isBlank() ? null : v.asText();
  }

  /** A string or a number as text (ids are either), null when absent. */
  String textOrNumber(String field) {
    JsonNode v = value(field);
    if (v != null && v.isNumber()) return v.asText();
    return text(field);
  }

  String requiredText(String field, String what) {
    String s = text(field);
    if (s == null) throw error(field, "expected " + what + ", found " + (has(field) ? "an empty string" : "none"));
    return s;
  }

  /**
   * A language tag's primary subtag, lower-cased ({@code en-US} gives {@code en}), null when
   * absent; a value that does not start with one is refused.
   */
  String language(String field) {
    String s = text(field);
    if (s == null) return null;
    String primary = s.strip().split("[-_]", 2)[0].toLowerCase(Locale.ROOT);
    if (!Languages.isSubtag(primary)) throw error(field, "expected a BCP 47 language tag such as en or de-DE, found '" + s + "'");
    return primary;
  }

  /** An email address, null when absent. */
  String email(String field) {
    String s = text(field);
    if (s != null && !Emails.isEmail(s.strip())) throw error(field, "expected an email address, found " + FormatError.quote(s));
    return s == null ? null : s.strip();
  }

  /** An RFC 3339 date-time, null when absent. */
  Instant dateTime(String field) {
    String s = text(field);
    if (s == null) return null;
    Instant t = Times.parseDateTime(s);
    if (t == null) throw error(field, "expected an RFC 3339 date-time such as 2026-03-02T09:30:00Z, found " + FormatError.quote(s));
    return t;
  }

  boolean bool(String field) {
    JsonNode v = value(field);
    if (v != null && !v.isBoolean()) throw error(field, "expected true or false, found " + type(v));
    return v != null && v.asBoolean();
  }

  /** A number, or a string that is one; null when absent. */
  Double number(String field) {
    JsonNode v = value(field);
    if (v == null) return null;
    if (v.isNumber()) return v.asDouble();
    if (v.isTextual()) {
      try {
        double d = Double.parseDouble(v.asText().strip());
        if (Double.isFinite(d)) return d;
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw error(field, "expected a number, found " + type(v));
  }

  /** A nested object, null when absent. */
  JsonObject object(String field) {
    JsonNode v = value(field);
    if (v == null) return null;
    if (!v.isObject()) throw error(field, "expected an object, found " + type(v));
    return new JsonObject(v, file, line, at(field));
  }

  /** The objects of an array, none when absent. */
  List<JsonObject> objects(String field) {
    return items(field, "an array", "an object", JsonNode::isObject);
  }

  /** The strings of an array, none when absent. */
  List<String> texts(String field) {
    return items(field, "an array of strings", "a string", JsonNode::isTextual).stream().map(s -> s.node().asText()).toList();
  }

  /** The items of an array, each with its path, none when absent; {@code isItem} says which values an item may be. */
  private List<JsonObject> items(String field, String array, String item, Predicate<JsonNode> isItem) {
    JsonNode v = value(field);
    if (v == null) return List.of();
    if (!v.isArray()) throw error(field, "expected " + array + ", found " + type(v));
    List<JsonObject> out = new ArrayList<>(v.size());
    for (int i = 0; i < v.size(); i++) {
      JsonObject o = new JsonObject(v.get(i), file, line, at(field) + "[" + i + "]");
      if (!isItem.test(v.get(i))) throw o.error(null, "expected " + item + ", found " + type(v.get(i)));
      out.add(o);
    }
    return out;
  }

  private static String type(JsonNode v) {
    String t = v.isTextual() ? FormatError.quote(v.asText()) : v.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    return t.equals("number") ? "the number " + v.asText() : t;
  }
}
