package minutes.keys;

import minutes.store.Emails;
import minutes.store.Sql;

/**
 * The rows a key may see, as SQL: its workspace, and for a personal key only the meetings
 * that list its user in {@code visible_to}. Every query that reads meetings goes through here.
 */
public final class Visibility {
  private Visibility() {}

  /** Adds the visibility condition for the meeting aliased {@code m}. */
  public static Sql restrict(Sql sql, String meetingAlias, Principal p) {
    return restrict(sql, meetingAlias + ".workspace_id", meetingAlias + ".id", p);
  }

  /**
   * The same condition on columns that hold a meeting's workspace and id, e.g. a task's copies
   * of them, so that a query can filter before joining the meeting.
   */
  public static Sql restrict(Sql sql, String workspaceColumn, String meetingIdColumn, Principal p) {
    sql.add("AND " + workspaceColumn + " = ?", p.workspaceId());
    if (p.isPersonal()) {
      // IN, not a correlated EXISTS: SQLite builds the user's meeting set once per query.
      sql.add("AND " + meetingIdColumn + " IN (SELECT meeting_id FROM meeting_viewer WHERE email = ?)", viewerKey(p.userEmail()));
    }
    return sql;
  }

  /** An email as meeting_viewer holds it, for in-memory copies of that table and the search index. */
  public static String viewerKey(String email) {
    return Emails.key(email);
  }
}
