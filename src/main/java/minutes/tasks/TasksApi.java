package minutes.tasks;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import minutes.http.ApiError;
import minutes.http.Pagination;
import minutes.http.Params;
import minutes.http.Request;
import minutes.keys.Visibility;
import minutes.store.Ids;
import minutes.store.JsonRows;
import minutes.store.ListOrder;
import minutes.store.RawJson;
import minutes.store.Sql;
import minutes.store.Times;
import minutes.store.Vocabulary;

/** GET /meetings/{id}/action-items (api-spec 4.4, quirks kept) and GET /action-items (4.5). Thread-safe. */
public final class TasksApi {
  private final TaskOrder order;

  public TasksApi(TaskOrder order) {
    this.order = order;
  }

  /** Shape 2.4b. */
  public record MeetingTask(String id, String task, String ownerName, String due, String verdict, String status,
      String protocolId) {}

  /** Shape 2.4c. */
  public record Task(String id, String task, String ownerName, String due, String verdict, String status,
      String meetingId, String meetingTitle, String meetingStartsAt, String protocolId) {}

  public record MeetingTaskList(String meetingId, List<RawJson> data, Pagination pagination) {}

  private static final JsonRows.Shape MEETING_TASK_JSON = JsonRows.object(MeetingTask.class,
      "a.id", "a.task", "a.owner_name", "a.due", "a.verdict", "a.status", "a.protocol_id");
  static final JsonRows.Shape TASK_JSON = JsonRows.object(Task.class,
      "a.id", "a.task", "a.owner_name", "a.due", "a.verdict", "a.status", "a.meeting_id", "a.meeting_title",
      "a.meeting_starts_at", "a.protocol_id");

  /**
   * Tasks of the meeting's most recent minutes. Quirks of api-spec 4.4, kept on purpose:
   * no 404 (an invisible or malformed meeting is an empty list), pagination.limit is the
   * number of rows delivered, pagination.offset is always 0, and an unusable due_from or
   * due_to is a 500 naming the field, never a 400.
   */
  public MeetingTaskList ofMeeting(Request r) throws SQLException {
    Params p = r.params();
    String rawId = r.path("id");
    Optional<String> status = p.oneOf("status", Vocabulary.TASK_STATUSES);
    Optional<String> verdict = p.oneOf("verdict", Vocabulary.VERDICTS);
    // quirk (api-spec 4.4 rule 5): the due filters are not validated as input; one the
    // query cannot use fails as a server error naming the field. Keep.
    Optional<LocalDate> dueFrom = uncheckedDate(p, "due_from");
    Optional<LocalDate> dueTo = uncheckedDate(p, "due_to");
    int limit = p.limit(200, 100);
    int offset = p.offset();
    if (!Ids.isUuid(rawId)) return new MeetingTaskList(rawId, List.of(), new Pagination(0, 0, 0));
    String id = Ids.canonical(rawId);

    Sql where = new Sql("FROM action_item a JOIN meeting m ON m.id = a.meeting_id WHERE a.meeting_id = ? AND a.is_current = 1", id);
    Visibility.restrict(where, "m", r.principal());
    filters(where, status, verdict, dueFrom, dueTo);
    long total = new Sql("SELECT count(*)").add(where).count(r.db());
    List<RawJson> rows = new Sql("SELECT " + MEETING_TASK_JSON.in())
        .add(where)
        .add("ORDER BY a.due_key, a.position LIMIT ? OFFSET ?", limit, offset)
        .list(r.db(), rs -> MEETING_TASK_JSON.read(rs));
    // quirk (api-spec 4.4 rules 2 and 3): limit reports the rows delivered, offset is always 0.
    return new MeetingTaskList(id, rows, new Pagination(rows.size(), 0, total));
  }

  /** Every task the key may see, from each meeting's most recent minutes. */
  public Pagination.Page<RawJson> all(Request r) throws SQLException {
    Params p = r.params();
    TaskOrder.Filter f = new TaskOrder.Filter(p.uuid("meeting_id"), p.oneOf("status", Vocabulary.TASK_STATUSES),
        p.oneOf("verdict", Vocabulary.VERDICTS), p.date("due_from"), p.date("due_to"));
    int limit = p.limit(200, 100);
    int offset = p.offset();
    // dataVersion, not knownDataVersion: this route needs change_log to exist (App's TASKS tables).
    ListOrder.Page page = order.page(r.dataVersion(), r.principal(), f, offset, limit);
    return new Pagination.Page<>(byRowid(r.db(), page.ids()), new Pagination(limit, offset, page.total()));
  }

  /**
   * The page's rows, read in the request's transaction, in the order's order: from action_item
   * alone, which carries its meeting's title and start (migration V6).
   */
  static List<RawJson> byRowid(Connection c, long[] rowids) throws SQLException {
    return JsonRows.byRowid(c, TASK_JSON, "FROM action_item a", "a", rowids);
  }

  /** The filters both task lists share: in SQL for one meeting's tasks, and in the test oracle of {@link TaskOrder}. */
  static void filters(Sql where, Optional<String> status, Optional<String> verdict,
      Optional<LocalDate> dueFrom, Optional<LocalDate> dueTo) {
    status.ifPresent(v -> where.add("AND a.status = ?", v));
    verdict.ifPresent(v -> where.add("AND a.verdict = ?", v));
    // Bounds keep only tasks with a due date; due_key of a task without one is '~', after every date.
    if (dueFrom.isPresent() || dueTo.isPresent()) where.add("AND a.due IS NOT NULL");
    dueFrom.ifPresent(d -> where.add("AND a.due_key >= ?", d.toString()));
    dueTo.ifPresent(d -> where.add("AND a.due_key <= ?", d.toString()));
  }

  private static Optional<LocalDate> uncheckedDate(Params p, String name) {
    Optional<String> raw = p.first(name);
    if (raw.isEmpty()) return Optional.empty();
    LocalDate d = Times.parseDate(raw.get());
    if (d == null) throw ApiError.internal(name, "could not filter by " + name + ": unusable date value");
    return Optional.of(d);
  }
}
