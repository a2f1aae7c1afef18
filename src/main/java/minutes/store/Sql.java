package minutes.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A statement assembled from fixed SQL fragments and bound values, for queries whose
 * filters depend on the request. User input only ever travels as a bound value. Every query a
 * request makes runs through here, which is what keeps it within the request's statement time
 * limit ({@link StatementLimit}). Not thread-safe; one per query.
 */
public final class Sql {
  /** Maps the current row of a result set. */
  @FunctionalInterface
  public interface RowMapper<T> {
    T map(ResultSet rs) throws SQLException;
  }

  private final StringBuilder text = new StringBuilder();
  private final List<Object> values = new ArrayList<>();

  public Sql(String start, Object... bound) {
    add(start, bound);
  }

  public Sql add(String fragment, Object... bound) {
    text.append(' ').append(fragment);
    values.addAll(Arrays.asList(bound)); // a null binds SQL NULL, as in bind()
    return this;
  }

  /** Appends another statement's text and values, e.g. a shared WHERE clause. */
  public Sql add(Sql other) {
    text.append(other.text);
    values.addAll(other.values);
    return this;
  }

  public <T> List<T> list(Connection c, RowMapper<T> mapper) throws SQLException {
    long outer = StatementLimit.start();
    try (PreparedStatement ps = prepare(c); ResultSet rs = ps.executeQuery()) {
      List<T> rows = new ArrayList<>();
      while (rs.next()) rows.add(mapper.map(rs));
      return rows;
    } finally {
      StatementLimit.stop(outer);
    }
  }

  public <T> Optional<T> one(Connection c, RowMapper<T> mapper) throws SQLException {
    long outer = StatementLimit.start();
    try (PreparedStatement ps = prepare(c); ResultSet rs = ps.executeQuery()) {
      return rs.next() ? Optional.of(mapper.map(rs)) : Optional.empty();
    } finally {
      StatementLimit.stop(outer);
    }
  }

  public long count(Connection c) throws SQLException {
    return one(c, rs -> rs.getLong(1)).orElse(0L);
  }

  /** Runs a statement that changes rows; returns how many it changed. */
  public int update(Connection c) throws SQLException {
    try (PreparedStatement ps = prepare(c)) {
      return ps.executeUpdate();
    }
  }

  /** Binds {@code values} to a statement prepared once and run many times, as an import's are. */
  static PreparedStatement bind(PreparedStatement ps, Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) ps.setObject(i + 1, values[i]);
    return ps;
  }

  private PreparedStatement prepare(Connection c) throws SQLException {
    PreparedStatement ps = c.prepareStatement(text.toString());
    for (int i = 0; i < values.size(); i++) ps.setObject(i + 1, values.get(i));
    return ps;
  }

  /** Text and bound values: two statements with equal keys return the same rows. */
  public String key() {
    return text + " " + values;
  }

  @Override
  public String toString() {
    return text.toString();
  }
}
