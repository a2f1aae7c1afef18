package minutes.store;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.lang.reflect.RecordComponent;
import java.util.StringJoiner;

/**
 * List rows that SQLite renders as JSON itself ({@code json_object}): one string per row
 * instead of a JNI call per column, a Java object and a Jackson pass. For a 200-row meeting
 * page that is 0.44 ms instead of 1.0 ms (2026-11-22, 20,000 meetings). The record still
 * names the shape: its components, in order and in snake_case, are the keys, so the shape
 * has one description. Only for records of text fields: SQLite writes each column's value
 * as it stores it, and every column used here has TEXT affinity.
 */
public final class JsonRows {
  private static final PropertyNamingStrategies.NamingBase NAMES = new PropertyNamingStrategies.SnakeCaseStrategy();

  private JsonRows() {}

  /** {@code json_object('first_key', expression1, ...)}: the record's keys, each with its SQL expression. */
  public static String object(Class<? extends Record> shape, String... expressions) {
    RecordComponent[] keys = shape.getRecordComponents();
    if (keys.length != expressions.length) {
      throw new IllegalArgumentException(shape.getSimpleName() + " has " + keys.length + " fields, not "
          + expressions.length);
    }
    StringJoiner object = new StringJoiner(", ", "json_object(", ")");
    for (int i = 0; i < keys.length; i++) {
      if (keys[i].getType() != String.class) {
        throw new IllegalArgumentException(shape.getSimpleName() + "." + keys[i].getName() + " is not text");
      }
      object.add("'" + NAMES.translate(keys[i].getName()) + "', " + expressions[i]);
    }
    return object.toString();
  }
}
