package minutes.tasks;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import minutes.keys.Principal;
import minutes.store.Db;
import minutes.store.Vocabulary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every current task in the order of GET /action-items, held in compact arrays per workspace,
 * as of one data version (the last change_log seq). Counting 400,000 tasks in SQLite takes
 * about 60 ms and a personal key's visibility check over them far longer; a scan of these
 * arrays takes about a millisecond. SQLite stays the source of truth: the snapshot is used
 * only when the request's own read transaction sees the same version, and the page's rows
 * are then read from SQLite in that transaction. Otherwise the caller falls back to SQL while
 * a rebuild runs in the background. Thread-safe.
 */
public final class TaskIndex implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TaskIndex.class);
  static final int NO_DUE = Integer.MAX_VALUE;
  private static final int MAX_CACHED_TOTALS = 10_000;

  private final Db db;
  private final ExecutorService builder = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "task-index");
    t.setDaemon(true);
    return t;
  });
  private final AtomicBoolean rebuilding = new AtomicBoolean();
  private volatile Snapshot snapshot;

  public TaskIndex(Db db) {
    this.db = db;
  }

  /** Filters of the cross-meeting list; empty optionals do not filter. */
  record Filter(Optional<String> meetingId, Optional<String> status, Optional<String> verdict,
      Optional<LocalDate> dueFrom, Optional<LocalDate> dueTo) {}

  /** One page: the total ignoring limit and offset, and the page's task rowids in order. */
  record Page(long total, long[] rowids) {}

  /**
   * The page from the snapshot, when the snapshot is of {@code version}; empty (and a rebuild
   * started) when it is not, so the caller answers from SQL.
   */
  Optional<Page> page(long version, Principal who, Filter f, int offset, int limit) {
    Snapshot s = snapshot;
    if (s == null || s.version != version) {
      rebuildLater();
      return Optional.empty();
    }
    Tasks tasks = s.byWorkspace.get(who.workspaceId());
    if (tasks == null) return Optional.of(new Page(0, new long[0]));
    BitSet visible = who.isPersonal() ? s.viewers.getOrDefault(who.userEmail().toLowerCase(Locale.ROOT), new BitSet()) : null;
    int meeting = -1;
    if (f.meetingId().isPresent()) {
      Integer idx = s.meetingIndex.get(f.meetingId().get());
      if (idx == null) return Optional.of(new Page(0, new long[0]));
      meeting = idx;
    }
    byte status = f.status().map(v -> (byte) Vocabulary.TASK_STATUSES.indexOf(v)).orElse((byte) -1);
    byte verdict = f.verdict().map(v -> (byte) Vocabulary.VERDICTS.indexOf(v)).orElse((byte) -1);
    boolean dueBounded = f.dueFrom().isPresent() || f.dueTo().isPresent();
    int dueFrom = f.dueFrom().map(d -> (int) d.toEpochDay()).orElse(Integer.MIN_VALUE);
    int dueTo = f.dueTo().map(d -> (int) d.toEpochDay()).orElse(NO_DUE - 1);

    if (visible == null && meeting < 0 && status < 0 && verdict < 0 && !dueBounded) {
      // The whole workspace in list order: the page is a slice, no scan needed.
      int from = (int) Math.min(offset, tasks.size);
      int to = (int) Math.min((long) from + limit, tasks.size);
      return Optional.of(new Page(tasks.size, java.util.Arrays.copyOfRange(tasks.rowid, from, to)));
    }
    // The total of a filter is counted once per snapshot; later pages stop scanning as soon as
    // they are filled, which for the first pages is after a few thousand entries, not 400,000.
    String countKey = who.workspaceId() + "|" + (visible == null ? "" : who.userEmail().toLowerCase(Locale.ROOT))
        + "|" + meeting + "|" + status + "|" + verdict + "|" + dueFrom + "|" + dueTo;
    Long knownTotal = s.totals.get(countKey);
    long[] page = new long[limit];
    int filled = 0;
    long total = 0;
    for (int i = 0; i < tasks.size; i++) {
      if (meeting >= 0 && tasks.meeting[i] != meeting) continue;
      if (status >= 0 && tasks.status[i] != status) continue;
      if (verdict >= 0 && tasks.verdict[i] != verdict) continue;
      if (dueBounded && (tasks.due[i] < dueFrom || tasks.due[i] > dueTo)) continue;
      if (visible != null && !visible.get(tasks.meeting[i])) continue;
      if (total >= offset && filled < limit) page[filled++] = tasks.rowid[i];
      total++;
      if (knownTotal != null && filled == limit) break;
    }
    if (knownTotal == null) {
      if (s.totals.size() >= MAX_CACHED_TOTALS) s.totals.clear(); // bounded: filters come from users
      s.totals.put(countKey, total);
      knownTotal = total;
    }
    return Optional.of(new Page(knownTotal, java.util.Arrays.copyOf(page, filled)));
  }

  /** Builds a snapshot now (tests); the server uses {@link #buildInBackground()}. */
  public void buildNow() {
    try {
      snapshot = load();
    } catch (SQLException e) {
      log.warn("task index not built; the task list answers from SQL until it is: {}", e.getMessage());
    }
  }

  /** Start-up: the server answers from SQL until the first snapshot is there, so it is ready at once. */
  public void buildInBackground() {
    rebuildLater();
  }

  private void rebuildLater() {
    if (!rebuilding.compareAndSet(false, true)) return;
    builder.execute(() -> {
      try {
        snapshot = load();
      } catch (SQLException | RuntimeException e) {
        log.warn("task index rebuild failed; the task list answers from SQL meanwhile: {}", e.getMessage());
      } finally {
        rebuilding.set(false);
      }
    });
  }

  private Snapshot load() throws SQLException {
    long started = System.nanoTime();
    try (Connection c = db.read()) {
      c.setAutoCommit(false); // one snapshot for the version and the rows
      try {
        long version = Db.dataVersion(c);
        Map<String, Integer> meetingIndex = new HashMap<>();
        Map<Long, Tasks> byWorkspace = new HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("""
            SELECT a.workspace_id, a.rowid, a.status, a.verdict, a.due, a.meeting_id FROM action_item a
            WHERE a.is_current = 1
            ORDER BY a.workspace_id, a.is_current, a.due_key, a.meeting_starts_at DESC, a.id""")) {
          while (rs.next()) {
            Tasks t = byWorkspace.computeIfAbsent(rs.getLong(1), k -> new Tasks());
            String due = rs.getString(5);
            int meeting = meetingIndex.computeIfAbsent(rs.getString(6), k -> meetingIndex.size());
            t.add(rs.getLong(2), (byte) Vocabulary.TASK_STATUSES.indexOf(rs.getString(3)),
                (byte) Vocabulary.VERDICTS.indexOf(rs.getString(4)),
                due == null ? NO_DUE : (int) LocalDate.parse(due).toEpochDay(), meeting);
          }
        }
        Map<String, BitSet> viewers = new HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT email, meeting_id FROM meeting_viewer")) {
          while (rs.next()) {
            Integer meeting = meetingIndex.get(rs.getString(2));
            if (meeting != null) {
              viewers.computeIfAbsent(rs.getString(1).toLowerCase(Locale.ROOT), k -> new BitSet()).set(meeting);
            }
          }
        }
        long tasks = byWorkspace.values().stream().mapToLong(t -> t.size).sum();
        log.info("task index: {} tasks of {} meetings at version {} in {} ms", tasks, meetingIndex.size(), version,
            (System.nanoTime() - started) / 1_000_000);
        return new Snapshot(version, byWorkspace, meetingIndex, viewers, new java.util.concurrent.ConcurrentHashMap<>());
      } finally {
        c.rollback();
      }
    }
  }

  @Override
  public void close() {
    builder.shutdownNow();
  }

  private record Snapshot(long version, Map<Long, Tasks> byWorkspace, Map<String, Integer> meetingIndex,
      Map<String, BitSet> viewers, Map<String, Long> totals) {}

  /** Parallel arrays, one slot per task, in list order. */
  private static final class Tasks {
    int size;
    long[] rowid = new long[1024];
    byte[] status = new byte[1024];
    byte[] verdict = new byte[1024];
    int[] due = new int[1024];
    int[] meeting = new int[1024];

    void add(long id, byte s, byte v, int d, int m) {
      if (size == rowid.length) {
        int n = size * 2;
        rowid = java.util.Arrays.copyOf(rowid, n);
        status = java.util.Arrays.copyOf(status, n);
        verdict = java.util.Arrays.copyOf(verdict, n);
        due = java.util.Arrays.copyOf(due, n);
        meeting = java.util.Arrays.copyOf(meeting, n);
      }
      rowid[size] = id;
      status[size] = s;
      verdict[size] = v;
      due[size] = d;
      meeting[size] = m;
      size++;
    }
  }
}
