package minutes.formats;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * A meeting line of the NDJSON import format (decisions.md "Import format"), as a converter makes
 * it from a transcript file or a notetaker's JSON; the import checks and stores it like any other
 * line. Date-times are RFC 3339 text; nulls are written (the format reads them as absent).
 */
@JsonPropertyOrder({"kind"})
public record MeetingLine(String workspace, String id, String title, String platform, String source, String status,
    String startsAt, String endsAt, String organizerEmail, String createdAt, List<String> visibleTo,
    List<Participant> participants, List<Protocol> protocols, List<Segment> transcript, String language) {

  @JsonProperty("kind")
  String kind() {
    return "meeting";
  }

  public record Participant(String displayName, String email, String source, boolean attended) {}

  public record Protocol(String id, String contentMd, String generatedAt, List<Task> actionItems) {}

  public record Task(String id, String task, String ownerName, String verdict, String status) {}

  public record Segment(String speakerName, String speakerEmail, long startMs, Long endMs, String text) {}
}
