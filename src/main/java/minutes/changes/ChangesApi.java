package minutes.changes;

import io.undertow.server.HttpServerExchange;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import minutes.http.ApiError;
import minutes.http.Params;
import minutes.http.Request;
import minutes.keys.Principal;
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
 * so following next_cursor never skips a change. With {@code wait} (decisions.md "Push") an empty
 * page is held ({@link Held}) until the key's audience has a change or the wait is over. The
 * stream ({@link ChangeStream}) reads the same rows through {@link #after}. Thread-safe.
 */
public final class ChangesApi {
  /** decisions.md "Push": wait is clamped to 0-60 seconds. */
  static final int MAX_WAIT_SECONDS = 60;
  public static final String PATH = "/api/v1/changes", STREAM = PATH + "/stream";

  private final FeedWatch watch;

  public ChangesApi(FeedWatch watch) {
    this.watch = watch;
  }

  /** One change: {@code change} is {@code upsert} (fetch it again) or {@code delete} (gone, or no longer visible). */
  public record Change(String meetingId, String change, String changedAt) {}

  /** {@code data}: {@link Change}s, each written as a JSON object from its columns ({@link JsonRows}). */
  public record ChangePage(List<RawJson> data, String nextCursor, boolean hasMore) {}

  /** A change as the feed holds it: its number, its kind, and its row as /changes writes it. */
  public record Row(long seq, String change, RawJson json) {}

  /** A page of rows after a cursor, and the snapshot's newest number (where the next page starts when none is left). */
  public record Rows(List<Row> rows, boolean more, long newest) {}

  // Each row is written as JSON straight from its columns' bytes (JsonRows), without a Jackson
  // object in between: reading three columns per row and writing them again with Jackson was
  // half the time of a 100-change page (JFR, 2026-11-25).
  private static final JsonRows.Shape CHANGE = JsonRows.object(Change.class, "meeting_id", "change", "changed_at");

  public Object list(Request r) throws SQLException {
    ChangeHistory.State state = ChangeHistory.state(r.db());
    Cursors cursors = new Cursors(state.cursorKey());
    Params p = r.params();
    Optional<Long> since = since(p, cursors);
    int limit = p.limit(1000, 100);
    int wait = p.intClamped("wait", 0, MAX_WAIT_SECONDS, 0);
    // Without since: "now", to take before listing what the client needs (decisions.md).
    if (since.isEmpty()) return new ChangePage(List.of(), cursors.encode(state.newest()), false);
    Rows read = after(r.db(), state, r.principal(), since.get(), limit);
    List<Row> page = read.rows();
    // The whole history up to this snapshot's newest number has been read when nothing is left:
    // the next page starts there, so a key that sees few meetings does not read the same range again.
    long next = read.more() ? page.get(page.size() - 1).seq() : read.newest();
    ChangePage answer = new ChangePage(page.stream().map(Row::json).toList(), cursors.encode(next), read.more());
    if (page.isEmpty() && wait > 0) return new Held(answer, watch, Visibility.of(r.principal()), read.newest(), wait);
    return answer;
  }

  /**
   * Whether a request may be held open for long, a long-poll with {@code wait} or the stream:
   * load shedding counts those against changes.max_waiting, not http.max_in_flight.
   */
  public static boolean mayBeHeld(HttpServerExchange ex) {
    String path = ex.getRequestPath();
    if (path.startsWith(STREAM)) return path.length() == STREAM.length() || path.equals(STREAM + "/");
    return (path.equals(PATH) || path.equals(PATH + "/")) && ex.getQueryParameters().containsKey("wait");
  }

  /** The {@code since} cursor, or 400 naming it. */
  static Optional<Long> since(Params p, Cursors cursors) {
    return p.token("since", cursors::decode,
        "since must be a next_cursor from an earlier answer of this endpoint (leave it out to start)");
  }

  /**
   * Up to {@code limit} changes after number {@code after} that {@code principal}'s audience may
   * learn of, in {@code state}'s snapshot (the stream's pages, a webhook's deliveries); 410 for a
   * cursor older than the history kept or newer
   * than the database's.
   */
  public static Rows after(Connection c, ChangeHistory.State state, Principal principal, long after, int limit) throws SQLException {
    refuseExpired(state, after);
    Visibility.Rule rule = Visibility.of(principal);
    String viewer = rule.viewer() == null ? ChangeHistory.WHOLE_WORKSPACE : rule.viewer();
    int seqColumn = CHANGE.width() + 1;
    List<Row> rows = new Sql("SELECT " + CHANGE.in() + ", seq, change FROM change_feed"
        + " WHERE workspace_id = ? AND viewer = ? AND seq > ? ORDER BY seq LIMIT ?", rule.workspaceId(), viewer, after, limit + 1)
        .list(c, rs -> new Row(rs.getLong(seqColumn), rs.getString(seqColumn + 1), CHANGE.read(rs)));
    boolean more = rows.size() > limit;
    return new Rows(more ? rows.subList(0, limit) : rows, more, state.newest());
  }

  /** 410 {@code cursor_expired} for a cursor at {@code after} that {@code state} no longer (or not yet) holds. */
  private static void refuseExpired(ChangeHistory.State state, long after) {
    if (after < state.prunedThrough()) {
      throw ApiError.cursorExpired("since", "this cursor is older than the change history kept (changes.retention_days): "
          + "list what you need again, then follow the feed from a new cursor (leave since out)");
    }
    if (after > state.newest()) {
      // One of ours, from a later state of this database: it was restored from an older backup.
      throw ApiError.cursorExpired("since", "this cursor is newer than the database's history (was it restored from a "
          + "backup?): list what you need again, then follow the feed from a new cursor (leave since out)");
    }
  }
}
