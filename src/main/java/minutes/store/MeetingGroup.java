package minutes.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Meeting lines of an import written together ({@link RecordWriter}): up to {@link #MAX_MEETINGS}
 * lines go out as one batch per statement (on PostgreSQL multi-row INSERTs), first the deletes of
 * the stored meetings they replace, then the inserts in the order the foreign keys need. A round
 * trip per statement and group instead of per statement and meeting: one at a time made
 * PostgreSQL's import half as fast as SQLite's.
 *
 * <p>The database ends exactly as if the lines had been written one by one, and a file is refused
 * exactly when it would have been, naming the same line: a group that clashes is rolled back to
 * its savepoint and written again line by line; and a group in which a line takes a minutes or
 * task id that a later line's stored meeting holds (one by one that line would clash, with the
 * deletes first it would not) is written line by line from the start. Not thread-safe.
 */
final class MeetingGroup {
  /** Meetings, and their rows, written together: both bound the memory a group holds. */
  static final int MAX_MEETINGS = 64, MAX_ROWS = 4000;

  /** A meeting line's rows clash with rows already in the database. */
  static final class Conflict extends Exception {
    final String file;
    final long line;

    Conflict(String file, long line, SQLException cause) {
      super(cause.getMessage(), cause, false, false);
      this.file = file;
      this.line = line;
    }

    SQLException sqlCause() {
      return (SQLException) getCause();
    }
  }

  /** Binds a meeting line's rows into the insert batches; returns how many rows it bound. */
  @FunctionalInterface
  interface Binder {
    int bind(JsonNode line, String id) throws SQLException;
  }

  /** A line in the group, kept to bind it again alone. {@code replaces}: its meeting is stored now. */
  private record Pending(String file, long line, String id, boolean replaces, JsonNode n) {}

  private final Connection c;
  private final Dialect dialect;
  private final PreparedStatement deleteMeeting;
  private final List<PreparedStatement> inserts;
  private final Binder binder;
  private final List<Pending> lines = new ArrayList<>();
  private final Set<String> ids = new HashSet<>();
  private int rows;

  /** {@code inserts}: the statements {@code binder} fills, in the order their foreign keys need. */
  MeetingGroup(Connection c, PreparedStatement deleteMeeting, List<PreparedStatement> inserts, Binder binder)
      throws SQLException {
    this.c = c;
    this.dialect = Dialect.of(c);
    this.deleteMeeting = deleteMeeting;
    this.inserts = inserts;
    this.binder = binder;
  }

  /**
   * Adds a meeting line; {@code replaces}: meeting {@code id} is in the database at this point of
   * the import. May write the group out, and so report a clash of an earlier line.
   */
  void add(String file, long line, String id, boolean replaces, JsonNode n) throws SQLException, Conflict {
    if (ids.contains(id)) flush(); // the rows this line replaces are still in the group
    Pending p = new Pending(file, line, id, replaces, n);
    bind(p);
    lines.add(p);
    ids.add(id);
    if (lines.size() >= MAX_MEETINGS || rows >= MAX_ROWS) flush();
  }

  private void bind(Pending p) throws SQLException {
    if (p.replaces) {
      deleteMeeting.setString(1, p.id); // cascades to participants, viewers, minutes, tasks, transcript
      deleteMeeting.addBatch();
    }
    rows += binder.bind(p.n, p.id);
  }

  /** Writes the group out; call before any change that must follow its lines. */
  void flush() throws SQLException, Conflict {
    if (lines.isEmpty()) return;
    try {
      if (lines.size() == 1) {
        // Alone, a clash is its own line's: the caller's transaction ends with the refusal.
        writeBatches(lines.get(0));
        return;
      }
      if (!takesIdsOfLaterLines()) {
        Savepoint before = c.setSavepoint();
        try {
          executeBatches();
          c.releaseSavepoint(before);
          return;
        } catch (SQLException e) {
          if (!dialect.isConstraintViolation(e)) throw e;
          c.rollback(before);
        }
      }
      clearBatches();
      for (Pending p : lines) {
        bind(p);
        writeBatches(p);
      }
    } finally {
      lines.clear();
      ids.clear();
      rows = 0;
    }
  }

  /** Executes what is bound, all of it {@code p}'s: a clash is that line's. */
  private void writeBatches(Pending p) throws SQLException, Conflict {
    try {
      executeBatches();
    } catch (SQLException e) {
      if (!dialect.isConstraintViolation(e)) throw e;
      throw new Conflict(p.file, p.line, e);
    }
  }

  private void executeBatches() throws SQLException {
    deleteMeeting.executeBatch();
    for (PreparedStatement ps : inserts) ps.executeBatch();
  }

  private void clearBatches() throws SQLException {
    deleteMeeting.clearBatch();
    for (PreparedStatement ps : inserts) ps.clearBatch();
  }

  /**
   * Whether a line takes a minutes or task id that the stored meeting of a later line of the
   * group holds now: written one by one, that line would clash (the id is still taken when it
   * is written); with the group's deletes first, it would not.
   */
  private boolean takesIdsOfLaterLines() throws SQLException {
    List<String> replaced = lines.stream().filter(Pending::replaces).map(Pending::id).toList();
    if (replaced.isEmpty()) return false;
    String in = String.join(", ", Collections.nCopies(replaced.size(), "?"));
    Map<String, String> holders = new HashMap<>();
    new Sql("SELECT id, meeting_id FROM protocol WHERE meeting_id IN (" + in + ")"
        + " UNION ALL SELECT id, meeting_id FROM action_item WHERE meeting_id IN (" + in + ")",
        Stream.concat(replaced.stream(), replaced.stream()).toArray())
        .list(c, rs -> holders.put(rs.getString(1), rs.getString(2)));
    Map<String, Integer> position = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) position.put(lines.get(i).id, i);
    for (int i = 0; i < lines.size(); i++) {
      for (JsonNode protocol : lines.get(i).n.path("protocols")) {
        if (heldLater(holders, position, protocol, i)) return true;
        for (JsonNode task : protocol.path("action_items")) {
          if (heldLater(holders, position, task, i)) return true;
        }
      }
    }
    return false;
  }

  private static boolean heldLater(Map<String, String> holders, Map<String, Integer> position, JsonNode record, int line) {
    String holder = holders.get(Ids.canonical(record.get("id").asText()));
    return holder != null && position.getOrDefault(holder, -1) > line;
  }
}
