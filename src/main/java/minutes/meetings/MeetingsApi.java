package minutes.meetings;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import minutes.http.ApiError;
import minutes.http.Pagination;
import minutes.http.Params;
import minutes.http.Request;
import minutes.keys.Principal;
import minutes.keys.Visibility;
import minutes.meetings.MeetingRecords.Meeting;
import minutes.meetings.MeetingRecords.MeetingRow;
import minutes.meetings.MeetingRecords.Participant;
import minutes.meetings.MeetingRecords.ParticipantList;
import minutes.meetings.MeetingRecords.ParticipantRow;
import minutes.meetings.MeetingRecords.Protocol;
import minutes.store.Ids;
import minutes.store.JsonRows;
import minutes.store.RawJson;
import minutes.store.Sql;
import minutes.store.Times;
import minutes.store.Vocabulary;
import minutes.tasks.ActionItem;

/** GET /meetings, /meetings/{id} and /meetings/{id}/participants. Thread-safe. */
public final class MeetingsApi {
  private final MeetingOrder listOrder;

  public MeetingsApi(MeetingOrder listOrder) {
    this.listOrder = listOrder;
  }

  /** A row of the list, as the in-memory order ({@link MeetingOrder}) holds it and its SQL oracle reads it. */
  static final JsonRows.Shape ROW_JSON = JsonRows.object(MeetingRow.class,
      "m.id", "m.title", "m.platform", "m.source", "m.status", "m.starts_at", "m.ends_at", "m.created_at",
      "m.organizer_email", "m.language");

  /** {@code order} values and the indexed columns behind them; starts_at falls back to created_at. */
  enum Order {
    STARTS_AT("starts_at", "m.sort_at"),
    CREATED_AT("created_at", "m.created_at"),
    TITLE("title", "m.title_folded");

    final String name;
    final String column;

    Order(String name, String column) {
      this.name = name;
      this.column = column;
    }
  }

  public Pagination.Page<RawJson> list(Request r) throws SQLException {
    Params p = r.params();
    Optional<String> from = p.dateOrDateTime("from");
    Optional<String> to = p.dateOrDateTime("to");
    Optional<String> q = p.first("q");
    Optional<String> status = p.oneOf("status", Vocabulary.MEETING_STATUSES);
    Optional<String> platform = p.oneOf("platform", Vocabulary.PLATFORMS);
    Optional<String> source = p.oneOf("source", Vocabulary.MEETING_SOURCES);
    Optional<String> language = p.language();
    String orderParam = p.first("order").orElse("-starts_at");
    boolean descending = orderParam.startsWith("-");
    String orderName = descending ? orderParam.substring(1) : orderParam;
    Order order = Arrays.stream(Order.values()).filter(o -> o.name.equals(orderName)).findFirst().orElseThrow(() ->
        ApiError.badParam("order", "order must be one of starts_at, created_at, title, each optionally prefixed by - for descending"));
    int limit = p.limit(200, 50);
    int offset = p.offset();
    MeetingOrder.Query query = new MeetingOrder.Query(from, to, q.map(String::trim).filter(v -> !v.isEmpty()).map(Times::fold),
        status, platform, source, language, order, descending);
    // -1 on a database from before the change log (migration 3), as the order's own version.
    return listOrder.page(r.knownDataVersion().orElse(-1L), r.principal(), query, offset, limit);
  }

  public static Meeting get(Request r) throws SQLException {
    Meeting m = visibleMeeting(r, """
        m.id, m.title, m.platform, m.source, m.status, m.starts_at, m.ends_at, m.join_url, m.organizer_email,
        m.created_at, m.template_id, m.language""",
        rs -> new Meeting(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
            rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10), rs.getString(11),
            rs.getString(12), List.of(), null));
    List<Participant> participants = participants(r.db(), m.id(), r.principal()).stream()
        .map(p -> new Participant(p.displayName(), p.email(), p.isInternal(), p.source(), p.approxJoinedAt(), p.approxLeftAt()))
        .toList();
    return m.with(participants, currentProtocol(r.db(), m.id()));
  }

  /** The meeting's most recent minutes with their tasks in the order of the minutes, or null. */
  private static Protocol currentProtocol(Connection c, String meetingId) throws SQLException {
    String current = "SELECT id FROM protocol WHERE meeting_id = ? AND is_current = 1";
    List<ActionItem> items = new Sql("SELECT id, task, owner_name, due, verdict, status FROM action_item"
        + " WHERE protocol_id = (" + current + ") ORDER BY position", meetingId)
        .list(c, rs -> new ActionItem(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
            rs.getString(5), rs.getString(6)));
    return new Sql("SELECT id, tldr, content_md, generated_at, edited_at FROM protocol WHERE id = (" + current + ")", meetingId)
        .one(c, rs -> new Protocol(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
            items))
        .orElse(null);
  }

  public static ParticipantList participantList(Request r) throws SQLException {
    String id = visibleMeetingId(r);
    return new ParticipantList(id, participants(r.db(), id, r.principal()));
  }

  /**
   * The canonical id of the path's meeting when the key may see it; otherwise 404, also for
   * an id that is no UUID, so that other people's meetings do not show (api-spec 1).
   */
  public static String visibleMeetingId(Request r) throws SQLException {
    return visibleMeeting(r, "m.id", rs -> rs.getString(1));
  }

  /** The path's meeting's canonical id and language, when the key may see it; otherwise 404. */
  public record Seen(String id, String language) {}

  /** {@link #visibleMeetingId}, with the meeting's language (what its transcript is searched by). */
  public static Seen visibleMeetingLanguage(Request r) throws SQLException {
    return visibleMeeting(r, "m.id, m.language", rs -> new Seen(rs.getString(1), rs.getString(2)));
  }

  /** {@code columns} of the path's meeting (aliased m), read by {@code row}, when the key may see it; otherwise 404. */
  private static <T> T visibleMeeting(Request r, String columns, Sql.RowMapper<T> row) throws SQLException {
    String raw = r.path("id");
    if (!Ids.isUuid(raw)) throw meetingNotFound();
    Sql sql = new Sql("SELECT " + columns + " FROM meeting m WHERE m.id = ?", Ids.canonical(raw));
    Visibility.restrict(sql, "m", r.principal());
    return sql.one(r.db(), row).orElseThrow(MeetingsApi::meetingNotFound);
  }

  private static ApiError meetingNotFound() {
    return ApiError.notFound("no meeting with this id is visible to this key");
  }

  private static List<ParticipantRow> participants(Connection c, String meetingId, Principal who) throws SQLException {
    return new Sql("""
        SELECT display_name, email, source, approx_joined_at, approx_left_at, domain, attended
        FROM participant WHERE meeting_id = ? ORDER BY position""", meetingId)
        .list(c, rs -> {
          String domain = rs.getString(6);
          boolean internal = domain != null && who.ownDomains().contains(domain);
          return new ParticipantRow(rs.getString(1), rs.getString(2), internal, rs.getString(3),
              rs.getString(4), rs.getString(5), domain, rs.getInt(7) != 0);
        });
  }
}
