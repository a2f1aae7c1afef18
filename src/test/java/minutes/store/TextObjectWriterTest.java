package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's list rows must be the bytes SQLite's json_object writes for the same values
 * (StoreParityTest compares whole answers, but its fixtures hold no control characters): here
 * every ASCII character, text above ASCII and NULL, against a real SQLite.
 */
class TextObjectWriterTest {
  @Test
  void writesWhatSqlitesJsonObjectWrites() throws Exception {
    StringBuilder everyAscii = new StringBuilder();
    for (char c = 1; c < 128; c++) everyAscii.append(c);
    String[] values = {everyAscii.toString(), "Grüße, 会议 😀 \u2028 end\\", "", null, "\"quoted\"\t\u001f"};
    String[] keys = {"all_ascii", "above_ascii", "empty", "missing", "mixed"};

    TextObjectWriter ours = new TextObjectWriter();
    byte[][] prefixes = TextObjectWriter.keyPrefixes(keys);
    for (int i = 0; i < keys.length; i++) {
      ours.field(prefixes[i], values[i] == null ? null : values[i].getBytes(StandardCharsets.UTF_8));
    }

    try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
        PreparedStatement ps = c.prepareStatement(
            "SELECT json_object('all_ascii', ?, 'above_ascii', ?, 'empty', ?, 'missing', ?, 'mixed', ?)")) {
      for (int i = 0; i < values.length; i++) ps.setString(i + 1, values[i]);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        assertEquals(rs.getString(1), new String(ours.close(), StandardCharsets.UTF_8));
      }
    }
  }
}
