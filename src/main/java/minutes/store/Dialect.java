package minutes.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What differs between the two stores, SQLite (embedded default) and PostgreSQL (cluster
 * mode), in the SQL the project writes. Everything else is written once in SQL both accept.
 * The schemas are made to agree where the engines would not by default: PostgreSQL's text
 * columns use the "C" collation, so text sorts by code point exactly as SQLite's BINARY does,
 * and emails that are compared case-insensitively are stored folded (see {@link Emails}).
 */
public enum Dialect {
  SQLITE("sqlite") {
    @Override
    public String rowid(String alias) {
      return alias + ".rowid";
    }

    @Override
    String columnsQuery() {
      return "SELECT t.name, c.name FROM sqlite_schema t JOIN pragma_table_info(t.name) c WHERE t.type = 'table'";
    }

    @Override
    public boolean isConstraintViolation(SQLException e) {
      return e.getErrorCode() == SQLITE_CONSTRAINT;
    }

    @Override
    public boolean isDuplicate(SQLException e) {
      String m = String.valueOf(e.getMessage());
      return m.contains("UNIQUE") || m.contains("PRIMARY KEY");
    }

    @Override
    public void lockForWriting(Connection c) {
      // Writers begin IMMEDIATE transactions (Store): SQLite lets one at a time into the file.
    }

    @Override
    void prepareForImport(Connection c) throws SQLException {
      try (Statement st = c.createStatement()) {
        st.execute("PRAGMA cache_size = -" + importCacheKib(physicalMemoryBytes()));
      }
    }

    @Override
    DeferredIndexes deferIndexes(Connection c) throws SQLException {
      return DeferredIndexes.dropOnEmptyTables(c, DeferredIndexes.SQLITE);
    }

    @Override
    public String erasureMark(Connection c) {
      return null; // the checkpoint below waits for old readers by itself
    }

    /**
     * secure_delete (on for every writer, see Store) zeroed the deleted records in their pages,
     * and freed pages whole; but those pages reach the database file only at a checkpoint, and
     * the write-ahead log still holds older copies of them with the text. A TRUNCATE checkpoint
     * copies every frame into the file and then empties the log. It must wait for readers that
     * still read a snapshot from before the delete (a request, a search index catching up, a
     * reindex): the busy timeout waits, and this loop retries until {@code patience} is spent.
     */
    @Override
    public Erasure eraseDeleted(Connection c, String mark, Duration patience) throws SQLException {
      long started = System.nanoTime();
      try (Statement st = c.createStatement()) {
        while (true) {
          try (ResultSet rs = st.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
            if (rs.next() && rs.getInt(1) == 0) {
              return new Erasure(true, "freed space zeroed, write-ahead log checkpointed and emptied", seconds(started));
            }
          } catch (SQLException busy) {
            if (busy.getErrorCode() != SQLITE_BUSY) throw busy;
          }
          if (System.nanoTime() - started > patience.toNanos()) {
            return new Erasure(false, "a reader kept a snapshot from before the delete open for " + patience.toSeconds()
                + " s; the write-ahead log still holds deleted text until the next import that deletes", seconds(started));
          }
          pause();
        }
      }
    }
  },

