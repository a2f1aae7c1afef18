package minutes.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Transcript segments read by meeting and position, for the matches of a transcript search. Stateless. */
public final class TranscriptSegments {
  private TranscriptSegments() {}

  /** A segment's place and speaker, as the transcript search shows them; {@code endMs} null when it has no end. */
  public record Segment(int index, String speakerName, long startMs, Long endMs) {}

  /**
   * The segments at {@code indexes} of one meeting, in one statement, keyed by index; a segment
   * that no longer exists is absent.
   */
  public static Map<Integer, Segment> read(Connection c, String meetingId, int[] indexes) throws SQLException {
    if (indexes.length == 0) return Map.of();
    Sql sql = new Sql("SELECT idx, speaker_name, start_ms, end_ms FROM transcript_segment"
        + " WHERE meeting_id = ? AND idx IN (" + String.join(", ", Collections.nCopies(indexes.length, "?")) + ")",
        Stream.concat(Stream.of(meetingId), Arrays.stream(indexes).boxed()).toArray());
    return sql.list(c, rs -> new Segment(rs.getInt(1), rs.getString(2), rs.getLong(3), endMs(rs.getObject(4)))).stream()
        .collect(Collectors.toMap(Segment::index, s -> s)); // (meeting_id, idx) is the primary key: no index twice
  }

  /** An end_ms column's value: null stays null, whichever integer type the store returns. */
  public static Long endMs(Object value) {
    return value == null ? null : ((Number) value).longValue();
  }
}
