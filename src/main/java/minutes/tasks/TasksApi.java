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
import minutes.keys.Principal;
import minutes.keys.Visibility;
import minutes.store.Ids;
import minutes.store.JsonRows;
import minutes.store.ListOrder;
import minutes.store.RawJson;
import minutes.store.Sql;
import minutes.store.Times;
import minutes.store.Totals;
import minutes.store.Vocabulary;

/** GET /meetings/{id}/action-items (api-spec 4.4, quirks kept) and GET /action-items (4.5). Thread-safe. */
public final class TasksApi {
  private final TaskOrder order;
  private final Totals totals = new Totals();

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
  private static final JsonRows.Shape TASK_JSON = JsonRows.object(Task.class,
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
    long version = r.dataVersion();
    Optional<ListOrder.Page> fromIndex = order.page(version, r.principal(), f, offset, limit);
    if (fromIndex.isPresent()) {
      return new Pagination.Page<>(byRowid(r.db(), fromIndex.get().ids()),
          new Pagination(limit, offset, fromIndex.get().total()));
    }
    return allFromSql(r.db(), version, r.principal(), f, offset, limit);
  }

  /**
   * The page's rows, read in the request's transaction, in the snapshot's order: from action_item
   * alone, which carries its meeting's title and start (migration V6).
   */
  static List<RawJson> byRowid(Connection c, long[] rowids) throws SQLException {
    return JsonRows.byRowid(c, TASK_JSON, "FROM action_item a", "a", rowids);
  }

  /**
   * The same list from SQL alone: used while the in-memory order is being built (at start, and
   * after an import). Each total is counted once per data version, as the order does: counting
   * 2,000,000 tasks on every request made it 500 ms a request at 200,000 meetings.
   */
  Pagination.Page<RawJson> allFromSql(Connection c, long version, Principal who, TaskOrder.Filter f,
      int offset, int limit) throws SQLException {
    // a.workspace_id repeats m.workspace_id so that the ordered index on action_item serves
    // both the filter and the order; the page's ids are found before any join, so a deep
    // offset skips index entries only.
    Sql where = new Sql("FROM action_item a WHERE a.is_current = 1");
    Visibility.restrict(where, "a.workspace_id", "a.meeting_id", who);
    f.meetingId().ifPresent(v -> where.add("AND a.meeting_id = ?", v));
    filters(where, f.status(), f.verdict(), f.dueFrom(), f.dueTo());

    long total = totals.count(c, Optional.of(version), new Sql("SELECT count(*)").add(where));
    String order = "ORDER BY a.due_key, a.meeting_starts_at DESC NULLS LAST, a.id";
    List<RawJson> rows = new Sql("SELECT " + TASK_JSON.in() + " FROM (SELECT a.id")
        .add(where)
        .add(order + " LIMIT ? OFFSET ?) page", limit, offset)
        .add("JOIN action_item a ON a.id = page.id")
        .add(order)
        .list(c, rs -> TASK_JSON.read(rs));
    return new Pagination.Page<>(rows, new Pagination(limit, offset, total));
  }

  private static void filters(Sql where, Optional<String> status, Optional<String> verdict,
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
