package minutes.transcripts;

import java.sql.SQLException;
import java.util.List;
import minutes.http.Pagination;
import minutes.http.Request;
import minutes.meetings.MeetingsApi;
import minutes.store.Sql;

/** GET /meetings/{id}/transcript: segments in time order, paged. Stateless. */
public final class TranscriptApi {
  private TranscriptApi() {}

  public record Segment(int index, String speakerName, String speakerEmail, long startMs, Long endMs, String text) {}

  public record Transcript(String meetingId, List<Segment> data, Pagination pagination) {}

  public static Transcript get(Request r) throws SQLException {
    int limit = r.params().limit(5000, 1000);
    int offset = r.params().offset();
    String id = MeetingsApi.visibleMeetingId(r);
    long total = new Sql("SELECT count(*) FROM transcript_segment WHERE meeting_id = ?", id).count(r.db());
    List<Segment> rows = new Sql("""
        SELECT idx, speaker_name, speaker_email, start_ms, end_ms, text FROM transcript_segment
        WHERE meeting_id = ? ORDER BY idx LIMIT ? OFFSET ?""", id, limit, offset)
        .list(r.db(), rs -> new Segment(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getLong(4),
            rs.getObject(5) == null ? null : rs.getLong(5), rs.getString(6)));
    return new Transcript(id, rows, new Pagination(limit, offset, total));
  }
}
