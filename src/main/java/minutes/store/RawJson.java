package minutes.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;

/** A JSON value rendered elsewhere (by SQLite, see store/JsonRows), written into an answer as it is. */
public record RawJson(String json) implements JsonSerializable {
  /** The first column of the current row, e.g. a {@code json_object(...)}. */
  public static RawJson of(ResultSet rs) throws SQLException {
    return new RawJson(rs.getString(1));
  }

  @Override
  public void serialize(JsonGenerator out, SerializerProvider provider) throws IOException {
    out.writeRawValue(json);
  }

  @Override
  public void serializeWithType(JsonGenerator out, SerializerProvider provider, TypeSerializer type) throws IOException {
    serialize(out, provider);
  }
}
