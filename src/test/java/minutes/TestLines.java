package minutes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * NDJSON lines for tests that import data of their own: a meeting whose title, minutes, task and
 * transcript each hold a word of their own ({@code word + "title"}, {@code "minutes"}, {@code
 * "task"}, {@code "transcript"}), so that a test can look for each, and delete lines.
 */
public final class TestLines {
  private TestLines() {}

  /** The texts a meeting line made from {@code word} holds, one word each. */
  public static List<String> words(String word) {
    return List.of(word + "title", word + "minutes", word + "task", word + "transcript");
  }

  /** A meeting of {@code workspace} visible to these users, with a participant of {@code participant} (null: none). */
  public static String meeting(String workspace, String id, String word, List<String> visibleTo, String participant) {
    return "{\"kind\":\"meeting\",\"workspace\":\"" + workspace + "\",\"id\":\"" + id + "\",\"title\":\"Review " + word
        + "title\",\"platform\":\"zoom\",\"source\":\"calendar\",\"status\":\"ready\",\"starts_at\":\"2026-05-01T09:00:00Z\","
        + "\"created_at\":\"2026-04-30T12:00:00Z\",\"visible_to\":" + strings(visibleTo) + ",\"participants\":["
        + (participant == null ? "" : "{\"display_name\":\"Guest\",\"email\":\"" + participant + "\",\"source\":\"calendar\"}")
        + "],\"protocols\":[{\"id\":\"" + UUID.randomUUID() + "\",\"content_md\":\"We agreed on " + word
        + "minutes today.\",\"generated_at\":\"2026-05-01T10:00:00Z\",\"action_items\":[{\"id\":\"" + UUID.randomUUID()
        + "\",\"task\":\"Send the " + word + "task\",\"due\":\"2026-06-01\",\"verdict\":\"open\",\"status\":\"open\"}]}],"
        + "\"transcript\":[{\"speaker_name\":\"Guest\",\"start_ms\":0,\"end_ms\":4000,\"text\":\"Let us talk about "
        + word + "transcript now.\"}]}";
  }

  /** A meeting of acme visible to these users, without participants. */
  public static String meeting(String id, String word, String... visibleTo) {
    return meeting("acme", id, word, List.of(visibleTo), null);
  }

  /** {@code {"kind":"delete","what":...}} of a meeting or company (by id) or a user (by email). */
  public static String delete(String what, String workspace, String idOrEmail) {
    String key = what.equals("user") ? "email" : "id";
    return "{\"kind\":\"delete\",\"what\":\"" + what + "\",\"workspace\":\"" + workspace + "\",\"" + key + "\":\""
        + idOrEmail + "\"}";
  }

  /** {@code {"kind":"delete","what":"workspace",...}}. */
  public static String deleteWorkspace(String workspace) {
    return "{\"kind\":\"delete\",\"what\":\"workspace\",\"workspace\":\"" + workspace + "\"}";
  }

  /** Writes the lines to a new file in {@code dir}. */
  public static Path file(Path dir, String... lines) {
    try {
      return Files.write(Files.createTempFile(dir, "lines-", ".ndjson"), List.of(lines));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String strings(List<String> values) {
    return values.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(",", "[", "]"));
  }
}
