package minutes.changes;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.ApiServer.OTHER;
import static minutes.ApiServer.TASKS;
import static minutes.ApiServer.TRANSCRIPTS;
import static minutes.TestLines.delete;
import static minutes.TestLines.meeting;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import minutes.ApiServer;
import minutes.CliRun;
import minutes.TestLines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * GET /api/v1/changes (decisions.md "Change feed") on the real server, on the run's store: the
 * cursor, paging, order, and visibility exactly as pinned, also when visible_to narrows, widens
 * or a meeting moves to another workspace. Each test imports meetings of its own.
 */
class ChangesApiTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

  @Test
  void withoutSinceTheAnswerIsEmptyWithACursorForNow() {
    ApiServer.Response r = api.get("/api/v1/changes", ALL);
    assertEquals(200, r.status());
    assertEquals(List.of("data", "next_cursor", "has_more"), ApiServer.fields(r.json()));
    assertEquals(0, r.json().get("data").size());
    assertFalse(r.json().get("has_more").asBoolean());
    String cursor = r.json().get("next_cursor").asText();
    assertTrue(cursor.matches("[A-Za-z0-9_-]{27}"), cursor);
    JsonNode again = api.get("/api/v1/changes?since=" + cursor, ALL).json();
    assertEquals(0, again.get("data").size());
    assertEquals(cursor, again.get("next_cursor").asText(), "nothing happened: the same place");
  }

  @Test
  void aValueThatIsNotOneOfOurCursorsIs400NamingSince() {
    String cursor = api.cursor(ALL);
    for (String since : List.of("", "abc", "0", "-1", flipped(cursor, 3), flipped(cursor, 12), cursor + "A",
        cursor.substring(1), "%00", "x".repeat(5000))) {
      ApiServer.Response r = api.get("/api/v1/changes?since=" + since, ALL);
      assertEquals(400, r.status(), since + ": " + r.body());
      assertEquals("invalid_parameter", r.json().at("/error/code").asText());
      assertEquals("since", r.json().at("/error/field").asText());
    }
    ApiServer.Response limit = api.get("/api/v1/changes?since=" + cursor + "&limit=2.5", ALL);
    assertEquals(400, limit.status());
    assertEquals("limit", limit.json().at("/error/field").asText());
  }

  @Test
  void changesComeOldestFirstInCommitOrderAndPageByAClampedLimit() {
    String start = api.cursor(ALL);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String id = new UUID(14, i).toString();
      ids.add(id + " upsert");
      importLines(meeting(id, "zqorder" + i, "ann@acme.com"));
    }
    List<String> paged = new ArrayList<>();
    List<Boolean> more = new ArrayList<>();
    String cursor = start;
    do {
      JsonNode page = api.get("/api/v1/changes?limit=2&since=" + cursor, ALL).json();
      page.get("data").forEach(c -> {
        paged.add(c.get("meeting_id").asText() + " " + c.get("change").asText());
        assertTrue(c.get("changed_at").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), c.toString());
        assertEquals(List.of("meeting_id", "change", "changed_at"), ApiServer.fields(c));
      });
      more.add(page.get("has_more").asBoolean());
      cursor = page.get("next_cursor").asText();
    } while (more.get(more.size() - 1));
    assertEquals(ids, paged);
    assertEquals(List.of(true, true, false), more);
    assertEquals(1, api.get("/api/v1/changes?limit=0&since=" + start, ALL).json().get("data").size(), "clamped to 1");
    JsonNode all = api.get("/api/v1/changes?limit=5000&since=" + start, ALL).json();
    assertEquals(5, all.get("data").size(), "clamped to 1000");
    assertFalse(all.get("has_more").asBoolean());
    assertEquals(ids, api.changes(ALL, start), "the default page (100) holds them all");
  }

  @Test
  void aKeySeesUpsertsOfWhatItCanSeeAfterAndDeletesOfWhatItCouldSeeBefore() {
    String v = new UUID(15, 1).toString(), hidden = new UUID(15, 2).toString();
    String all = api.cursor(ALL), ann = api.cursor(ANN), bob = api.cursor(BOB), other = api.cursor(OTHER);
    importLines(meeting(v, "zqvis", "ann@acme.com"), meeting(hidden, "zqhidden", "ann@acme.com"));
    importLines(meeting(v, "zqvis", "bob@acme.com")); // narrows for ann, widens for bob
    importLines(meeting(v, "zqvis")); // narrows for bob
    importLines(delete("meeting", "acme", v), delete("meeting", "acme", hidden));

    assertEquals(List.of(v + " upsert", hidden + " upsert", v + " upsert", v + " upsert", v + " delete", hidden + " delete"),
        api.changes(ALL, all));
    assertEquals(List.of(v + " upsert", hidden + " upsert", v + " delete", hidden + " delete"), api.changes(ANN, ann));
    assertEquals(List.of(v + " upsert", v + " delete"), api.changes(BOB, bob));
    assertEquals(List.of(), api.changes(OTHER, other), "another workspace's key");
    // Nowhere in bob's answers, not even in a raw body, stands the id of a meeting bob never could see.
    for (String cursor = bob; ; ) {
      ApiServer.Response r = api.get("/api/v1/changes?limit=1&since=" + cursor, BOB);
      assertFalse(r.body().contains(hidden), r.body());
      if (!r.json().get("has_more").asBoolean()) break;
      cursor = r.json().get("next_cursor").asText();
    }
  }

  @Test
  void aMeetingMovedToAnotherWorkspaceIsADeleteForOneAndAnUpsertForTheOther() {
    String m = new UUID(15, 3).toString();
    importLines(meeting("acme", m, "zqmove", List.of("ann@acme.com"), null));
    String all = api.cursor(ALL), ann = api.cursor(ANN), other = api.cursor(OTHER);
    importLines(meeting("other", m, "zqmove", List.of("carl@other.test"), null));
    assertEquals(List.of(m + " delete"), api.changes(ALL, all));
    assertEquals(List.of(m + " delete"), api.changes(ANN, ann));
    assertEquals(List.of(m + " upsert"), api.changes(OTHER, other));
  }

  @Test
  void theFeedNeedsMeetingsRead() {
    for (String key : List.of(TASKS, TRANSCRIPTS)) {
      ApiServer.Response r = api.get("/api/v1/changes", key);
      assertEquals(403, r.status());
      assertEquals("Bearer error=\"insufficient_scope\", scope=\"meetings:read\"", r.header("WWW-Authenticate"));
    }
    assertEquals(401, api.get("/api/v1/changes?since=abc", null).status(), "the key before the parameters");
  }

  /** The cursor with one bit of byte {@code at} flipped: another number (at < 8) or a wrong signature. */
  private static String flipped(String cursor, int at) {
    byte[] raw = Base64.getUrlDecoder().decode(cursor);
    raw[at] ^= 1;
    return Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
  }

  private static void importLines(String... lines) {
    CliRun r = api.cli("import", TestLines.file(api.dir(), lines).toString());
    assertEquals(0, r.code(), r.err());
  }
}
