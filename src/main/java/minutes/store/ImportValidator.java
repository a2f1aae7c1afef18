package minutes.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import minutes.languages.Languages;

/**
 * Checks one NDJSON line of the import format (decisions.md) and lists every field at fault,
 * by its path ({@code protocols[0].action_items[2].due}). Pure: no database, no state beyond
 * the line. Thread-safe.
 */
final class ImportValidator {
  private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9_-]{0,62}");
  private static final Pattern DOMAIN = Pattern.compile("[A-Za-z0-9.-]+\\.[A-Za-z0-9-]+");

  /** One field at fault in one line. */
  record Problem(String field, String message) {}

  private final List<Problem> problems = new ArrayList<>();

  static List<Problem> check(JsonNode line) {
    ImportValidator v = new ImportValidator();
    v.line(line);
    return v.problems;
  }

  private void line(JsonNode n) {
    if (n == null || !n.isObject()) {
      problem("kind", "each line must be a JSON object with a kind");
      return;
    }
    String kind = n.path("kind").textValue();
    if (kind == null) {
      problem("kind", "kind is required: workspace, user, company, meeting or delete");
      return;
    }
    switch (kind) {
      case "workspace" -> {
        fields(n, "", Set.of("kind", "slug", "name", "domains"));
        slug(n, "slug");
        text(n, "", "name", true);
        domains(n);
      }
      case "user" -> {
        fields(n, "", Set.of("kind", "workspace", "email", "name"));
        slug(n, "workspace");
        email(n, "", "email", true);
        text(n, "", "name", false);
      }
      case "company" -> {
        fields(n, "", Set.of("kind", "workspace", "id", "name", "domains"));
        slug(n, "workspace");
        uuid(n, "", "id", true);
        text(n, "", "name", true);
        domains(n);
      }
      case "meeting" -> meeting(n);
      case "delete" -> delete(n);
      default -> problem("kind", "kind must be workspace, user, company, meeting or delete, not '" + kind + "'");
    }
  }

  /** decisions.md "Deleting data": a meeting or company by id, a user by email, a workspace alone. */
  private void delete(JsonNode n) {
    String what = n.path("what").textValue();
    switch (what) {
      case "meeting", "company" -> {
        fields(n, "", Set.of("kind", "what", "workspace", "id"));
        slug(n, "workspace");
        uuid(n, "", "id", true);
      }
      case "user" -> {
        fields(n, "", Set.of("kind", "what", "workspace", "email"));
        slug(n, "workspace");
        email(n, "", "email", true);
      }
      case "workspace" -> {
        fields(n, "", Set.of("kind", "what", "workspace"));
        slug(n, "workspace");
      }
      case null, default -> problem("what", "what is required and must be meeting, company, user or workspace");
    }
  }

  /**
   * PostgreSQL's text type cannot hold the NUL character, which SQLite stores: on PostgreSQL a
   * line with one is refused by name instead of failing the whole import with a database error.
   */
  static List<Problem> storableInPostgres(JsonNode line) {
    ImportValidator v = new ImportValidator();
    v.noNul(line, "");
    return v.problems;
  }

  private void noNul(JsonNode n, String at) {
    if (n.isTextual() && n.asText().indexOf('\0') >= 0) {
      problem(at, "contains the NUL character (\\u0000), which PostgreSQL cannot store");
    } else if (n.isArray()) {
      for (int i = 0; i < n.size(); i++) noNul(n.get(i), at + "[" + i + "]");
    } else if (n.isObject()) {
      n.fields().forEachRemaining(f -> noNul(f.getValue(), at.isEmpty() ? f.getKey() : at + "." + f.getKey()));
    }
  }

  private void meeting(JsonNode n) {
    fields(n, "", Set.of("kind", "workspace", "id", "title", "platform", "source", "status", "starts_at",
        "ends_at", "join_url", "organizer_email", "created_at", "template_id", "visible_to", "participants",
        "protocols", "transcript", "language"));
    slug(n, "workspace");
    uuid(n, "", "id", true);
    text(n, "", "title", true);
    oneOf(n, "", "platform", Vocabulary.PLATFORMS);
    oneOf(n, "", "source", Vocabulary.MEETING_SOURCES);
    oneOf(n, "", "status", Vocabulary.MEETING_STATUSES);
    Instant starts = dateTime(n, "", "starts_at", false);
    Instant ends = dateTime(n, "", "ends_at", false);
    if (starts != null && ends != null && ends.isBefore(starts)) problem("ends_at", "ends_at must not be before starts_at");
    text(n, "", "join_url", false);
    email(n, "", "organizer_email", false);
    dateTime(n, "", "created_at", true);
    uuid(n, "", "template_id", false);
    String language = text(n, "", "language", false);
    if (language != null && !Languages.isSubtag(language)) problem("language", Languages.expected("language"));
    each(n, "", "visible_to", (e, path) -> {
      if (!e.isTextual() || !Emails.isEmail(e.asText())) problem(path, "must be an email address");
    });
    each(n, "", "participants", (p, path) -> participant(p, path + "."));
    Set<String> ids = new HashSet<>();
    each(n, "", "protocols", (p, path) -> protocol(p, path + ".", ids));
    each(n, "", "transcript", (s, path) -> segment(s, path + "."));
  }

  private void participant(JsonNode p, String at) {
    if (!object(p, at)) return;
    fields(p, at, Set.of("display_name", "email", "source", "attended", "approx_joined_at", "approx_left_at"));
    text(p, at, "display_name", true);
    email(p, at, "email", false);
    oneOf(p, at, "source", Vocabulary.PARTICIPANT_SOURCES);
    if (p.has("attended") && !p.get("attended").isBoolean()) problem(at + "attended", "attended must be true or false");
    dateTime(p, at, "approx_joined_at", false);
    dateTime(p, at, "approx_left_at", false);
  }

  private void protocol(JsonNode p, String at, Set<String> ids) {
    if (!object(p, at)) return;
    fields(p, at, Set.of("id", "tldr", "content_md", "generated_at", "edited_at", "action_items"));
    unique(uuid(p, at, "id", true), at + "id", ids);
    text(p, at, "tldr", false);
    if (!p.path("content_md").isTextual()) problem(at + "content_md", "content_md is required and must be a string");
    dateTime(p, at, "generated_at", true);
    dateTime(p, at, "edited_at", false);
    each(p, at, "action_items", (t, path) -> task(t, path + ".", ids));
  }

  private void task(JsonNode t, String at, Set<String> ids) {
    if (!object(t, at)) return;
    fields(t, at, Set.of("id", "task", "owner_name", "due", "verdict", "status"));
    unique(uuid(t, at, "id", true), at + "id", ids);
    text(t, at, "task", true);
    text(t, at, "owner_name", false);
    JsonNode due = t.get("due");
    if (due != null && !due.isNull() && (!due.isTextual() || Times.parseDate(due.asText()) == null)) {
      problem(at + "due", "due must be a date in the form YYYY-MM-DD or null");
    }
    oneOf(t, at, "verdict", Vocabulary.VERDICTS);
    oneOf(t, at, "status", Vocabulary.TASK_STATUSES);
  }

  private void segment(JsonNode s, String at) {
    if (!object(s, at)) return;
    fields(s, at, Set.of("speaker_name", "speaker_email", "start_ms", "end_ms", "text"));
    text(s, at, "speaker_name", true);
    email(s, at, "speaker_email", false);
    JsonNode start = s.get("start_ms");
    if (start == null || !start.canConvertToLong() || !start.isIntegralNumber() || start.asLong() < 0) {
      problem(at + "start_ms", "start_ms is required and must be an integer of at least 0");
    }
    JsonNode end = s.get("end_ms");
    if (end != null && !end.isNull()) {
      if (!end.isIntegralNumber() || !end.canConvertToLong()) problem(at + "end_ms", "end_ms must be an integer or null");
      else if (start != null && start.isIntegralNumber() && end.asLong() < start.asLong()) {
        problem(at + "end_ms", "end_ms must not be less than start_ms");
      }
    }
    if (!s.path("text").isTextual()) problem(at + "text", "text is required and must be a string");
  }

  // --- field checks; each records a problem and returns what it could read ---

  private void fields(JsonNode n, String at, Set<String> known) {
    n.fieldNames().forEachRemaining(name -> {
      if (!known.contains(name)) problem(at + name, "unknown field '" + name + "'");
    });
  }

  private boolean object(JsonNode n, String at) {
    if (n.isObject()) return true;
    problem(at.substring(0, at.length() - 1), "must be an object");
    return false;
  }

  /** Checks each element of array {@code name}, if there is one, with its path ({@code name[i]}). */
  private void each(JsonNode n, String at, String name, BiConsumer<JsonNode, String> check) {
    JsonNode v = n.get(name);
    if (v == null || v.isNull()) return;
    if (!v.isArray()) {
      problem(at + name, name + " must be an array");
      return;
    }
    for (int i = 0; i < v.size(); i++) check.accept(v.get(i), at + name + "[" + i + "]");
  }

  private void slug(JsonNode n, String name) {
    JsonNode v = n.get(name);
    if (v == null || !v.isTextual() || !SLUG.matcher(v.asText()).matches()) {
      problem(name, name + " is required: a workspace slug of lower-case letters, digits, - and _");
    }
  }

  private String text(JsonNode n, String at, String name, boolean required) {
    JsonNode v = n.get(name);
    if (v == null || v.isNull()) {
      if (required) problem(at + name, name + " is required and must be a non-empty string");
      return null;
    }
    if (!v.isTextual() || (required && v.asText().isBlank())) {
      problem(at + name, name + (required ? " must be a non-empty string" : " must be a string or null"));
      return null;
    }
    return v.asText();
  }

  private void email(JsonNode n, String at, String name, boolean required) {
    String s = text(n, at, name, required);
    if (s != null && !Emails.isEmail(s)) problem(at + name, name + " must be an email address");
  }

  private String uuid(JsonNode n, String at, String name, boolean required) {
    String s = text(n, at, name, required);
    if (s != null && !Ids.isUuid(s)) {
      problem(at + name, name + " must be a UUID such as 123e4567-e89b-12d3-a456-426614174000");
      return null;
    }
    return s;
  }

  private void unique(String id, String field, Set<String> seen) {
    if (id != null && !seen.add(id.toLowerCase())) problem(field, "id " + id + " appears twice in this meeting");
  }

  private void oneOf(JsonNode n, String at, String name, List<String> allowed) {
    JsonNode v = n.get(name);
    if (v == null || !v.isTextual() || !allowed.contains(v.asText())) {
      problem(at + name, name + " is required and must be one of " + String.join(", ", allowed));
    }
  }

  private Instant dateTime(JsonNode n, String at, String name, boolean required) {
    JsonNode v = n.get(name);
    if (v == null || v.isNull()) {
      if (required) problem(at + name, name + " is required: an RFC 3339 date-time such as 2026-03-02T09:30:00Z");
      return null;
    }
    Instant t = v.isTextual() ? Times.parseDateTime(v.asText()) : null;
    if (t == null) problem(at + name, name + " must be an RFC 3339 date-time such as 2026-03-02T09:30:00Z");
    return t;
  }

  private void domains(JsonNode n) {
    each(n, "", "domains", (d, path) -> {
      if (!d.isTextual() || !DOMAIN.matcher(d.asText()).matches()) problem(path, "must be a domain name such as example.com");
    });
  }

  private void problem(String field, String message) {
    problems.add(new Problem(field, message));
  }
}
