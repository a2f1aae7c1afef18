package minutes.meetings;

import java.util.List;
import minutes.tasks.ActionItem;

/** JSON shapes of the meeting endpoints (api-spec 2.1-2.3, decisions.md). */
public final class MeetingRecords {
  private MeetingRecords() {}

  /** A row of GET /meetings. */
  public record MeetingRow(String id, String title, String platform, String source, String status,
      String startsAt, String endsAt, String createdAt, String organizerEmail, String language) {}

  /** GET /meetings/{id} (2.1). */
  public record Meeting(String id, String title, String platform, String source, String status,
      String startsAt, String endsAt, String joinUrl, String organizerEmail, String createdAt,
      String templateId, String language, List<Participant> participants, Protocol protocol) {
    /** The same meeting with its participants and minutes, which are read after its row. */
    Meeting with(List<Participant> participants, Protocol protocol) {
      return new Meeting(id, title, platform, source, status, startsAt, endsAt, joinUrl, organizerEmail, createdAt,
          templateId, language, participants, protocol);
    }
  }

  /** Nested participant, narrow shape (2.2). */
  public record Participant(String displayName, String email, boolean isInternal, String source,
      String approxJoinedAt, String approxLeftAt) {}

  /** A row of GET /meetings/{id}/participants: the nested fields plus domain and attended. */
  public record ParticipantRow(String displayName, String email, boolean isInternal, String source,
      String approxJoinedAt, String approxLeftAt, String domain, boolean attended) {}

  public record ParticipantList(String meetingId, List<ParticipantRow> data) {}

  /** The minutes (2.3), JSON name {@code protocol}. */
  public record Protocol(String id, String tldr, String contentMd, String generatedAt, String editedAt,
      List<ActionItem> actionItems) {}
}
