package minutes.tasks;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import minutes.http.Pagination;
import minutes.keys.Principal;
import minutes.keys.Visibility;
import minutes.store.RawJson;
import minutes.store.Sql;

/**
 * GET /action-items in SQL alone, the simple way: the oracle the in-memory order ({@link TaskOrder},
 * the only way the server answers) is compared with.
 */
final class TasksSql {
  private TasksSql() {}

  static Pagination.Page<RawJson> page(Connection c, Principal who, TaskOrder.Filter f, int offset, int limit)
      throws SQLException {
    Sql where = new Sql("FROM action_item a WHERE a.is_current = 1");
    Visibility.restrict(where, "a.workspace_id", "a.meeting_id", who);
    f.meetingId().ifPresent(v -> where.add("AND a.meeting_id = ?", v));
    TasksApi.filters(where, f.status(), f.verdict(), f.dueFrom(), f.dueTo());

    long total = new Sql("SELECT count(*)").add(where).count(c);
    List<RawJson> rows = new Sql("SELECT " + TasksApi.TASK_JSON.in())
        .add(where)
        .add("ORDER BY a.due_key, a.meeting_starts_at DESC NULLS LAST, a.id LIMIT ? OFFSET ?", limit, offset)
        .list(c, rs -> TasksApi.TASK_JSON.read(rs));
    return new Pagination.Page<>(rows, new Pagination(limit, offset, total));
  }
}
