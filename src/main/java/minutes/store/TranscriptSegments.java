package minutes.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/** Transcript segments read by meeting and position, for the matches of a transcript search. Stateless. */
public final class TranscriptSegments {
  private TranscriptSegments() {}

  /** A segment as the transcript endpoints show it; {@code endMs} null when it has no end. */
  public record Segment(int index, String speakerName, long startMs, Long endMs, String text) {}

  /**
   * The segments at {@code indexes} of each meeting, in one statement, keyed by meeting id and
   * index (a meeting asked for no segment: none); a segment that no longer exists is absent.
   */
  public static Map<String, Map<Integer, Segment>> read(Connection c, Map<String, int[]> indexes) throws SQLException {
    Map<String, Map<Integer, Segment>> out = new HashMap<>();
    if (indexes.values().stream().allMatch(i -> i.length == 0)) return out;
    Sql sql = new Sql("SELECT meeting_id, idx, speaker_name, start_ms, end_ms, text FROM transcript_segment WHERE");
    String or = "";
    for (Map.Entry<String, int[]> e : indexes.entrySet()) {
      if (e.getValue().length == 0) continue;
      Object[] bound = new Object[1 + e.getValue().length];
      bound[0] = e.getKey();
      for (int i = 0; i < e.getValue().length; i++) bound[1 + i] = e.getValue()[i];
      sql.add(or + "(meeting_id = ? AND idx IN (" + String.join(", ", Collections.nCopies(e.getValue().length, "?")) + "))",
          bound);
      or = "OR ";
    }
    record Of(String meetingId, Segment segment) {}
    for (Of row : sql.list(c, rs -> new Of(rs.getString(1), new Segment(rs.getInt(2), rs.getString(3), rs.getLong(4),
        endMs(rs.getObject(5)), rs.getString(6))))) {
      out.computeIfAbsent(row.meetingId(), k -> new HashMap<>()).put(row.segment().index(), row.segment());
    }
    return out;
  }

  /** An end_ms column's value: null stays null, whichever integer type the store returns. */
  public static Long endMs(Object value) {
    return value == null ? null : ((Number) value).longValue();
  }
}