  POSTGRES("postgresql") {
    @Override
    public String rowid(String alias) {
      return alias + ".rid"; // an identity column the PostgreSQL schema adds for what SQLite calls rowid
    }

    /**
     * From the catalog, not information_schema.columns: the schema watch runs it on a request's
     * connection, under the request's statement time limit, which the view's slowness on a new
     * connection could exceed (docs/BENCHMARKS.md, "Figures behind code comments").
     */
    @Override
    String columnsQuery() {
      return """
          SELECT c.relname, a.attname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid
          WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND a.attnum > 0
            AND NOT a.attisdropped""";
    }

    @Override
    public boolean isConstraintViolation(SQLException e) {
      String state = state(e);
      return state != null && state.startsWith("23"); // class 23: integrity constraint violation
    }

    @Override
    public boolean isDuplicate(SQLException e) {
      return "23505".equals(state(e)); // unique_violation
    }

    /**
     * Minutes and transcripts go to TOAST compressed; lz4 costs a fraction of the default pglz's
     * CPU (import 7.4 to 8.3 MB/s, docs/BENCHMARKS.md). A server without it (PostgreSQL 13, or
     * built without lz4) keeps its default: the setting is refused and the import goes on.
     */
    @Override
    void prepareForImport(Connection c) throws SQLException {
      try (Statement st = c.createStatement()) {
        st.execute("SET default_toast_compression = lz4");
      } catch (SQLException unsupported) {
        if (!c.getAutoCommit()) throw unsupported; // would have aborted the transaction
      }
    }

    /** None: DROP INDEX would lock its table against the readers of every node until the commit. */
    @Override
    DeferredIndexes deferIndexes(Connection c) {
      return DeferredIndexes.NONE;
    }

    /**
     * Writers take turns, as on SQLite: change_log numbers are handed out when a row is
     * inserted, so two imports committing out of order could let a node that follows the log
     * pass a number whose rows become visible only later. With one writer at a time, numbers
     * are committed in order. The lock is released by the commit or rollback.
     */
    @Override
    public void lockForWriting(Connection c) throws SQLException {
      try (var st = c.createStatement()) {
        st.execute("SELECT pg_advisory_xact_lock(" + WRITER_LOCK + ")");
      }
    }

    /** The import's transaction id: snapshots older than it still see the deleted rows. */
    @Override
    public String erasureMark(Connection c) throws SQLException {
      return new Sql("SELECT pg_current_xact_id()::text").one(c, rs -> rs.getString(1)).orElseThrow();
    }

    /**
     * PostgreSQL keeps deleted rows as dead tuples until VACUUM frees their space and takes them
     * out of every index; VACUUM can do that only once no snapshot that still sees them is open
     * (a node's request or index catch-up that began before the commit). So: wait for those, up
     * to {@code patience}, then VACUUM the tables a delete touches. VACUUM does not zero the freed
     * bytes: they stand in the table files until new rows reuse the space, and in WAL, archives,
     * replicas and backups as long as those are kept (docs/OPERATIONS.md "Erasure").
     */
    @Override
    public Erasure eraseDeleted(Connection c, String mark, Duration patience) throws SQLException {
      long started = System.nanoTime();
      boolean clear;
      do {
        clear = snapshotsBefore(c, mark) == 0;
      } while (!clear && System.nanoTime() - started <= patience.toNanos() && pause());
      // VACUUM leaves the dead tuples of a page another reader holds pinned at that moment (even
      // one whose snapshot is newer than the delete) and counts them as missed, in n_dead_tup
      // with those still visible to a snapshot: so vacuum again until none is left.
      boolean pruned;
      try (Statement st = c.createStatement()) {
        do {
          st.execute("VACUUM (INDEX_CLEANUP ON) " + String.join(", ", DELETED_FROM));
          pruned = new Sql("SELECT coalesce(sum(n_dead_tup), 0) FROM pg_stat_user_tables WHERE relname IN ('"
              + String.join("', '", DELETED_FROM) + "')").count(c) == 0;
        } while (!pruned && System.nanoTime() - started <= patience.toNanos() && pause());
      }
      if (!clear) {
        return new Erasure(false, "a transaction kept a snapshot from before the delete open for " + patience.toSeconds()
            + " s; VACUUM ran, autovacuum frees what it could not", seconds(started));
      }
      return pruned ? new Erasure(true, "vacuumed the tables deletes touch", seconds(started))
          : new Erasure(false, "readers kept pages of the deleted rows in use for " + patience.toSeconds()
              + " s; VACUUM ran, autovacuum frees what it could not", seconds(started));
    }
  };

  /**
   * On PostgreSQL, the backends of c's database, c's own aside, holding a snapshot that may still
   * see what transaction {@code mark} ({@link #erasureMark}) changed: age() compares transaction
   * ids across wrap-around, and a snapshot whose xmin is at or before mark's id may still see it.
   */
  static long snapshotsBefore(Connection c, String mark) throws SQLException {
    return new Sql("""
        SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND backend_xmin IS NOT NULL AND age(backend_xmin) >= age(?::text::xid8::xid)""", mark).count(c);
  }

  /** Tables whose rows a delete line removes (directly or by cascade). */
  private static final List<String> DELETED_FROM = List.of("meeting", "meeting_viewer", "participant", "protocol",
      "action_item", "transcript_segment", "company", "company_domain", "app_user", "api_key", "workspace",
      "workspace_domain", "change_feed");

  /** What {@link #eraseDeleted} did: {@code complete} is false when old snapshots outlasted the patience. */
  public record Erasure(boolean complete, String done, double seconds) {
    public static final Erasure NONE = new Erasure(true, "", 0);
  }

  private static double seconds(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1e9;
  }

