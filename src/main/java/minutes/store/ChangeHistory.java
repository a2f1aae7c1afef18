package minutes.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The history every search index and the change feed follow: change_log numbers each meeting an
 * import changed, change_feed says which audience learns of it and as what (decisions.md "Change
 * feed"), change_state how much history was pruned and the key that signs cursors.
 *
 * <p>One instance per import, inside its transaction (not thread-safe). It remembers who could
 * see each meeting before the import first touched it and who can after the last line that did,
 * and writes only that net change when the import ends: an audience never learns of a state
 * that was never committed (a meeting created and deleted by one file, a viewer added and taken
 * away again). Memory: one small entry per meeting the import touches, its audiences before
 * and after being sets shared by every meeting with the same ones (two sets of its own per
 * meeting doubled an import's heap). The static readers are for servers.
 */
public final class ChangeHistory {
  /** The viewer of a workspace's own keys, which see every meeting of it. */
  public static final String WHOLE_WORKSPACE = "";
  public static final String UPSERT = "upsert", DELETE = "delete";
  private static final int BATCH = 1000;
  /** Meetings per query of {@link #preload}: well under both stores' limits on bound values. */
  private static final int PRELOAD = 500;

  /** Who may see a meeting: a workspace's keys (viewer {@link #WHOLE_WORKSPACE}) or one user's personal keys. */
  record Audience(long workspaceId, String viewer) {}

  /** Before and after are {@link #shared} sets: replaced, never changed. */
  private static final class Touch {
    final Set<Audience> before;
    Set<Audience> after;
    boolean content; // its records were written or removed, not only its viewers changed

    Touch(Set<Audience> before) {
      this.before = before;
      this.after = before;
    }
  }

  private final Connection c;
  private final Map<String, Touch> touched = new LinkedHashMap<>();
  /** Who saw each meeting the file names when the import began, read in bulk ({@link #preload}). */
  private final Map<String, Set<Audience>> atStart = new HashMap<>();
  private final Set<Long> purgedWorkspaces = new HashSet<>();
  private final Set<Audience> purgedViewers = new HashSet<>();
  /** One immutable copy of each distinct audience set (a workspace and a few viewers: few of them). */
  private final Map<Set<Audience>, Set<Audience>> sets = new HashMap<>();

  ChangeHistory(Connection c) {
    this.c = c;
  }

  /**
   * Reads who sees each of these meetings now, a few hundred per query, so that {@link #touching}
   * need not ask meeting by meeting (one round trip each, which PostgreSQL made felt). Call at
   * the start of the import's writing, with the meetings its lines name.
   */
  void preload(Collection<String> ids) throws SQLException {
    List<String> all = List.copyOf(ids);
    for (int from = 0; from < all.size(); from += PRELOAD) {
      List<String> chunk = all.subList(from, Math.min(all.size(), from + PRELOAD));
      Map<String, Set<Audience>> stored = new HashMap<>();
      new Sql("SELECT m.id, m.workspace_id, v.email FROM meeting m LEFT JOIN meeting_viewer v ON v.meeting_id = m.id"
          + " WHERE m.id IN (" + String.join(", ", java.util.Collections.nCopies(chunk.size(), "?")) + ")",
          chunk.toArray()).list(c, rs -> {
            add(stored.computeIfAbsent(rs.getString(1), k -> new HashSet<>()), rs.getLong(2), rs.getString(3));
            return null;
          });
      for (String id : chunk) atStart.put(id, shared(stored.getOrDefault(id, Set.of())));
    }
  }

  /** Call before a line changes meeting {@code id}: the first time, remembers who sees it now. */
  void touching(String id) throws SQLException {
    if (touched.containsKey(id)) return;
    // Preloaded values still hold: every change to a meeting's audience comes here first.
    if (!atStart.containsKey(id)) preload(List.of(id));
    touched.put(id, new Touch(atStart.remove(id)));
  }

  /** Whether meeting {@code id}, {@link #touching touched} already, is in the database at this point of the import. */
  boolean stored(String id) {
    return !touched.get(id).after.isEmpty();
  }

  /** Whether meeting {@code id}, {@link #touching touched} already, is in workspace {@code workspaceId} at this point of the import. */
  boolean storedIn(String id, long workspaceId) {
    return touched.get(id).after.contains(new Audience(workspaceId, WHOLE_WORKSPACE));
  }

  /** The one immutable copy of an audience set; copied only the first time it is seen. */
  private Set<Audience> shared(Set<Audience> audiences) {
    Set<Audience> known = sets.get(audiences);
    return known != null ? known : sets.computeIfAbsent(Set.copyOf(audiences), copy -> copy);
  }

  private static void add(Set<Audience> audiences, long workspaceId, String viewer) {
    audiences.add(new Audience(workspaceId, WHOLE_WORKSPACE));
    if (viewer != null) audiences.add(new Audience(workspaceId, viewer));
  }

  /** The meeting as a line wrote it: in this workspace, visible to these users (folded emails). */
  void written(String id, long workspaceId, Collection<String> viewers) {
    Set<Audience> after = new HashSet<>();
    after.add(new Audience(workspaceId, WHOLE_WORKSPACE));
    for (String v : viewers) after.add(new Audience(workspaceId, v));
    Touch t = touched.get(id);
    t.after = shared(after);
    t.content = true;
  }

  /** The meeting is gone. */
  void deleted(String id) {
    Touch t = touched.get(id);
    t.after = Set.of();
    t.content = true;
  }

  /** A user no longer sees the meeting (taken out of visible_to); its records did not change. */
  void unseen(String id, long workspaceId, String viewer) {
    Touch t = touched.get(id);
    Set<Audience> after = new HashSet<>(t.after);
    after.remove(new Audience(workspaceId, viewer));
    t.after = shared(after);
  }

  /** A deleted workspace: its history goes, and no row of it is written again. */
  void purge(long workspaceId) throws SQLException {
    purgedWorkspaces.add(workspaceId);
    new Sql("DELETE FROM change_feed WHERE workspace_id = ?", workspaceId).update(c);
  }

  /** A deleted user: the history of what that user saw goes (its keys are revoked, so nobody could read it). */
  void purge(long workspaceId, String viewer) throws SQLException {
    purgedViewers.add(new Audience(workspaceId, viewer));
    new Sql("DELETE FROM change_feed WHERE workspace_id = ? AND viewer = ?", workspaceId, viewer).update(c);
  }

  /**
   * Writes the import's changes, all stamped {@code at}: per touched meeting one change_log entry
   * (the search index re-reads it) and one change_feed row per audience that learns of it:
   * {@code upsert} for each audience that sees the meeting afterwards (unless only others' access
   * changed), {@code delete} for each that saw it before and no longer does. Then prunes history
   * older than {@code keep}.
   */
  void write(Instant at, Duration keep) throws SQLException {
    String when = Times.format(at);
    Map<String, Long> seqs = numbered(when);
    int pending = 0;
    try (PreparedStatement feed = c.prepareStatement(
        "INSERT INTO change_feed(workspace_id, viewer, seq, meeting_id, change, changed_at) VALUES (?, ?, ?, ?, ?, ?)")) {
      for (Map.Entry<String, Touch> e : touched.entrySet()) {
        Touch t = e.getValue();
        Long seq = seqs.get(e.getKey());
        if (seq == null) continue;
        for (Audience a : t.after) {
          if (t.content || !t.before.contains(a)) {
            pending = batched(feed, pending, a.workspaceId(), a.viewer(), seq, e.getKey(), UPSERT, when);
          }
        }
        for (Audience a : t.before) {
          if (!t.after.contains(a) && !purged(a)) {
            pending = batched(feed, pending, a.workspaceId(), a.viewer(), seq, e.getKey(), DELETE, when);
          }
        }
      }
      if (pending > 0) feed.executeBatch();
    }
    new Sql("UPDATE change_state SET imported = imported + 1").update(c); // Db.knownImportCount
    prune(at, keep);
  }

  /**
   * One change_log entry per touched meeting that an audience saw before or sees after (not one
   * created and deleted by this import: nobody saw it), inserted in batches, then read back by
   * number: this import holds the writer's turn (Dialect#lockForWriting), so every entry above
   * the highest number before it is its own. One round trip per entry made PostgreSQL's import slow.
   */
  private Map<String, Long> numbered(String when) throws SQLException {
    long last = Db.dataVersion(c);
    int pending = 0;
    try (PreparedStatement log = c.prepareStatement("INSERT INTO change_log(meeting_id, changed_at) VALUES (?, ?)")) {
      for (Map.Entry<String, Touch> e : touched.entrySet()) {
        if (e.getValue().before.isEmpty() && e.getValue().after.isEmpty()) continue;
        pending = batched(log, pending, e.getKey(), when);
      }
      if (pending > 0) log.executeBatch();
    }
    Map<String, Long> seqs = new HashMap<>();
    new Sql("SELECT meeting_id, seq FROM change_log WHERE seq > ?", last).list(c, rs -> seqs.put(rs.getString(1), rs.getLong(2)));
    return seqs;
  }

  /** Adds a row to {@code ps}'s batch, which runs every {@link #BATCH} rows; returns the rows left pending. */
  private static int batched(PreparedStatement ps, int pending, Object... values) throws SQLException {
    Sql.bind(ps, values).addBatch();
    if (++pending < BATCH) return pending;
    ps.executeBatch();
    return 0;
  }

  private boolean purged(Audience a) {
    return purgedWorkspaces.contains(a.workspaceId()) || purgedViewers.contains(a);
  }

  /**
   * Removes the history imported more than {@code keep} before {@code now}, oldest first, up to
   * the first entry that is younger (entries are numbered in commit order and stamped with their
   * import's clock, so the old ones come first; one from a machine whose clock runs behind only
   * delays pruning). The newest entry always stays, so that the data version, its number, never
   * goes back. Raises pruned_through, which refuses older cursors (410) and makes search indexes
   * that stopped before it rebuild. Only writers prune: servers hold read-only connections.
   */
  private void prune(Instant now, Duration keep) throws SQLException {
    String cutoff = Times.format(now.minus(keep));
    long newest = Db.dataVersion(c);
    long cut = -1;
    try (PreparedStatement ps = c.prepareStatement("SELECT seq, changed_at FROM change_log WHERE seq < ? ORDER BY seq")) {
      ps.setFetchSize(BATCH); // PostgreSQL: stream the rows instead of reading every one first
      ps.setLong(1, newest);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next() && rs.getString(2).compareTo(cutoff) < 0) cut = rs.getLong(1);
      }
    }
    if (cut < 0) return;
    new Sql("DELETE FROM change_feed WHERE seq <= ?", cut).update(c);
    new Sql("DELETE FROM change_log WHERE seq <= ?", cut).update(c);
    new Sql("UPDATE change_state SET pruned_through = ? WHERE pruned_through < ?", cut, cut).update(c);
  }

  // ---------------------------------------------------------------- readers

  /**
   * The history as the caller's transaction sees it: numbers up to {@code prunedThrough} are
   * gone, {@code newest} is the last one ({@link Db#dataVersion}), and the key cursors are signed with.
   */
  public record State(long prunedThrough, long newest, byte[] cursorKey) {}

  /** The one change_state row with the newest number, in one statement (one round trip for a feed page). */
  public static State state(Connection c) throws SQLException {
    return new Sql("SELECT pruned_through, " + Db.DATA_VERSION_VALUE + ", cursor_key FROM change_state WHERE id = 1")
        .one(c, rs -> new State(rs.getLong(1), rs.getLong(2), rs.getBytes(3)))
        .orElseThrow(() -> new StoreException("change_state has no row: the database was changed by hand", null));
  }
}
