package minutes.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The pool of read-only connections a server answers from, over the configured {@link Store}.
 * Each pooled connection serves one request at a time, inside one read transaction, so that a
 * count and its page see the same snapshot while another process imports. Thread-safe.
 */
public final class Db implements AutoCloseable {
  /**
   * Connections for the index sync, the in-memory list orders, the change feed's
   * watch and webhook deliveries, apart from requests'.
   */
  public static final int BACKGROUND_CONNECTIONS = 5;

  private final Store store;
  private final Store.ReadPools pools;

  /** {@code statementTimeout} limits each statement of {@link #readForRequest}; background work has no limit. */
  private Db(Store store, int poolSize, Duration statementTimeout) {
    this.store = store;
    pools = store.readPools(poolSize, statementTimeout);
  }

  /** Opens the database for commands, without time limits; a SQLite file must exist (see {@link Store#ensureCreated}). */
  public static Db open(Store store, int poolSize) {
    return new Db(store, poolSize, Duration.ZERO);
  }

  /** Opens the database for serving: {@link #readForRequest} limits each statement to {@code statementTimeout} (zero: no limit). */
  public static Db open(Store store, int poolSize, Duration statementTimeout) {
    return new Db(store, poolSize, statementTimeout);
  }

  /**
   * Sets POSIX permissions such as "rw-------" on what holds meeting data (database, index,
   * backups); on a file system without them there is nothing to tighten.
   */
  public static void ownerOnly(Path path, String permissions) {
    try {
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(permissions));
    } catch (UnsupportedOperationException | IOException notPosix) {
      // Not a POSIX file system (or not ours to change): nothing to tighten.
    }
  }

  /** A pooled read-only connection without a time limit, for background work; close it to return it. */
  public Connection read() throws SQLException {
    return pools.background().getConnection();
  }

  public Store store() {
    return store;
  }

  /**
   * A pooled read-only connection for answering a request: each statement on it stops at the
   * statement time limit ({@link StatementLimit#isTimeout} tells that failure). Close it to return it.
   */
  public Connection readForRequest() throws SQLException {
    return pools.requests().getConnection();
  }

  /** "URL table" of the tables seen by {@link #ifTableExists}: no migration drops one, so one look is enough. */
  private static final java.util.Set<String> SEEN_TABLES = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** {@link #dataVersion}, or empty on a database from before the change log (migration 3). */
  public static java.util.Optional<Long> knownDataVersion(Connection c) throws SQLException {
    return ifTableExists(c, "change_log", DATA_VERSION);
  }

  /**
   * How many imports have run (change_state.imported; each import's transaction adds one), or
   * empty on a database from before migration 5. Imports are the only writers of companies,
   * users and workspaces, so what was read of them at one count holds for every snapshot with
   * the same count.
   */
  public static java.util.Optional<Long> knownImportCount(Connection c) throws SQLException {
    return ifTableExists(c, "change_state", "SELECT imported FROM change_state WHERE id = 1");
  }

  /** The number {@code sql} reads from {@code table}, or empty while a pending migration has not created the table. */
  private static java.util.Optional<Long> ifTableExists(Connection c, String table, String sql) throws SQLException {
    String seen = c.getMetaData().getURL() + " " + table;
    if (SEEN_TABLES.contains(seen)) return java.util.Optional.of(new Sql(sql).count(c));
    // A failed statement ends a PostgreSQL transaction: try it inside a savepoint there, so
    // that the request's transaction goes on (SQLite's goes on by itself). Two round trips
    // more per request, hence only until the table has been seen.
    java.sql.Savepoint before = Dialect.of(c).endsTransactionOnFailure() && !c.getAutoCommit() ? c.setSavepoint() : null;
    try {
      long value = new Sql(sql).count(c);
      if (before != null) c.releaseSavepoint(before);
      SEEN_TABLES.add(seen);
      return java.util.Optional.of(value);
    } catch (SQLException noTableYet) {
      if (before != null) c.rollback(before);
      return java.util.Optional.empty();
    }
  }

  /**
   * The data version a read transaction sees: the last change_log seq (0 while it is empty).
   * Every import that changes a meeting (and so its tasks, participants or visibility)
   * appends to change_log.
   */
  public static long dataVersion(Connection c) throws SQLException {
    return new Sql(DATA_VERSION).count(c);
  }

  private static final String DATA_VERSION = "SELECT coalesce(max(seq), 0) FROM change_log";

  /**
   * {@link #dataVersion} as a value in another statement's select list: on PostgreSQL each
   * statement is a round trip, and every keyed request reads its key first
   * ({@code ApiKeys.resolve}).
   */
  public static final String DATA_VERSION_VALUE = "(" + DATA_VERSION + ")";

  /** The id of the workspace with this slug. */
  public static java.util.Optional<Long> workspaceId(Connection c, String slug) throws SQLException {
    return new Sql("SELECT id FROM workspace WHERE slug = ?", slug).one(c, rs -> rs.getLong(1));
  }

  /**
   * How many rows of {@code fromWhere} ("table WHERE ...", fixed SQL) each workspace has, e.g.
   * for in-memory orders to size their arrays exactly.
   */
  public static java.util.Map<Long, Integer> rowsPerWorkspace(Connection c, String fromWhere) throws SQLException {
    java.util.Map<Long, Integer> counts = new java.util.HashMap<>();
    new Sql("SELECT workspace_id, count(*) FROM " + fromWhere + " GROUP BY workspace_id")
        .list(c, rs -> counts.put(rs.getLong(1), rs.getInt(2)));
    return counts;
  }

  @Override
  public void close() {
    pools.background().close();
    pools.requests().close();
  }
}
