package minutes.store;

import com.fasterxml.jackson.databind.JsonNode;
import minutes.languages.LanguageDetection;
import minutes.languages.Languages;

/**
 * The language a meeting line is stored with (decisions.md "Languages"): the line's own
 * {@code language}, else detected from the meeting's text: its current minutes, its transcript
 * and its title, as far as the detector reads; a title alone by the stricter rule for titles
 * ({@link LanguageDetection#detectTitle}). Stateless.
 */
final class MeetingLanguage {
  private MeetingLanguage() {}

  /** {@code current}: the index of the line's current minutes among its protocols, or -1. */
  static String of(JsonNode line, int current) {
    String given = RecordWriter.textOrNull(line, "language");
    if (given != null) return given;
    StringBuilder text = new StringBuilder();
    if (current >= 0) {
      JsonNode minutes = line.path("protocols").get(current);
      append(text, RecordWriter.textOrNull(minutes, "tldr"));
      append(text, minutes.get("content_md").asText());
    }
    for (JsonNode s : line.path("transcript")) {
      if (text.length() >= LanguageDetection.SAMPLE_CHARS) break;
      append(text, s.get("text").asText());
    }
    boolean titleAlone = text.isEmpty();
    append(text, line.get("title").asText());
    if (text.isEmpty()) return Languages.UNDETERMINED;
    return titleAlone ? LanguageDetection.detectTitle(text) : LanguageDetection.detect(text);
  }

  private static void append(StringBuilder text, String part) {
    if (part == null || text.length() >= LanguageDetection.SAMPLE_CHARS) return;
    if (!text.isEmpty()) text.append('\n');
    text.append(part, 0, Math.min(part.length(), LanguageDetection.SAMPLE_CHARS - text.length()));
  }
}
