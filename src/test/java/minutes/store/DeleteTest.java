package minutes.store;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.TestLines.delete;
import static minutes.TestLines.deleteWorkspace;
import static minutes.TestLines.meeting;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import minutes.ApiServer;
import minutes.CliRun;
import minutes.Fixtures;
import minutes.RunsAlone;
import minutes.TestLines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Delete lines (decisions.md "Deleting data") through the real import command next to the real
 * server, on the run's store: each kind, file order, replays, bad lines, and that nothing of a
 * deleted workspace remains. Each test imports meetings of its own, so the order of tests does
 * not matter.
 */
@RunsAlone("a deleted meeting is gone from search within 2 s")
class DeleteTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  private static final Duration WITHIN = Duration.ofSeconds(2);

  @Test
  void aDeletedMeetingIsGoneFromEveryEndpointCustomerCountsSearchAndTheFeedShowsIt() throws Exception {
    String m = new UUID(13, 1).toString(), umbrella = new UUID(13, 101).toString();
    importLines("{\"kind\":\"company\",\"workspace\":\"acme\",\"id\":\"" + umbrella
            + "\",\"name\":\"Umbrella\",\"domains\":[\"umbrella.test\"]}",
        meeting("acme", m, "zqdelone", List.of("ann@acme.com"), "guest@umbrella.test"));
    awaitHits(ALL, "zqdelonetranscript", List.of(m));
    assertEquals(200, api.get("/api/v1/meetings/" + m, ALL).status());
    assertEquals(1, api.get("/api/v1/meetings/" + m + "/action-items", ALL).json().get("data").size());
    assertEquals(1, api.get("/api/v1/action-items?meeting_id=" + m, ALL).json().at("/pagination/total").asLong());
    assertEquals(1, customer(ALL, umbrella).get("meeting_count").asLong());
    assertEquals(1, customer(ANN, umbrella).get("meeting_count").asLong());
    String all = api.cursor(ALL), ann = api.cursor(ANN), bob = api.cursor(BOB);

    CliRun deleted = importLines(delete("meeting", "acme", m.toUpperCase()));
    long returned = System.nanoTime();
    assertTrue(deleted.out().contains("1 deletes"), deleted.out());
    assertTrue(deleted.out().contains("erased what the deletes removed"), deleted.out());

    for (String path : List.of("", "/participants", "/transcript", "/transcript/search?q=talk")) {
      assertEquals(404, api.get("/api/v1/meetings/" + m + path, ALL).status(), path);
    }
    // api-spec 4.4: the per-meeting task list never says 404, it is empty.
    assertEquals(0, api.get("/api/v1/meetings/" + m + "/action-items", ALL).json().get("data").size());
    assertEquals(0, api.get("/api/v1/action-items?meeting_id=" + m, ALL).json().at("/pagination/total").asLong());
    assertFalse(ApiServer.column(api.get("/api/v1/meetings?limit=200", ALL).json(), "id").contains(m));
    assertEquals(0, customer(ALL, umbrella).get("meeting_count").asLong(), "a workspace key still lists the company");
    assertEquals(null, customer(ANN, umbrella), "a personal key lists only companies it shares a meeting with");
    for (String word : List.of("zqdelonetitle", "zqdeloneminutes", "zqdelonetranscript")) {
      awaitHitsSince(ALL, word, List.of(), returned);
    }
    assertEquals(List.of(m + " delete"), api.changes(ALL, all));
    assertEquals(List.of(m + " delete"), api.changes(ANN, ann));
    assertEquals(List.of(), api.changes(BOB, bob), "bob never could see it");
  }

  @Test
  void aDeletedCompanyLeavesCustomersAndOnlyItsOwnWorkspaceCounts() throws Exception {
    String c = new UUID(13, 102).toString();
    importLines("{\"kind\":\"company\",\"workspace\":\"acme\",\"id\":\"" + c + "\",\"name\":\"Soylent\",\"domains\":[\"soylent.test\"]}");
    assertNotNull(customer(ALL, c));
    importLines(delete("company", "other", c)); // another workspace's id: left alone
    assertNotNull(customer(ALL, c));
    CliRun deleted = importLines(delete("company", "acme", c));
    assertTrue(deleted.out().contains("1 deletes"), deleted.out());
    assertEquals(null, customer(ALL, c));
    assertEquals(0, count("SELECT count(*) FROM company_domain WHERE company_id = ?", c));
  }

  @Test
  void aDeletedUserLeavesEveryVisibleToAndItsPersonalKeysAnswer401() throws Exception {
    String m = new UUID(13, 2).toString();
    importLines("{\"kind\":\"user\",\"workspace\":\"acme\",\"email\":\"dora@acme.com\",\"name\":\"Dora\"}",
        meeting(m, "zqdora", "Dora@acme.com", "ann@acme.com"));
    String keyId = api.createKey("dora", "acme", "dora@acme.com");
    assertEquals(200, api.get("/api/v1/meetings/" + m, "dora").status());
    String ann = api.cursor(ANN);

    CliRun deleted = importLines(delete("user", "acme", "DORA@acme.com"));
    assertTrue(deleted.out().contains("1 deletes"), deleted.out());
    assertEquals(401, api.get("/api/v1/meetings", "dora").status());
    assertEquals(1, count("SELECT count(*) FROM api_key WHERE id = ? AND revoked_at IS NOT NULL", keyId));
    assertEquals(0, count("SELECT count(*) FROM app_user WHERE email = ?", "dora@acme.com"));
    assertEquals(0, count("SELECT count(*) FROM meeting_viewer WHERE email = ?", "dora@acme.com"));
    assertEquals(0, count("SELECT count(*) FROM change_feed WHERE viewer = ?", "dora@acme.com"), "its history goes too");
    assertEquals(200, api.get("/api/v1/meetings/" + m, ANN).status(), "the others keep seeing it");
    awaitHits(ANN, "zqdoratitle", List.of(m));
    assertEquals(List.of(), api.changes(ANN, ann), "ann's view did not change");
    assertEquals(1, api.cli("keys", "create", "--workspace", "acme", "--scopes", "meetings:read", "--user", "dora@acme.com").code(),
        "no user, no new key");
  }

  @Test
  void nothingOfADeletedWorkspaceRemainsAndItsKeysAnswer401() throws Exception {
    String m = new UUID(13, 3).toString(), company = new UUID(13, 103).toString();
    importLines("{\"kind\":\"workspace\",\"slug\":\"gone\",\"name\":\"Gone Ltd\",\"domains\":[\"gone.test\"]}",
        "{\"kind\":\"user\",\"workspace\":\"gone\",\"email\":\"gus@gone.test\",\"name\":\"Gus Gone\"}",
        "{\"kind\":\"company\",\"workspace\":\"gone\",\"id\":\"" + company + "\",\"name\":\"Gonecorp\",\"domains\":[\"gonecorp.test\"]}",
        meeting("gone", m, "zqgone", List.of("gus@gone.test"), "pat@gonecorp.test"));
    api.createKey("goneAll", "gone", null);
    api.createKey("gus", "gone", "gus@gone.test");
    awaitHits("goneAll", "zqgonetitle", List.of(m));
    awaitHits("gus", "zqgonetitle", List.of(m));
    long acmeMeetings = api.get("/api/v1/meetings", ALL).json().at("/pagination/total").asLong();

    CliRun deleted = importLines(deleteWorkspace("gone"));
    assertTrue(deleted.out().contains("1 deletes"), deleted.out());
    for (String key : List.of("goneAll", "gus")) {
      for (String path : List.of("/api/v1/meetings", "/api/v1/changes", "/api/v1/search?q=zqgonetitle")) {
        assertEquals(401, api.get(path, key).status(), key + " " + path);
      }
    }
    // Every row of every table, read as text: none names the workspace, its people, companies or
    // words. change_log keeps the meeting's id (no text) until history is pruned: every node's
    // search index needs it to delete the document (docs/API.md, "Deleting data").
    List<String> left = new ArrayList<>();
    try (Connection c = api.store().write(); Statement st = c.createStatement()) {
      for (String table : api.store().dialect().tables(c)) {
        if (table.equals("flyway_schema_history")) continue;
        try (ResultSet rs = st.executeQuery("SELECT * FROM " + table)) {
          ResultSetMetaData md = rs.getMetaData();
          while (rs.next()) {
            for (int i = 1; i <= md.getColumnCount(); i++) {
              String v = String.valueOf(rs.getObject(i));
              boolean ours = v.equals("gone") || v.contains("gone.test") || v.contains("Gone") || v.contains("gus@")
                  || v.contains("zqgone") || v.contains(company) || (v.contains(m) && !table.equals("change_log"));
              if (ours) left.add(table + "." + md.getColumnName(i) + " = " + v);
            }
          }
        }
      }
    }
    assertEquals(List.of(), left);
    assertEquals(acmeMeetings, api.get("/api/v1/meetings", ALL).json().at("/pagination/total").asLong(), "acme untouched");
    awaitIndexedMeetings();
  }

  @Test
  void linesApplyInFileOrderAndTheFeedShowsOnlyTheNetChange() throws Exception {
    String a = new UUID(13, 4).toString(), b = new UUID(13, 5).toString();
    importLines(meeting(b, "zqorderb", "ann@acme.com"));
    String all = api.cursor(ALL), ann = api.cursor(ANN);

    importLines(meeting(a, "zqordera", "ann@acme.com"), delete("meeting", "acme", a),
        delete("meeting", "acme", b), meeting(b, "zqorderc", "ann@acme.com"));
    assertEquals(404, api.get("/api/v1/meetings/" + a, ALL).status(), "the delete after the upsert wins");
    assertEquals("Review zqorderctitle", api.get("/api/v1/meetings/" + b, ALL).json().get("title").asText(),
        "the upsert after the delete wins");
    // a existed only between two lines of one import: no committed state ever showed it.
    assertEquals(List.of(b + " upsert"), api.changes(ALL, all));
    assertEquals(List.of(b + " upsert"), api.changes(ANN, ann));
    awaitHits(ALL, "zqorderctitle", List.of(b));
    awaitHits(ALL, "zqorderbtitle", List.of());
  }

  @Test
  void replayingADeleteChangesNothing() throws Exception {
    String m = new UUID(13, 6).toString();
    importLines(meeting(m, "zqreplay", "ann@acme.com"));
    String file = TestLines.file(api.dir(), delete("meeting", "acme", m)).toString();
    CliRun first = api.cli("import", file);
    assertEquals(0, first.code(), first.err());
    String after = api.cursor(ALL);
    long version = count("SELECT coalesce(max(seq), 0) FROM change_log");

    CliRun again = api.cli("import", file);
    assertEquals(0, again.code(), again.err());
    assertFalse(again.out().contains("erased"), "nothing was removed: " + again.out());
    assertEquals(version, count("SELECT coalesce(max(seq), 0) FROM change_log"), "no change recorded");
    assertEquals(List.of(), api.changes(ALL, after));
    CliRun nowhere = importLines(deleteWorkspace("never-was"), delete("user", "acme", "nobody@acme.com"),
        delete("meeting", "other", Fixtures.M1));
    assertEquals(0, nowhere.code(), nowhere.err());
    assertEquals(200, api.get("/api/v1/meetings/" + Fixtures.M1, ALL).status(), "another workspace's delete line");
  }

  @Test
  void aBadDeleteLineRefusesTheWholeFileNamingLineAndField() throws Exception {
    String file = TestLines.file(api.dir(),
        delete("meeting", "acme", Fixtures.M4),
        "{\"kind\":\"delete\",\"workspace\":\"acme\",\"id\":\"" + Fixtures.M4 + "\"}",
        "{\"kind\":\"delete\",\"what\":\"planet\",\"workspace\":\"acme\"}",
        "{\"kind\":\"delete\",\"what\":\"meeting\",\"workspace\":\"acme\"}",
        delete("meeting", "acme", "not-a-uuid"),
        delete("user", "acme", "nope"),
        "{\"kind\":\"delete\",\"what\":\"company\",\"workspace\":\"acme\",\"id\":\"" + Fixtures.M4 + "\",\"reason\":\"gdpr\"}",
        "{\"kind\":\"delete\",\"what\":\"workspace\",\"workspace\":\"acme\",\"id\":\"" + Fixtures.M4 + "\"}",
        "{\"kind\":\"delete\",\"what\":\"workspace\"}",
        "{\"kind\":\"delete\",\"what\":42,\"workspace\":\"acme\"}").toString();
    CliRun r = api.cli("import", file);
    assertEquals(1, r.code());
    String name = java.nio.file.Path.of(file).getFileName().toString();
    for (String lineAndField : List.of("2: what: ", "3: what: ", "4: id: ", "5: id: ", "6: email: ", "7: reason: ",
        "8: id: ", "9: workspace: ", "10: what: ")) {
      assertTrue(r.err().contains(name + ":" + lineAndField), lineAndField + " in " + r.err());
    }
    assertFalse(r.err().contains(name + ":1:"), r.err());
    assertEquals(200, api.get("/api/v1/meetings/" + Fixtures.M4, ALL).status(), "nothing was imported");
  }

  @Test
  void aWorkspaceDeletedOnAnEarlierLineIsGoneForTheLinesAfterIt() throws Exception {
    String file = TestLines.file(api.dir(),
        "{\"kind\":\"workspace\",\"slug\":\"brief\",\"name\":\"Brief\"}",
        deleteWorkspace("brief"),
        "{\"kind\":\"user\",\"workspace\":\"brief\",\"email\":\"x@brief.test\"}").toString();
    CliRun r = api.cli("import", file);
    assertEquals(1, r.code());
    assertTrue(r.err().contains(java.nio.file.Path.of(file).getFileName() + ":3: workspace: "), r.err());
  }

  // ------------------------------------------------------------------ helpers

  private static CliRun importLines(String... lines) {
    CliRun r = api.cli("import", TestLines.file(api.dir(), lines).toString());
    assertEquals(0, r.code(), r.err());
    return r;
  }

  private static long count(String sql, Object... values) throws Exception {
    try (Connection c = api.store().write()) {
      return new Sql(sql, values).count(c);
    }
  }

  /** The customer with this id as the key sees the list, or null. */
  private static JsonNode customer(String key, String id) {
    for (JsonNode row : api.get("/api/v1/customers", key).json().get("data")) {
      if (row.get("id").asText().equals(id)) return row;
    }
    return null;
  }

  /** Waits (up to 10 s) for a search to find exactly these meetings, e.g. until the server indexed an import. */
  private static void awaitHits(String key, String word, List<String> expected) throws InterruptedException {
    api.awaitHits(key, word, expected, System.nanoTime(), Duration.ofSeconds(10));
  }

  /** As {@link #awaitHits}, and it must hold within 2 s of {@code since} (decisions.md). */
  private static void awaitHitsSince(String key, String word, List<String> expected, long since) throws InterruptedException {
    api.awaitHits(key, word, expected, since, WITHIN);
  }

  /** Waits until the server's index holds exactly the meetings of the database. */
  private static void awaitIndexedMeetings() throws Exception {
    long meetings = count("SELECT count(*) FROM meeting");
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    double indexed;
    do {
      Thread.sleep(20);
      indexed = metric("minutes_index_documents");
    } while (indexed != meetings && System.nanoTime() < deadline);
    assertEquals(meetings, (long) indexed, "the index dropped the workspace's meeting");
  }

  static double metric(String name) {
    for (String line : api.get("/metrics", null).body().split("\n")) {
      if (line.startsWith(name + " ")) return Double.parseDouble(line.substring(name.length() + 1));
    }
    throw new AssertionError("no metric " + name);
  }
}