  /** Waits a moment; true, so that it can end a loop's condition. */
  private static boolean pause() throws SQLException {
    try {
      Thread.sleep(100);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while waiting for readers before erasing", e);
    }
  }

  /** SQLite's primary result code for a violated constraint (UNIQUE, PRIMARY KEY, FOREIGN KEY). */
  private static final int SQLITE_CONSTRAINT = 19;
  private static final int SQLITE_BUSY = 5;
  /** The advisory lock key writers share on PostgreSQL ("minutes" in ASCII, as a number). */
  static final long WRITER_LOCK = 0x6d696e75746573L;

  /** The folder under {@code db/migration} with this store's migrations (same version numbers in both). */
  public final String migrations;

  Dialect(String migrations) {
    this.migrations = migrations;
  }

  /** The store a connection talks to. */
  public static Dialect of(Connection c) throws SQLException {
    return c.isWrapperFor(org.postgresql.PGConnection.class) ? POSTGRES : SQLITE;
  }

  /** Whether a failed statement ends the transaction it ran in (PostgreSQL's; SQLite's goes on). */
  boolean endsTransactionOnFailure() {
    return this == POSTGRES;
  }

  /** Whether text columns can hold the NUL character (PostgreSQL's text cannot). */
  boolean storesNul() {
    return this == SQLITE;
  }

  /** The column that numbers the rows of the table aliased {@code alias}, for in-memory list orders. */
  public abstract String rowid(String alias);

  /** Each column of each table: (table, column); the tables' names come from it too. */
  abstract String columnsQuery();

  /** True when a write failed on a UNIQUE, PRIMARY KEY or FOREIGN KEY constraint. */
  public abstract boolean isConstraintViolation(SQLException e);

  /** True when a write failed because a unique key (an id) is taken. */
  public abstract boolean isDuplicate(SQLException e);

  /** The SQLState of a failure; a failed batch carries its cause's state on the next exception. */
  private static String state(SQLException e) {
    for (SQLException x = e; x != null; x = x.getNextException()) {
      if (x.getSQLState() != null) return x.getSQLState();
    }
    return null;
  }

  /** Makes writers take turns; call first in a write transaction. */
  public abstract void lockForWriting(Connection c) throws SQLException;

  /** Session settings for an import's connection; call in autocommit mode, before its transaction. */
  abstract void prepareForImport(Connection c) throws SQLException;

  /**
   * At the start of an import's transaction: the indexes it builds after its rows instead of
   * with them ({@link DeferredIndexes}); rebuild them before the commit.
   */
  abstract DeferredIndexes deferIndexes(Connection c) throws SQLException;

  /** Call in an import's transaction before its commit when it deleted something; hand the result to {@link #eraseDeleted}. */
  public abstract String erasureMark(Connection c) throws SQLException;

  /**
   * After an import that deleted something has committed (on its connection, autocommit on):
   * makes the deleted text leave the store's files as far as the store allows.
   */
  public abstract Erasure eraseDeleted(Connection c, String mark, Duration patience) throws SQLException;

  /** Names of the tables that exist now. */
  public Set<String> tables(Connection c) throws SQLException {
    return Set.copyOf(new Sql(columnsQuery()).list(c, rs -> rs.getString(1)));
  }

  /**
   * The tables that exist now and their columns as "table.column": an endpoint whose tables or
   * columns a pending migration would create answers 503 (some migrations only add a column).
   */
  public Set<String> tablesAndColumns(Connection c) throws SQLException {
    return new Sql(columnsQuery()).list(c, rs -> List.of(rs.getString(1), rs.getString(1) + "." + rs.getString(2)))
        .stream().flatMap(List::stream).collect(Collectors.toUnmodifiableSet());
  }

  /**
   * The page cache of an import's connection on SQLite, in KiB: an eighth of the machine's
   * memory, from 256 MB to 4 GB. Tasks and participants are keyed by random UUIDs, so their
   * index pages are touched all over the file, and those indexes grow with the data: with a
   * cache smaller than them, most inserts re-read a page and spill one, so a fixed cache slowed
   * large imports down (docs/BENCHMARKS.md, "Figures behind code comments"). SQLite takes cache
   * pages as it uses them, so a small import costs no more.
   */
  static long importCacheKib(long physicalMemoryBytes) {
    long eighth = physicalMemoryBytes / 8 / 1024;
    return Math.max(256L * 1024, Math.min(4L * 1024 * 1024, eighth));
  }

  private static long physicalMemoryBytes() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getTotalMemorySize();
  }
}
