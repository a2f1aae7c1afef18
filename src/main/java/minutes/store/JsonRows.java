package minutes.store;

import java.lang.reflect.RecordComponent;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import minutes.json.Jackson;

/**
 * List rows as ready JSON objects, written into an answer as they are ({@link RawJson}). The
 * record names the shape: its components, in order and in snake_case, are the keys, so the
 * shape has one description. Only for records of text fields, and every column used is text.
 * Both stores select the columns and {@link TextObjectWriter} writes the row from their bytes,
 * as SQLite's json_object would: rendered by the database instead, a page cost PostgreSQL twice
 * the CPU, and SQLite's json_object saved little (docs/BENCHMARKS.md): one way for both.
 */
public final class JsonRows {
  private JsonRows() {}

  /**
   * A record's keys, each with its SQL expression: {@link #in} is the select list of a row,
   * {@link #width} its number of columns and {@link #read} the row's JSON. Immutable.
   */
  public static final class Shape {
    private final byte[][] keys;
    private final String select;

    private Shape(String[] keys, String[] expressions) {
      this.keys = TextObjectWriter.keyPrefixes(keys);
      this.select = String.join(", ", expressions);
    }

    /** The select list of one row of this shape. */
    public String in() {
      return select;
    }

    /** How many columns {@link #in} takes: those after it start at {@code width + 1}. */
    public int width() {
      return keys.length;
    }

    /** The JSON of the current row, whose first columns are {@link #in}. */
    public RawJson read(ResultSet rs) throws SQLException {
      TextObjectWriter row = new TextObjectWriter();
      // A text column's bytes as the driver hands them over: UTF-8 on both stores.
      for (int i = 0; i < keys.length; i++) row.field(keys[i], rs.getBytes(i + 1));
      return new RawJson(row.close());
    }
  }

  /** The shape of {@code record} with an SQL expression per component, in order. */
  public static Shape object(Class<? extends Record> shape, String... expressions) {
    RecordComponent[] components = shape.getRecordComponents();
    if (components.length != expressions.length) {
      throw new IllegalArgumentException(shape.getSimpleName() + " has " + components.length + " fields, not "
          + expressions.length);
    }
    String[] keys = new String[components.length];
    for (int i = 0; i < components.length; i++) {
      if (components[i].getType() != String.class) {
        throw new IllegalArgumentException(shape.getSimpleName() + "." + components[i].getName() + " is not text");
      }
      keys[i] = Jackson.NAMES.translate(components[i].getName());
    }
    return new Shape(keys, expressions);
  }

  /**
   * The rows with these row numbers ({@link Dialect#rowid}), in the order given (an in-memory
   * list order chose them): {@code from} is {@code "FROM ..."} ending where a WHERE clause can
   * follow, with the table aliased {@code alias} whose rows are numbered.
   */
  public static List<RawJson> byRowid(Connection c, Shape shape, String from, String alias, long[] rowids)
      throws SQLException {
    if (rowids.length == 0) return List.of();
    String rowid = Dialect.of(c).rowid(alias);
    Sql sql = new Sql("SELECT " + shape.in() + ", " + rowid + " " + from + " WHERE " + rowid + " IN ("
        + "?,".repeat(rowids.length - 1) + "?)", Arrays.stream(rowids).boxed().toArray());
    int rowidColumn = shape.width() + 1;
    Map<Long, RawJson> byId = new HashMap<>();
    sql.list(c, rs -> byId.put(rs.getLong(rowidColumn), shape.read(rs)));
    List<RawJson> rows = new ArrayList<>(rowids.length);
    for (long id : rowids) rows.add(byId.get(id));
    return rows;
  }
}
