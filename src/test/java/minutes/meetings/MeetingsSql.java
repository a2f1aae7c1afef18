package minutes.meetings;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import minutes.http.Pagination;
import minutes.keys.Principal;
import minutes.keys.Visibility;
import minutes.store.RawJson;
import minutes.store.Sql;

/**
 * GET /meetings in SQL alone, the simple way: the oracle the in-memory order ({@link MeetingOrder},
 * the only way the server answers) is compared with. Every filter as a WHERE clause, the
 * order as ORDER BY on the indexed column, ties by id.
 */
final class MeetingsSql {
  private MeetingsSql() {}

  static Pagination.Page<RawJson> page(Connection c, Principal who, MeetingOrder.Query query, int offset, int limit)
      throws SQLException {
    Sql where = new Sql("FROM meeting m WHERE 1 = 1");
    Visibility.restrict(where, "m", who);
    query.from().ifPresent(v -> where.add("AND m.sort_at >= ?", v));
    query.to().ifPresent(v -> where.add("AND m.sort_at < ?", v));
    query.titleContains().ifPresent(v -> where.add("AND m.title_folded LIKE ? ESCAPE '\\'", "%" + likeEscape(v) + "%"));
    query.status().ifPresent(v -> where.add("AND m.status = ?", v));
    query.platform().ifPresent(v -> where.add("AND m.platform = ?", v));
    query.source().ifPresent(v -> where.add("AND m.source = ?", v));
    query.language().ifPresent(v -> where.add("AND m.language = ?", v));

    long total = new Sql("SELECT count(*)").add(where).count(c);
    String dir = query.descending() ? " DESC" : " ASC";
    List<RawJson> rows = new Sql("SELECT " + MeetingsApi.ROW_JSON.in())
        .add(where)
        .add("ORDER BY " + query.order().column + dir + ", m.id" + dir + " LIMIT ? OFFSET ?", limit, offset)
        .list(c, rs -> MeetingsApi.ROW_JSON.read(rs));
    return new Pagination.Page<>(rows, new Pagination(limit, offset, total));
  }

  private static String likeEscape(String s) {
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }
}
