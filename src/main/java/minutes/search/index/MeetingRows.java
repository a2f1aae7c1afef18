package minutes.search.index;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import minutes.search.text.MarkdownText;
import minutes.store.TranscriptSegments;

/**
 * Reads meetings by id from one connection into what the index holds of them: the minutes'
 * Markdown as plain text, the transcript's segments joined with their ranges in the joined text.
 * Null for a meeting that no longer exists. Not thread-safe.
 */
final class MeetingRows implements AutoCloseable {
  private final PreparedStatement meeting, viewers, participants, protocol, transcript;

  MeetingRows(Connection c) throws SQLException {
    meeting = c.prepareStatement(
        "SELECT workspace_id, title, platform, starts_at, created_at, sort_at, language FROM meeting WHERE id = ?");
    viewers = c.prepareStatement("SELECT email FROM meeting_viewer WHERE meeting_id = ?");
    participants = c.prepareStatement("SELECT email, domain FROM participant WHERE meeting_id = ?");
    protocol = c.prepareStatement(
        "SELECT tldr, content_md FROM protocol WHERE meeting_id = ? AND is_current = 1 LIMIT 1");
    transcript = c.prepareStatement(
        "SELECT text, speaker_name, start_ms, end_ms FROM transcript_segment WHERE meeting_id = ? ORDER BY idx");
  }

  MeetingDocument read(String id) throws SQLException, IOException {
    long workspaceId;
    String title, platform, startsAt, createdAt, sortAt, language;
    meeting.setString(1, id);
    try (ResultSet rs = meeting.executeQuery()) {
      if (!rs.next()) return null;
      workspaceId = rs.getLong(1);
      title = rs.getString(2);
      platform = rs.getString(3);
      startsAt = rs.getString(4);
      createdAt = rs.getString(5);
      sortAt = rs.getString(6);
      language = rs.getString(7);
    }
    List<String> emails = new ArrayList<>();
    viewers.setString(1, id);
    try (ResultSet rs = viewers.executeQuery()) {
      while (rs.next()) emails.add(rs.getString(1));
    }
    List<MeetingDocument.Participant> people = new ArrayList<>();
    participants.setString(1, id);
    try (ResultSet rs = participants.executeQuery()) {
      while (rs.next()) people.add(new MeetingDocument.Participant(rs.getString(1), rs.getString(2)));
    }
    StringBuilder minutes = new StringBuilder();
    protocol.setString(1, id);
    try (ResultSet rs = protocol.executeQuery()) {
      if (rs.next()) {
        String tldr = rs.getString(1);
        if (tldr != null) MarkdownText.appendCollapsed(minutes, MarkdownText.plain(tldr));
        MarkdownText.appendCollapsed(minutes, MarkdownText.plain(rs.getString(2)));
      }
    }
    StringBuilder spoken = new StringBuilder();
    SegmentTable segments = new SegmentTable();
    transcript.setString(1, id);
    try (ResultSet rs = transcript.executeQuery()) {
      while (rs.next()) {
        int before = spoken.length();
        String text = rs.getString(1);
        MarkdownText.appendCollapsed(spoken, text);
        // The segment's own text follows the space that separates it from text before it.
        int start = spoken.length() > before && before > 0 ? before + 1 : before;
        boolean verbatim = spoken.length() - start == text.length() && spoken.indexOf(text, start) == start;
        segments.add(start, spoken.length(), rs.getString(2), rs.getLong(3),
            TranscriptSegments.endMs(rs.getObject(4)), verbatim ? null : text);
      }
    }
    return new MeetingDocument(id, workspaceId, emails, title, platform, startsAt, createdAt, sortAt, people,
        minutes.toString(), spoken.toString(), segments.bytes(), language);
  }

  @Override
  public void close() throws SQLException {
    for (PreparedStatement s : List.of(meeting, viewers, participants, protocol, transcript)) s.close();
  }
}
