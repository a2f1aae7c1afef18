package minutes.changes;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import minutes.http.ApiError;
import minutes.http.Params;
import minutes.http.Request;
import minutes.keys.Visibility;
import minutes.store.ChangeHistory;
import minutes.store.JsonRows;
import minutes.store.RawJson;
import minutes.store.Sql;

/**
 * GET /changes (decisions.md "Change feed"): the changes committed after a cursor, oldest first,
 * that the caller's audience may learn of (its workspace's, or its user's for a personal key), as
 * each import wrote them into change_feed ({@link ChangeHistory}). One read transaction: the page
 * and the cursor after it come from the same snapshot, and imports commit their numbers in order,
 * so following next_cursor never skips a change. Stateless.
 */
public final class ChangesApi {
  private ChangesApi() {}

  /** One change: {@code change} is {@code upsert} (fetch it again) or {@code delete} (gone, or no longer visible). */
  public record Change(String meetingId, String change, String changedAt) {}

  /** {@code data}: {@link Change}s, each written as a JSON object from its columns ({@link JsonRows}). */
  public record ChangePage(List<RawJson> data, String nextCursor, boolean hasMore) {}

  private record Row(long seq, RawJson change) {}

  // Each row is written as JSON straight from its columns' bytes (JsonRows), without a Jackson
  // object in between: reading three columns per row and writing them again with Jackson was
  // half the time of a 100-change page (JFR, 2026-11-25).
  private static final JsonRows.Shape CHANGE = JsonRows.object(Change.class, "meeting_id", "change", "changed_at");

  public static ChangePage list(Request r) throws SQLException {
    ChangeHistory.State state = ChangeHistory.state(r.db());
    Cursors cursors = new Cursors(state.cursorKey());
    Params p = r.params();
    Optional<Long> since = p.token("since", cursors::decode,
        "since must be a next_cursor from an earlier answer of this endpoint (leave it out to start)");
    int limit = p.limit(1000, 100);
    long newest = state.newest();
    // Without since: "now", to take before listing what the client needs (decisions.md).
    if (since.isEmpty()) return new ChangePage(List.of(), cursors.encode(newest), false);
    long after = since.get();
    if (after < state.prunedThrough()) {
      throw ApiError.cursorExpired("since", "this cursor is older than the change history kept (changes.retention_days): "
          + "list what you need again, then follow the feed from a new cursor (leave since out)");
    }
    if (after > newest) {
      // One of ours, from a later state of this database: it was restored from an older backup.
      throw ApiError.cursorExpired("since", "this cursor is newer than the database's history (was it restored from a "
          + "backup?): list what you need again, then follow the feed from a new cursor (leave since out)");
    }
    Visibility.Rule rule = Visibility.of(r.principal());
    String viewer = rule.viewer() == null ? ChangeHistory.WHOLE_WORKSPACE : rule.viewer();
    int seqColumn = CHANGE.width() + 1;
    List<Row> rows = new Sql("SELECT " + CHANGE.in() + ", seq FROM change_feed"
        + " WHERE workspace_id = ? AND viewer = ? AND seq > ? ORDER BY seq LIMIT ?", rule.workspaceId(), viewer, after, limit + 1)
        .list(r.db(), rs -> new Row(rs.getLong(seqColumn), CHANGE.read(rs)));
    boolean more = rows.size() > limit;
    List<Row> page = more ? rows.subList(0, limit) : rows;
    // The whole history up to this snapshot's newest number has been read when nothing is left:
    // the next page starts there, so a key that sees few meetings does not read the same range again.
    long next = more ? page.get(page.size() - 1).seq() : newest;
    return new ChangePage(page.stream().map(Row::change).toList(), cursors.encode(next), more);
  }
}
