package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import minutes.TestStore;
import minutes.json.Jackson;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The import path: all or nothing, idempotent, every bad line reported by number and field. */
class ImportTest {
  @TempDir Path dir;
  TestStore testStore;
  Store db;
  Path fixtures;

  @BeforeEach
  void setUp() throws IOException {
    testStore = TestStore.create(dir);
    db = testStore.store();
    fixtures = dir.resolve("fixtures.ndjson");
    try (InputStream in = ImportTest.class.getResourceAsStream("/fixtures.ndjson")) {
      Files.copy(in, fixtures);
    }
  }

  @org.junit.jupiter.api.AfterEach
  void dropDatabase() {
    testStore.close();
  }

  private Importer.Summary importFiles(Path... files) throws Exception {
    return new Importer(db, Importer.Progress.NONE).run(List.of(files));
  }

  /** Every row of every data table, in a stable order: "content" of the database. */
  private String content() throws SQLException {
    StringBuilder out = new StringBuilder();
    try (Connection c = db.write()) {
      for (String table : List.of("workspace", "workspace_domain", "app_user", "company", "company_domain", "meeting",
          "meeting_viewer", "participant", "protocol", "action_item", "transcript_segment")) {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT * FROM " + table + " ORDER BY 1, 2")) {
          ResultSetMetaData md = rs.getMetaData();
          while (rs.next()) {
            out.append(table);
            for (int i = 1; i <= md.getColumnCount(); i++) {
              // PostgreSQL's row number (SQLite's rowid, which SELECT * leaves out) is not content.
              if (!md.getColumnName(i).equals("rid")) out.append('|').append(rs.getString(i));
            }
            out.append('\n');
          }
        }
      }
    }
    return out.toString();
  }

  @Test
  void importsEveryKindAndCounts() throws Exception {
    Importer.Summary s = importFiles(fixtures);
    assertEquals(2, s.workspaces());
    assertEquals(3, s.users());
    assertEquals(4, s.companies());
    assertEquals(6, s.meetings());
    assertEquals(13, s.tasks(), "superseded minutes' tasks are stored too");
  }

  @Test
  void importingTheSameFileTwiceChangesNothing() throws Exception {
    importFiles(fixtures);
    String once = content();
    importFiles(fixtures);
    assertEquals(once, content());
  }

  @Test
  void oneBadLineImportsNothingAndLeavesContentUnchanged() throws Exception {
    importFiles(fixtures);
    String before = content();
    List<String> lines = new ArrayList<>(Files.readAllLines(fixtures));
    // A valid change on line 1 that must not land, and a bad meeting line further down.
    lines.set(0, lines.get(0).replace("Acme GmbH", "Renamed GmbH"));
    lines.set(10, lines.get(10).replace("\"2026-03-05T14:00:00+01:00\"", "\"next tuesday\""));
    Path bad = dir.resolve("bad.ndjson");
    Files.write(bad, lines);
    Importer.Refused refused = assertThrows(Importer.Refused.class, () -> importFiles(bad));
    assertEquals(1, refused.badLines());
    assertEquals(11, refused.errors().get(0).line());
    assertEquals("starts_at", refused.errors().get(0).path());
    assertEquals(before, content());
  }

  @Test
  void everyBadLineIsReportedByNumberAndField() throws Exception {
    Path bad = dir.resolve("bad.ndjson");
    Files.writeString(bad, String.join("\n",
        "{\"kind\":\"workspace\",\"slug\":\"w\",\"name\":\"W\",\"domains\":[\"w.example\"]}",
        "{\"kind\":\"spaceship\"}",
        "not json at all",
        "",
        "{\"kind\":\"user\",\"workspace\":\"nowhere\",\"email\":\"a@b.c\"}",
        "{\"kind\":\"meeting\",\"workspace\":\"w\",\"id\":\"123\",\"title\":\"\",\"platform\":\"webex\",\"source\":\"calendar\","
            + "\"status\":\"ready\",\"created_at\":\"2026-01-01T00:00:00Z\",\"protocols\":[{\"id\":\"" + java.util.UUID.randomUUID()
            + "\",\"content_md\":\"x\",\"generated_at\":\"2026-01-01T00:00:00Z\",\"action_items\":[{\"id\":\""
            + java.util.UUID.randomUUID() + "\",\"task\":\"t\",\"due\":\"2026-02-30\",\"verdict\":\"open\",\"status\":\"open\"}]}],"
            + "\"startsAt\":\"2026-01-01T00:00:00Z\"}"));
    Importer.Refused refused = assertThrows(Importer.Refused.class, () -> importFiles(bad));
    assertEquals(4, refused.badLines());
    List<String> where = refused.errors().stream().map(e -> e.line() + ":" + e.path()).toList();
    assertTrue(where.contains("2:kind"), where.toString());
    assertTrue(where.contains("3:null"), where.toString());
    assertTrue(where.contains("5:workspace"), where.toString());
    for (String f : List.of("6:id", "6:title", "6:platform", "6:protocols[0].action_items[0].due", "6:startsAt")) {
      assertTrue(where.contains(f), f + " in " + where);
    }
    // The import migrates the store before it reads the file (a fresh one too), and writes no row.
    assertEquals("", content(), "nothing was written");
  }

  @Test
  void aMeetingLineReplacesTheMeetingWhole() throws Exception {
    importFiles(fixtures);
    String m1Id = minutes.Fixtures.M1;
    long meetingsBefore = count("SELECT count(*) FROM meeting");
    // M1 starts with rows of every kind, so that their absence afterwards means something
    for (String table : List.of("participant", "protocol", "action_item")) {
      assertTrue(count("SELECT count(*) FROM " + table + " WHERE meeting_id = '" + m1Id + "'") > 0, table);
    }
    List<String> lines = Files.readAllLines(fixtures);
    String m1 = lines.stream().filter(l -> l.contains("Quarterly planning")).findFirst().orElseThrow();
    String replaced = m1.replaceAll("\"transcript\": \\[.*\\]}$", "\"transcript\": []}")
        .replace("Quarterly planning with Müller", "Renamed planning");
    // Participants and protocols left out of the line: the meeting keeps none of its old ones.
    var json = (com.fasterxml.jackson.databind.node.ObjectNode) Jackson.MAPPER.readTree(replaced);
    assertTrue(json.remove("participants") != null && json.remove("protocols") != null, "the fixture line has both");
    assertEquals(m1Id, json.get("id").asText());
    Path change = dir.resolve("change.ndjson");
    Files.writeString(change, Jackson.MAPPER.writeValueAsString(json) + "\n");
    importFiles(change);
    try (Connection c = db.write()) {
      ResultSet rs = c.createStatement().executeQuery(
          "SELECT title, (SELECT count(*) FROM transcript_segment t WHERE t.meeting_id = m.id) FROM meeting m WHERE title LIKE 'Renamed%'");
      assertTrue(rs.next());
      assertEquals(0, rs.getInt(2));
    }
    for (String table : List.of("participant", "protocol", "action_item")) {
      assertEquals(0, count("SELECT count(*) FROM " + table + " WHERE meeting_id = '" + m1Id + "'"), table);
    }
    assertEquals(meetingsBefore, count("SELECT count(*) FROM meeting"), "replaced, not added");
  }

  /**
   * New meetings are written in groups (RecordWriter); a clash with the database is still
   * reported at its own line, wherever it falls in a group, and nothing of the file lands.
   */
  @Test
  void aClashWithTheDatabaseNamesItsLineInAnyGroup() throws Exception {
    importFiles(fixtures);
    String before = content();
    String takenTaskId = firstTaskOfM1();
    String m1 = fixtureLineOfM1();
    int total = MeetingGroup.MAX_MEETINGS * 2 + 3;
    for (int clashAt : List.of(1, 4, MeetingGroup.MAX_MEETINGS, MeetingGroup.MAX_MEETINGS + 7, total)) {
      List<String> lines = new ArrayList<>();
      for (int i = 1; i <= total; i++) lines.add(copyWithNewIds(m1, i == clashAt ? takenTaskId : null));
      Path file = dir.resolve("clash-" + clashAt + ".ndjson");
      Files.write(file, lines);
      Importer.Refused refused = assertThrows(Importer.Refused.class, () -> importFiles(file));
      assertEquals(1, refused.errors().size());
      assertEquals(clashAt, refused.errors().get(0).line(), "clash on line " + clashAt);
      assertEquals("conflicts with the database: an id in this line is already used by another record",
          refused.errors().get(0).message());
      assertEquals(before, content(), "nothing of the file landed");
    }
    List<String> clean = new ArrayList<>();
    for (int i = 0; i < total; i++) clean.add(copyWithNewIds(m1, null));
    Path file = dir.resolve("clean.ndjson");
    Files.write(file, clean);
    assertEquals(total, importFiles(file).meetings());
    assertEquals(6 + total, count("SELECT count(*) FROM meeting"));
  }

  /**
   * Written one by one, a line that takes a task id a later line frees clashes; a group that
   * deleted the replaced meetings first would let it pass. It is refused as before grouping; the
   * other order (freed first, then taken) imports.
   */
  @Test
  void aLineTakingATaskALaterLineFreesIsRefusedAsWrittenOneByOne() throws Exception {
    importFiles(fixtures);
    String before = content();
    String takenTaskId = firstTaskOfM1();
    String m1 = fixtureLineOfM1();
    var freed = (com.fasterxml.jackson.databind.node.ObjectNode) Jackson.MAPPER.readTree(m1);
    for (var p : freed.withArray("protocols")) ((com.fasterxml.jackson.databind.node.ObjectNode) p).putArray("action_items");
    String freeing = Jackson.MAPPER.writeValueAsString(freed), taking = copyWithNewIds(m1, takenTaskId);

    Path takeFirst = dir.resolve("take-first.ndjson");
    Files.write(takeFirst, List.of(taking, freeing));
    Importer.Refused refused = assertThrows(Importer.Refused.class, () -> importFiles(takeFirst));
    assertEquals(1, refused.errors().get(0).line());
    assertEquals(before, content());

    Path freeFirst = dir.resolve("free-first.ndjson");
    Files.write(freeFirst, List.of(freeing, taking));
    importFiles(freeFirst);
    assertEquals(7, count("SELECT count(*) FROM meeting"));
    assertEquals(0, count("SELECT count(*) FROM action_item WHERE meeting_id = '" + minutes.Fixtures.M1 + "'"));
    assertEquals(1, count("SELECT count(*) FROM action_item WHERE id = '" + takenTaskId + "'"));
  }

  private String firstTaskOfM1() throws SQLException {
    try (Connection c = db.write()) {
      return new Sql("SELECT id FROM action_item WHERE meeting_id = ?", minutes.Fixtures.M1).list(c, rs -> rs.getString(1)).get(0);
    }
  }

  private String fixtureLineOfM1() throws IOException {
    return Files.readAllLines(fixtures).stream().filter(l -> l.contains(minutes.Fixtures.M1)).findFirst().orElseThrow();
  }

  /** The meeting line with fresh meeting, minutes and task ids; the first task takes {@code taskId} when given. */
  private static String copyWithNewIds(String meetingLine, String taskId) throws IOException {
    var json = (com.fasterxml.jackson.databind.node.ObjectNode) Jackson.MAPPER.readTree(meetingLine);
    json.put("id", java.util.UUID.randomUUID().toString());
    boolean first = true;
    for (var p : json.withArray("protocols")) {
      ((com.fasterxml.jackson.databind.node.ObjectNode) p).put("id", java.util.UUID.randomUUID().toString());
      for (var t : p.withArray("action_items")) {
        ((com.fasterxml.jackson.databind.node.ObjectNode) t).put("id",
            first && taskId != null ? taskId : java.util.UUID.randomUUID().toString());
        first = false;
      }
    }
    return Jackson.MAPPER.writeValueAsString(json);
  }

  private long count(String sql) throws SQLException {
    try (Connection c = db.write(); ResultSet rs = c.createStatement().executeQuery(sql)) {
      assertTrue(rs.next());
      return rs.getLong(1);
    }
  }
}
