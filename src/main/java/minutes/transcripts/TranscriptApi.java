package minutes.transcripts;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import minutes.formats.Cue;
import minutes.formats.Format;
import minutes.http.ApiError;
import minutes.http.Json;
import minutes.http.Pagination;
import minutes.http.Params;
import minutes.http.Request;
import minutes.meetings.MeetingsApi;
import minutes.search.SearchApi;
import minutes.search.query.SearchHit;
import minutes.search.text.SegmentSearch;
import minutes.store.Sql;
import minutes.store.TranscriptSegments;

/**
 * GET /meetings/{id}/transcript (segments in time order, paged, optionally within a time
 * window; as JSON, WebVTT or SubRip) and GET /meetings/{id}/transcript/search (the segments
 * that match a search text). Stateless.
 */
public final class TranscriptApi {
  /** The answer's formats: json, the API's own (no file format), then the cue files. */
  private static final List<String> FORMATS = Stream.concat(Stream.of("json"), Format.cueFiles().stream()).toList();

  private TranscriptApi() {}

  public record Segment(int index, String speakerName, String speakerEmail, long startMs, Long endMs, String text) {}

  public record Transcript(String meetingId, List<Segment> data, Pagination pagination) {}

  public record Matches(String meetingId, String query, List<SearchHit.Moment> data) {}

  /** The transcript's page as JSON ({@link Transcript}), or as a WebVTT or SubRip file ({@link Json.Body}). */
  public static Object get(Request r) throws SQLException {
    Params p = r.params();
    int limit = p.limit(5000, 1000);
    int offset = p.offset();
    Optional<Long> fromMs = p.nonNegativeLong("from_ms");
    Optional<Long> toMs = p.nonNegativeLong("to_ms");
    if (fromMs.isPresent() && toMs.isPresent() && toMs.get() <= fromMs.get()) {
      throw ApiError.badParam("to_ms", "to_ms must be greater than from_ms");
    }
    Optional<Format> file = p.oneOf("format", FORMATS).flatMap(Format::named);
    String id = MeetingsApi.visibleMeetingId(r);
    Sql where = new Sql("FROM transcript_segment WHERE meeting_id = ?", id);
    // A segment overlaps [from_ms, to_ms) when it starts before to_ms and starts or still
    // runs at from_ms; one without end_ms is an instant at its start.
    toMs.ifPresent(v -> where.add("AND start_ms < ?", v));
    fromMs.ifPresent(v -> where.add("AND (start_ms >= ? OR end_ms > ?)", v, v));
    long total = new Sql("SELECT count(*)").add(where).count(r.db());
    List<Segment> rows = new Sql("SELECT idx, speaker_name, speaker_email, start_ms, end_ms, text")
        .add(where)
        .add("ORDER BY idx LIMIT ? OFFSET ?", limit, offset)
        .list(r.db(), rs -> new Segment(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getLong(4),
            TranscriptSegments.endMs(rs.getObject(5)), rs.getString(6)));
    if (file.isPresent()) return new Json.Body(file.get().contentType(), file.get().write(asCues(rows)));
    return new Transcript(id, rows, new Pagination(limit, offset, total));
  }

  /**
   * Segments as cues, each ending after it starts, as WebVTT's syntax wants (decisions.md
   * "Transcript files as written"): a segment without an end, or of zero length, ends where the
   * next segment of the page starts (Fathom's segments come so), or 1 ms after its own start when
   * that is not later.
   */
  private static List<Cue> asCues(List<Segment> rows) {
    List<Cue> out = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      Segment s = rows.get(i);
      long end = s.endMs() != null ? s.endMs() : -1;
      if (end <= s.startMs() && i + 1 < rows.size()) end = rows.get(i + 1).startMs();
      out.add(new Cue(s.startMs(), end > s.startMs() ? end : s.startMs() + 1, s.speakerName(), s.text()));
    }
    return out;
  }

  /**
   * The first {@code limit} segments in which every word and phrase of q occurs, in time order;
   * with match=most those holding any, best first (decisions.md, "Finding what people ask").
   */
  public static Matches search(Request r) throws SQLException {
    SegmentSearch asked = SearchApi.segmentSearch(r.params());
    int limit = r.params().limit(500, 100);
    MeetingsApi.Seen meeting = MeetingsApi.visibleMeetingLanguage(r);
    String id = meeting.id();
    SegmentSearch query = asked.in(meeting.language());
    // Texts first, the rest only for the matches: reading every segment's speaker and times
    // tripled the reading of a 100 KB transcript, and most segments do not match.
    List<Segment> all = new Sql("SELECT idx, text FROM transcript_segment WHERE meeting_id = ? ORDER BY idx", id)
        .list(r.db(), rs -> new Segment(rs.getInt(1), null, null, 0, null, rs.getString(2)));
    List<SegmentSearch.Found> hits = query.find(all.stream().map(Segment::text).toList(), limit);
    int[] indexes = hits.stream().mapToInt(h -> all.get(h.segment()).index()).toArray();
    Map<Integer, TranscriptSegments.Segment> rows = TranscriptSegments.read(r.db(), id, indexes);
    List<SearchHit.Moment> found = new ArrayList<>(hits.size());
    for (int i = 0; i < hits.size(); i++) {
      TranscriptSegments.Segment s = rows.get(indexes[i]);
      found.add(new SearchHit.Moment(s.index(), s.speakerName(), s.startMs(), s.endMs(), hits.get(i).snippet()));
    }
    return new Matches(id, query.query(), found);
  }
}
