package minutes.changes;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import minutes.keys.Visibility;
import minutes.store.ChangeHistory;
import minutes.store.Db;
import minutes.store.Sql;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes what waits for the change feed on this node (held long-polls, open streams) when a change
 * its audience may learn of has committed, or its deadline passes, or the server stops. One
 * thread looks at the newest change number every {@link #POLL_MILLIS} (imports are other
 * processes, or other nodes of a cluster: the database is the one place their commits show); when
 * it moved and someone waits, one more statement reads which audiences the new changes reach, and
 * only their waiters wake. A waiter holds no thread and no connection. Thread-safe.
 */
public final class FeedWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FeedWatch.class);
  /** Well under the 1 s from an import's return to a held long-poll's answer (issue 47). */
  static final long POLL_MILLIS = 100;

  /**
   * One waiter: the audience it reads for, the newest change number its last read saw, when it
   * stops waiting (System.nanoTime, or {@link #NEVER}), and what wakes it. {@code wake}
   * runs on the watch thread (or the caller's, at once): it must hand work off, never block.
   */
  public static final long NEVER = Long.MAX_VALUE;

  public record Waiter(Visibility.Rule audience, long after, long deadline, Runnable wake) {}

  private final Db db;
  private final Object lock = new Object();
  private final List<Waiter> waiting = new ArrayList<>();
  /** The newest change number looked at: every waiter that read at least this far has been told of what came before. */
  private long seen;
  private boolean closed;
  private final Thread thread = Thread.ofPlatform().name("feed-watch").daemon().unstarted(this::loop);

  public FeedWatch(Db db) {
    this.db = db;
  }

  public FeedWatch start() {
    try (Connection c = db.read()) {
      seen = Db.knownDataVersion(c).orElse(0L);
    } catch (Exception e) {
      log.warn("change feed watch: cannot read the change log yet ({}); waiters are woken by time until it can", e.toString());
    }
    thread.start();
    return this;
  }

  /**
   * Adds {@code w}; false (and nothing added) once the server is stopping. A waiter whose read
   * is older than what was looked at already is woken at once, since what it missed was not
   * looked at for it.
   */
  public boolean park(Waiter w) {
    synchronized (lock) {
      if (closed) return false;
      if (w.after() >= seen) {
        waiting.add(w);
        return true;
      }
    }
    w.wake().run();
    return true;
  }

  /** Takes {@code w} out without waking it (a stream that closed). */
  public void leave(Waiter w) {
    synchronized (lock) {
      waiting.remove(w);
    }
  }

  /** Waiters now: held long-polls and streams waiting for their next change. */
  public int waiting() {
    synchronized (lock) {
      return waiting.size();
    }
  }

  private void loop() {
    while (true) {
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException stopping) {
        return;
      }
      Set<Visibility.Rule> reached = Set.of();
      try {
        reached = look();
      } catch (Exception e) {
        // The database is away or a migration is pending: deadlines still end the waits.
        log.debug("change feed watch: {}", e.toString());
      }
      wake(reached, System.nanoTime());
    }
  }

  /** Advances {@link #seen} to the newest change; the audiences the changes between reach, when anyone waits. */
  private Set<Visibility.Rule> look() throws Exception {
    long from;
    boolean anyone;
    synchronized (lock) {
      from = seen;
      anyone = !waiting.isEmpty();
    }
    Set<Visibility.Rule> reached = new HashSet<>();
    long newest;
    try (Connection c = db.read()) {
      newest = Db.dataVersion(c);
      if (newest <= from) return Set.of();
      if (anyone) {
        new Sql("SELECT DISTINCT workspace_id, viewer FROM change_feed WHERE seq > ? AND seq <= ?", from, newest)
            .list(c, rs -> reached.add(new Visibility.Rule(rs.getLong(1),
                rs.getString(2).equals(ChangeHistory.WHOLE_WORKSPACE) ? null : rs.getString(2))));
      }
    }
    synchronized (lock) {
      seen = Math.max(seen, newest);
    }
    return reached;
  }

  /** Wakes (and takes out) each waiter whose audience was reached or whose deadline passed. */
  private void wake(Set<Visibility.Rule> reached, long now) {
    List<Waiter> woken = new ArrayList<>();
    synchronized (lock) {
      waiting.removeIf(w -> (reached.contains(w.audience()) || (w.deadline() != NEVER && now - w.deadline() >= 0)) && woken.add(w));
    }
    woken.forEach(FeedWatch::run);
  }

  private static void run(Waiter w) {
    try {
      w.wake().run();
    } catch (RuntimeException e) {
      log.warn("change feed watch: a waiter failed to wake", e);
    }
  }

  /** Stops watching and wakes every waiter at once; {@link #park} refuses from now on. */
  @Override
  public void close() {
    List<Waiter> all;
    synchronized (lock) {
      closed = true;
      all = new ArrayList<>(waiting);
      waiting.clear();
    }
    thread.interrupt();
    all.forEach(FeedWatch::run);
  }
}
