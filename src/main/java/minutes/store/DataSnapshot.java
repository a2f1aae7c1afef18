package minutes.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A value derived from the whole database as of one data version (the last change_log seq),
 * such as an in-memory list order. The database stays the source of truth: the value is handed out
 * only for the version the caller's own read transaction sees, and otherwise the caller
 * answers from SQL while a rebuild runs in the background. The held value is let go as soon as
 * a newer version is asked for: from then on only transactions that began before it could use
 * it, and answering those from SQL too lets a rebuild run in the heap of one value instead of
 * two (docs/OPERATIONS.md, "Memory and list orders"). Thread-safe.
 */
public final class DataSnapshot<T> implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DataSnapshot.class);

  /** Reads the value inside a read transaction; the version is that transaction's. */
  @FunctionalInterface
  public interface Loader<T> {
    T load(Connection c) throws SQLException;
  }

  private record Held<T>(long version, T value) {}

  /**
   * For /metrics: {@code ready} once a value is held and no request has asked for a newer
   * version since (requests are answered from SQL meanwhile); the last build's seconds, NaN
   * before the first.
   */
  public record Status(boolean ready, double lastBuildSeconds) {}

  private final Db db;
  private final String name;
  private final Loader<T> loader;
  private final ExecutorService builder;
  private final AtomicBoolean rebuilding = new AtomicBoolean();
  private final AtomicReference<Held<T>> held = new AtomicReference<>();
  private final AtomicLong newestAsked = new AtomicLong(-1);
  private volatile double lastBuildSeconds = Double.NaN;

  /** {@code name}: what the value is, for the log ("task order"). */
  public DataSnapshot(Db db, String name, Loader<T> loader) {
    this.db = db;
    this.name = name;
    this.loader = loader;
    this.builder = Executors.newSingleThreadExecutor(Thread.ofPlatform().name(name.replace(' ', '-')).daemon().factory());
  }

  /**
   * The value as of {@code version} when that is the one held; otherwise empty, and when the
   * held value is older, it is let go and a rebuild starts.
   */
  public Optional<T> at(long version) {
    newestAsked.accumulateAndGet(version, Math::max);
    Held<T> h = held.get();
    if (h != null && h.version == version) return Optional.of(h.value);
    // Versions only grow (change_log seq is AUTOINCREMENT): an older one is a transaction that
    // began before the last import, and a rebuild would only load the held version again.
    if (h == null || h.version < version) {
      if (h != null) held.compareAndSet(h, null); // not a value a rebuild has put in meanwhile
      rebuildLater();
    }
    return Optional.empty();
  }

  public Status status() {
    Held<T> h = held.get();
    return new Status(h != null && h.version >= newestAsked.get(), lastBuildSeconds);
  }

  /** Builds the value now (tests); the server uses {@link #buildInBackground()}. */
  public void buildNow() {
    try {
      held.set(load());
    } catch (SQLException e) {
      log.warn("{} not built; answers come from SQL until it is: {}", name, e.getMessage());
    }
  }

  /** Start-up: answers come from SQL until the first value is there, so the server is ready at once. */
  public void buildInBackground() {
    rebuildLater();
  }

  private void rebuildLater() {
    if (!rebuilding.compareAndSet(false, true)) return;
    builder.execute(() -> {
      try {
        held.set(load());
      } catch (SQLException | RuntimeException e) {
        log.warn("{} rebuild failed; answers come from SQL meanwhile: {}", name, e.getMessage());
      } finally {
        rebuilding.set(false);
      }
    });
  }

  private Held<T> load() throws SQLException {
    long started = System.nanoTime();
    try (Connection c = db.read()) {
      c.setAutoCommit(false); // one snapshot for the version and the rows
      try {
        long version = Db.dataVersion(c);
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

  @Override
  public void close() {
    builder.shutdownNow();
  }
}
