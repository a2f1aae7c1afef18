package minutes.keys;

import minutes.store.Emails;
import minutes.store.Sql;

/**
 * Which meetings a key may see, defined once: those of its workspace, and for a personal key
 * only those whose {@code visible_to} lists its user, emails compared as {@link #viewerKey}
 * does. SQL applies it through {@link #restrict}; the search index and the in-memory list
 * orders through {@link #of}. Stateless.
 */
public final class Visibility {
  private Visibility() {}

  /** The rule for one key: its workspace, and the viewer a meeting must list (null: any meeting of the workspace). */
  public record Rule(long workspaceId, String viewer) {}

  public static Rule of(Principal p) {
    return new Rule(p.workspaceId(), p.isPersonal() ? viewerKey(p.userEmail()) : null);
  }

  /** Adds the visibility condition for the meeting aliased {@code m}. */
  public static void restrict(Sql sql, String meetingAlias, Principal p) {
    restrict(sql, meetingAlias + ".workspace_id", meetingAlias + ".id", p);
  }

  /**
   * The same condition on columns that hold a meeting's workspace and id, e.g. a task's copies
   * of them, so that a query can filter before joining the meeting.
   */
  public static void restrict(Sql sql, String workspaceColumn, String meetingIdColumn, Principal p) {
    sql.add("AND " + workspaceColumn + " = ?", p.workspaceId());
    if (p.isPersonal()) {
      // IN, not a correlated EXISTS: SQLite builds the user's meeting set once per query.
      sql.add("AND " + meetingIdColumn + " IN (SELECT meeting_id FROM meeting_viewer WHERE email = ?)", viewerKey(p.userEmail()));
    }
  }

  /** An email as meeting_viewer holds it, for in-memory copies of that table and the search index. */
  public static String viewerKey(String email) {
    return Emails.key(email);
  }
}
