package minutes.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a server node has heard of its database without asking on each request: the newest
 * data version ({@link Db#dataVersion}) and the keys' epoch, a number that grows whenever a key
 * or a workspace's domains may have changed, so that what was learned of a key under one epoch
 * is trusted only under that epoch. {@link #now} is empty whenever the view may be stale, and
 * callers then ask the database per request as before. Thread-safe.
 *
 * <p>On PostgreSQL one connection of its own LISTENs on {@link #CHANNEL}, which the triggers of
 * migration V8 notify at every commit that changes a key, a workspace's domains or the data
 * (each import updates change_state), whichever process wrote it. A notice raises the epoch the
 * moment it arrives (a few milliseconds after the commit); the data version is read again then
 * and every {@link #POLL_MILLIS} between notices, which also shows that the connection is alive.
 * The view is current while the last read started less than {@link #TRUST_MILLIS} ago: a
 * listener that stalls or loses its connection (and with it notices) stops being trusted within
 * that time, and a new connection starts a new epoch. Before V8 is applied nothing is trusted.
 * SQLite has no watch ({@link #NONE}): its one node reads keys and the version in-process.
 */
public final class DataWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DataWatch.class);
  static final String CHANNEL = "minutes_changes";
  /** Between notices, how often the data version is read (and the connection shown alive). */
  static final long POLL_MILLIS = 100;
  /** How old the last read may be for the view to be trusted: the longest a stalled listener is believed. */
  public static final long TRUST_MILLIS = 1_000;
  private static final long RETRY_MILLIS = 1_000;
  private static final long FIRST_WAIT_MILLIS = 2_000;
  private static final String ANNOUNCED = """
      SELECT count(*) FROM pg_trigger
      WHERE tgname IN ('api_key_announced', 'workspace_domain_announced', 'change_state_announced')""";

  /** The view: the newest data version heard and the keys' epoch. */
  public record View(long dataVersion, long keysEpoch) {}

  /** A view with the moment (System.nanoTime) the read it rests on started. */
  private record Heard(View view, long readAt) {}

  /** A watch that never knows: every request asks the database. */
  public static final DataWatch NONE = new DataWatch(null);

  /** Opens the listening connection; {@code null} for {@link #NONE}. */
  @FunctionalInterface
  interface Connector {
    Connection connect() throws SQLException;
  }

  private final Connector connector;
  private final Thread thread;
  private volatile Heard heard;
  private volatile boolean closed;
  private final CountDownLatch first = new CountDownLatch(1);

  private DataWatch(Connector connector) {
    this.connector = connector;
    this.thread = connector == null ? null : Thread.ofPlatform().name("data-watch").daemon().unstarted(this::loop);
  }

  /**
   * A started watch listening through connections from {@code connector} (PostgreSQL), once it
   * has heard the database or {@link #FIRST_WAIT_MILLIS} have passed, so that a server's first
   * searches already take the view.
   */
  static DataWatch listening(Connector connector) {
    DataWatch watch = new DataWatch(connector);
    watch.thread.start();
    try {
      watch.first.await(FIRST_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return watch;
  }

  /** The view while it is current, else empty: then ask the database. */
  public Optional<View> now() {
    Heard h = heard;
    if (h == null || System.nanoTime() - h.readAt() > TRUST_MILLIS * 1_000_000) return Optional.empty();
    return Optional.of(h.view());
  }

  private void loop() {
    long epoch = 0;
    boolean failing = false;
    while (!closed) {
      try (Connection c = connector.connect(); Statement st = c.createStatement()) {
        c.setAutoCommit(true);
        st.execute("LISTEN " + CHANNEL);
        if (new Sql(ANNOUNCED).count(c) < 3) {
          first.countDown(); // nothing to wait for
          log.info("until migration V8 is applied (./run.sh migrate), each search asks the database for its key");
          do {
            Thread.sleep(RETRY_MILLIS);
          } while (!closed && new Sql(ANNOUNCED).count(c) < 3);
        }
        epoch++; // whatever was learned before this LISTEN may have missed a notice
        PGConnection pg = c.unwrap(PGConnection.class);
        while (!closed) {
          long readAt = System.nanoTime();
          long version = Db.dataVersion(c);
          heard = new Heard(new View(version, epoch), readAt);
          first.countDown();
          if (failing) log.info("data watch: listening again");
          failing = false;
          PGNotification[] notices = pg.getNotifications((int) POLL_MILLIS);
          if (notices != null && notices.length > 0) {
            epoch++;
            heard = new Heard(new View(version, epoch), readAt);
          }
        }
      } catch (InterruptedException stopping) {
        return;
      } catch (Exception e) {
        heard = null;
        first.countDown();
        if (closed) return;
        if (!failing) log.warn("data watch: {}; each search asks the database until it listens again", e.toString());
        failing = true;
        try {
          Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException stopping) {
          return;
        }
      }
    }
  }

  @Override
  public void close() {
    if (thread == null) return; // NONE, shared: nothing runs
    closed = true;
    heard = null;
    try {
      thread.join(POLL_MILLIS * 20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
