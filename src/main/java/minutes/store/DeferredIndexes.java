package minutes.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Indexes that an import into empty tables builds after its rows instead of with them: each is
 * dropped at the start of the import's transaction when its table has no row yet, and created
 * again from its own stored definition just before the commit. The database ends exactly as if
 * the index had been kept; a failed or killed import rolls the drop back with everything else,
 * and readers keep the indexes of their own snapshot meanwhile.
 *
 * <p>Why: the task order index ({@code action_item_order}) puts each task at the place of its
 * due date, a random place in a large index, and keeping it up to date row by row made a first
 * import slow down as it grew; built at the end it is one sort (docs/BENCHMARKS.md, "Figures
 * behind code comments"). Only indexes that reads use are deferred: no foreign key's
 * cascade and no statement of the import looks anything up through them, so a meeting
 * replaced within the same file costs what it did. Not thread-safe; one per import.
 */
final class DeferredIndexes {
  /** SQLite's read-only indexes, by name; one a later migration renames is simply kept. */
  static final List<String> SQLITE = List.of("action_item_order", "participant_by_domain");
  /** Nothing deferred. */
  static final DeferredIndexes NONE = new DeferredIndexes(List.of());

  /** The definitions of the dropped indexes, to run again. */
  private final List<String> dropped;

  private DeferredIndexes(List<String> dropped) {
    this.dropped = dropped;
  }

  /** In the import's transaction: drops each named index of SQLite's whose table is empty. */
  static DeferredIndexes dropOnEmptyTables(Connection c, List<String> names) throws SQLException {
    List<String> dropped = new ArrayList<>();
    for (String name : names) {
      Optional<String[]> index = new Sql("SELECT tbl_name, sql FROM sqlite_master WHERE type = 'index' AND name = ?", name)
          .one(c, rs -> new String[] {rs.getString(1), rs.getString(2)});
      if (index.isEmpty()) continue;
      if (new Sql("SELECT EXISTS (SELECT 1 FROM \"" + index.get()[0] + "\")").count(c) > 0) continue;
      new Sql("DROP INDEX \"" + name + "\"").update(c);
      dropped.add(index.get()[1]);
    }
    return new DeferredIndexes(List.copyOf(dropped));
  }

  /** In the same transaction, before its commit: builds the dropped indexes from the rows now there. */
  void rebuild(Connection c) throws SQLException {
    for (String definition : dropped) new Sql(definition).update(c);
  }
}
