package minutes.tasks;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import minutes.keys.Principal;
import minutes.keys.Visibility;
import minutes.store.DataSnapshot;
import minutes.store.Db;
import minutes.store.Dialect;
import minutes.store.ListOrder;
import minutes.store.Totals;
import minutes.store.Vocabulary;

/**
 * Every current task in the order of GET /action-items, held in compact arrays per workspace,
 * as of one data version: the only way that list answers. Counting 400,000 tasks in SQLite
 * takes about 60 ms and a personal key's visibility check over them far longer; a scan of
 * these arrays takes about a millisecond (the A/B against SQL alone in docs/BENCHMARKS.md). The
 * page's rows are then read from the database in the request's own transaction; see
 * {@link DataSnapshot} for which version a request gets. Thread-safe.
 */
public final class TaskOrder implements AutoCloseable {
  static final int NO_DUE = Integer.MAX_VALUE;

  private final DataSnapshot<Snapshot> snapshot;
  private final Totals totals = new Totals();

  public TaskOrder(Db db) {
    this.snapshot = new DataSnapshot<>(db, "task order", TaskOrder::load);
  }

  /** Filters of the cross-meeting list; empty optionals do not filter. */
  record Filter(Optional<String> meetingId, Optional<String> status, Optional<String> verdict,
      Optional<LocalDate> dueFrom, Optional<LocalDate> dueTo) {}

  /** The page from the snapshot of {@code version} or a newer one. */
  ListOrder.Page page(long version, Principal who, Filter f, int offset, int limit) throws SQLException {
    DataSnapshot.Held<Snapshot> held = snapshot.at(version);
    Snapshot s = held.value();
    Tasks tasks = s.byWorkspace.get(who.workspaceId());
    if (tasks == null) return ListOrder.EMPTY;
    String viewer = Visibility.of(who).viewer();
    BitSet visible = viewer == null ? null : s.viewers.getOrDefault(viewer, new BitSet());
    // A meeting without current tasks has no number here: nothing to list.
    if (f.meetingId().isPresent() && !s.meetingOrder.containsKey(f.meetingId().get())) return ListOrder.EMPTY;
    int meeting = f.meetingId().map(s.meetingOrder::get).orElse(-1);
    byte status = Vocabulary.code(Vocabulary.TASK_STATUSES, f.status());
    byte verdict = Vocabulary.code(Vocabulary.VERDICTS, f.verdict());
    boolean dueBounded = f.dueFrom().isPresent() || f.dueTo().isPresent();
    int dueFrom = f.dueFrom().map(d -> (int) d.toEpochDay()).orElse(Integer.MIN_VALUE);
    int dueTo = f.dueTo().map(d -> (int) d.toEpochDay()).orElse(NO_DUE - 1);
    // Due bounds choose the range below; the rest filter entries in it.
    boolean filtered = visible != null || meeting >= 0 || status >= 0 || verdict >= 0;
    String filterKey = !filtered ? null : who.workspaceId() + "|"
        + (viewer == null ? "" : viewer) + "|" + meeting + "|" + status + "|" + verdict
        + "|" + dueFrom + "|" + dueTo;
    // The order is by due date first: due bounds are a range of it, found by binary search,
    // instead of a scan that passes every task due before it (most, for a date in the future).
    // An inverted range (due_from after due_to) finds its end before its start: it selects
    // nothing (decisions.md, "Ranges"), so the range is clamped to empty, never negative.
    int first = dueBounded ? tasks.firstDueOnOrAfter(dueFrom) : 0;
    int end = dueBounded ? Math.max(first, tasks.firstDueOnOrAfter(dueTo + 1)) : tasks.size;
    ListOrder.Entries entries = new ListOrder.Entries() {
      @Override
      public boolean keep(int position) {
        int i = first + position;
        return (meeting < 0 || tasks.meeting[i] == meeting)
            && (status < 0 || tasks.status[i] == status)
            && (verdict < 0 || tasks.verdict[i] == verdict)
            && (visible == null || visible.get(tasks.meeting[i]));
      }

      @Override
      public long id(int position) {
        return tasks.rowid[first + position];
      }
    };
    return ListOrder.page(end - first, entries, filterKey, offset, limit, totals, held.version());
  }

  /** Builds the order now: at start, before the server listens. */
  public void build() throws SQLException {
    snapshot.build();
  }

  /** The data version is now {@code version}: rebuild ({@link DataSnapshot#changed}). */
  public void changed(long version) {
    snapshot.changed(version);
  }

  private static Snapshot load(Connection c) throws SQLException {
    Map<String, Integer> meetingOrder = new HashMap<>();
    Map<Long, Tasks> byWorkspace = new HashMap<>();
    Db.rowsPerWorkspace(c, "action_item WHERE is_current = 1").forEach((ws, n) -> byWorkspace.put(ws, new Tasks(n)));
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT a.workspace_id, " + Dialect.of(c).rowid("a") + ", a.status, a.verdict, a.due, a.meeting_id"
            + " FROM action_item a WHERE a.is_current = 1"
            + " ORDER BY a.workspace_id, a.is_current, a.due_key, a.meeting_starts_at DESC NULLS LAST, a.id")) {
      while (rs.next()) {
        Tasks t = byWorkspace.get(rs.getLong(1));
        String due = rs.getString(5);
        int meeting = meetingOrder.computeIfAbsent(rs.getString(6), k -> meetingOrder.size());
        t.add(rs.getLong(2), Vocabulary.code(Vocabulary.TASK_STATUSES, rs.getString(3)),
            Vocabulary.code(Vocabulary.VERDICTS, rs.getString(4)),
            due == null ? NO_DUE : (int) LocalDate.parse(due).toEpochDay(), meeting);
      }
    }
    Map<String, BitSet> viewers = new HashMap<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT email, meeting_id FROM meeting_viewer")) {
      while (rs.next()) {
        Integer meeting = meetingOrder.get(rs.getString(2));
        if (meeting != null) {
          viewers.computeIfAbsent(Visibility.viewerKey(rs.getString(1)), k -> new BitSet()).set(meeting);
        }
      }
    }
    return new Snapshot(byWorkspace, meetingOrder, viewers);
  }

  /** Whether the order is built now, and how long its last build took (/metrics). */
  public DataSnapshot.Status status() {
    return snapshot.status();
  }

  @Override
  public void close() {
    snapshot.close();
  }

  private record Snapshot(Map<Long, Tasks> byWorkspace, Map<String, Integer> meetingOrder, Map<String, BitSet> viewers) {}

  /** Parallel arrays, one slot per task, in list order. */
  private static final class Tasks {
    int size;
    final long[] rowid;
    final byte[] status;
    final byte[] verdict;
    final int[] due;
    final int[] meeting;

    Tasks(int capacity) {
      rowid = new long[capacity];
      status = new byte[capacity];
      verdict = new byte[capacity];
      due = new int[capacity];
      meeting = new int[capacity];
    }

    /**
     * The first position whose due day is {@code day} or later ({@link #NO_DUE} after every
     * date), or {@code size}. The tasks come sorted by due_key, the ISO date or '~', which sorts
     * as the day numbers do.
     */
    int firstDueOnOrAfter(int day) {
      int low = 0, high = size;
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (due[mid] < day) low = mid + 1;
        else high = mid;
      }
      return low;
    }

    void add(long id, byte s, byte v, int d, int m) {
      rowid[size] = id;
      status[size] = s;
      verdict[size] = v;
      due[size] = d;
      meeting[size] = m;
      size++;
    }
  }
}
