package minutes.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

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
    String jsonObject(String[] keys, String[] expressions) {
      StringBuilder sql = new StringBuilder("json_object(");
      for (int i = 0; i < keys.length; i++) {
        if (i > 0) sql.append(", ");
        sql.append('\'').append(keys[i]).append("', ").append(expressions[i]);
      }
      return sql.append(')').toString();
    }

    @Override
    String tablesQuery() {
      return "SELECT name FROM sqlite_schema WHERE type = 'table'";
    }

    @Override
    public String orderedJoin() {
      return "CROSS JOIN"; // SQLite's way of fixing the join order; same rows as JOIN
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
  },

  POSTGRES("postgresql") {
    @Override
    public String rowid(String alias) {
      return alias + ".rid"; // an identity column the PostgreSQL schema adds for what SQLite calls rowid
    }

    /**
     * A row turned into JSON by row_to_json, which writes the compact form SQLite's
     * json_object writes ({"a":"x"}); json_build_object would write {"a" : "x"}.
     */
    @Override
    String jsonObject(String[] keys, String[] expressions) {
      StringBuilder sql = new StringBuilder("(SELECT row_to_json(j) FROM (SELECT ");
      for (int i = 0; i < keys.length; i++) {
        if (i > 0) sql.append(", ");
        sql.append(expressions[i]).append(" AS \"").append(keys[i]).append('"');
      }
      return sql.append(") j)").toString();
    }

    @Override
    String tablesQuery() {
      return "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()";
    }

    @Override
    public String orderedJoin() {
      return "JOIN";
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
  };

  /** SQLite's primary result code for a violated constraint (UNIQUE, PRIMARY KEY, FOREIGN KEY). */
  private static final int SQLITE_CONSTRAINT = 19;
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

  /** The column that numbers the rows of the table aliased {@code alias}, for in-memory list orders. */
  public abstract String rowid(String alias);

  /** An expression that renders one row as a JSON object with these keys, in this order. */
  abstract String jsonObject(String[] keys, String[] expressions);

  abstract String tablesQuery();

  /** The join keyword that keeps the written join order where SQLite's planner would pick a bad one. */
  public abstract String orderedJoin();

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

  /** Names of the tables that exist now: endpoints whose tables are missing answer 503. */
  public Set<String> tables(Connection c) throws SQLException {
    return Set.copyOf(new Sql(tablesQuery()).list(c, rs -> rs.getString(1)));
  }
}
