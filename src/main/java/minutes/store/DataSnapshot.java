package minutes.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A value derived from the whole database as of one data version (the last change_log seq),
 * such as an in-memory list order, and the only way the lists that use it answer. A caller asks
 * with the version its own read transaction sees and gets the value of that version or of a
 * newer one, never of an older one: when the held value is older, the caller waits for the
 * rebuild. The server builds the first value before it listens ({@link #build}) and starts each
 * rebuild when its change watch sees a newer version ({@link #changed}, within 100 ms of an
 * import's commit), so a request waits at most for the rest of a rebuild already under way.
 * The held value is let go as soon as a newer version is known: a rebuild then runs in the heap
 * of one value instead of two (docs/OPERATIONS.md, "Memory and list orders"). The database
 * stays the source of truth. Thread-safe.
 */
public final class DataSnapshot<T> implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DataSnapshot.class);

  /** Reads the value inside a read transaction; the version is that transaction's. */
  @FunctionalInterface
  public interface Loader<T> {
    T load(Connection c) throws SQLException;
  }

  /** A value and the data version it was read at. */
  public record Held<T>(long version, T value) {}

  /**
   * For /metrics: {@code ready} while a value is held, not while requests wait for a rebuild;
   * the last build's seconds, NaN before the first.
   */
  public record Status(boolean ready, double lastBuildSeconds) {}

  private final Db db;
  private final String name;
  private final Loader<T> loader;
  private final ExecutorService builder;
  /** Guarded by this: the value, null from the moment a newer version is known until it is built. */
  private Held<T> held;
  /** Guarded by this: the build under way, or null. */
  private CompletableFuture<Held<T>> building;
  /** Guarded by this: the newest version the change watch told of ({@link #changed}). */
  private long announced = -1;
  private volatile double lastBuildSeconds = Double.NaN;

  /** {@code name}: what the value is, for the log ("task order"). */
  public DataSnapshot(Db db, String name, Loader<T> loader) {
    this.db = db;
    this.name = name;
    this.loader = loader;
    this.builder = Executors.newSingleThreadExecutor(Thread.ofPlatform().name(name.replace(' ', '-')).daemon().factory());
  }

  /** Builds the value now, on the caller's thread: at start, before the server listens. */
  public void build() throws SQLException {
    Held<T> built = load();
    synchronized (this) {
      keep(built);
    }
  }

  /**
   * The value of {@code version} or of a newer one. When the held value is older (or none is
   * held), it is let go and the caller waits for the rebuild; a rebuild that read an older
   * version than the caller's (it began before the caller's import committed) is followed by
   * one more, which begins after the caller asked: what that one reads is the newest there is.
   * A failed build fails the callers that waited for it.
   */
  public Held<T> at(long version) throws SQLException {
    for (int builds = 0; ; builds++) {
      CompletableFuture<Held<T>> wait;
      synchronized (this) {
        if (held != null && (held.version >= version || builds == 2)) return held;
        held = null;
        wait = rebuild();
      }
      try {
        wait.join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof SQLException failed) throw failed;
        throw e;
      }
    }
  }

  /**
   * The data version is now {@code version} (the change watch saw it commit): an older value is
   * let go and the rebuild starts, so that requests find it built or under way.
   */
  public synchronized void changed(long version) {
    announced = Math.max(announced, version);
    if (held != null && held.version >= version) return;
    held = null;
    rebuild();
  }

  public synchronized Status status() {
    return new Status(held != null, lastBuildSeconds);
  }

  /** The build under way, or a new one; the caller holds the lock. */
  private CompletableFuture<Held<T>> rebuild() {
    if (building != null) return building;
    CompletableFuture<Held<T>> started = new CompletableFuture<>();
    building = started;
    builder.execute(() -> {
      try {
        Held<T> built = load();
        synchronized (this) {
          keep(built);
          building = null;
          // A build that began before the announced version committed: the next one at once,
          // rather than when a request finds the value older than its own.
          if (built.version < announced) {
            held = null;
            rebuild();
          }
        }
        started.complete(built);
      } catch (SQLException | RuntimeException e) {
        log.warn("{} not built; the requests that waited for it fail: {}", name, e.getMessage());
        synchronized (this) {
          building = null;
        }
        started.completeExceptionally(e);
      }
    });
    return started;
  }

  /** Keeps {@code built} unless a newer value is held; the caller holds the lock. */
  private void keep(Held<T> built) {
    if (held == null || held.version < built.version) held = built;
  }

  private Held<T> load() throws SQLException {
    long started = System.nanoTime();
    try (Connection c = db.read()) {
      c.setAutoCommit(false); // one snapshot for the version and the rows
      try {
        // -1 on a database from before the change log (migration 3): no import changes it
        // without migrating first, which then makes the version 0 or more.
        long version = Db.knownDataVersion(c).orElse(-1L);
        T value = loader.load(c);
        long nanos = System.nanoTime() - started;
        lastBuildSeconds = nanos / 1e9;
        log.info("{} built at data version {} in {} ms", name, version, nanos / 1_000_000);
        return new Held<>(version, value);
      } finally {
        c.rollback();
      }
    }
  }

  /** Stops building; a request still waiting for a build fails. */
  @Override
  public void close() {
    CompletableFuture<Held<T>> waited;
    synchronized (this) {
      waited = building;
    }
    if (waited != null) waited.completeExceptionally(new SQLException(name + ": the server is stopping"));
    builder.shutdownNow();
  }
}
