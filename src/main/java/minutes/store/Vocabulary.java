package minutes.store;

import java.util.List;
import java.util.Optional;

/** The enumerations of api-spec section 2, shared by the import validator and the filters. */
public final class Vocabulary {
  private Vocabulary() {}

  public static final List<String> PLATFORMS = List.of("teams", "meet", "zoom", "upload");
  public static final List<String> MEETING_SOURCES = List.of("calendar", "url", "upload");
  public static final List<String> MEETING_STATUSES =
      List.of("scheduled", "live", "processing", "ready", "failed", "no_bot", "no_speech");
  public static final List<String> PARTICIPANT_SOURCES = List.of("calendar", "platform", "manual");
  public static final List<String> VERDICTS =
      List.of("open", "resolved_in_meeting", "discarded", "duplicate", "unclear_owner");
  public static final List<String> TASK_STATUSES = List.of("open", "done", "dismissed");

  /** The value's place in its vocabulary, as the in-memory list orders store it; -1 for none. */
  public static byte code(List<String> vocabulary, String value) {
    return (byte) vocabulary.indexOf(value);
  }

  /** A filter's code; -1 (no filter) when the parameter is absent. */
  public static byte code(List<String> vocabulary, Optional<String> value) {
    return value.map(v -> code(vocabulary, v)).orElse((byte) -1);
  }
}
