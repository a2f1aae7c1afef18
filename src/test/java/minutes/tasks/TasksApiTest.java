package minutes.tasks;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.ApiServer.OTHER;
import static minutes.Fixtures.M1;
import static minutes.Fixtures.M2;
import static minutes.Fixtures.M3;
import static minutes.Fixtures.O1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TasksApiTest {
  @RegisterExtension static final ApiServer api = new ApiServer();


  // ------------------------------------------------ GET /meetings/{id}/action-items (api-spec 4.4)

  @Test
  void meetingTasksComeFromTheMostRecentMinutesByDueThenPosition() {
    JsonNode body = api.get("/api/v1/meetings/" + M1 + "/action-items", ALL).json();
    assertEquals(List.of("meeting_id", "data", "pagination"), ApiServer.fields(body));
    assertEquals(M1, body.get("meeting_id").asText());
    assertEquals(List.of("Book the offsite venue", "Send the revised forecast to finance", "Duplicate of the forecast task",
        "Drop the old reporting template", "Clarify who owns the hiring plan"), ApiServer.column(body, "task"));
    JsonNode first = body.get("data").get(0);
    assertEquals(List.of("id", "task", "owner_name", "due", "verdict", "status", "protocol_id"), ApiServer.fields(first));
    assertEquals("2026-03-12", first.get("due").asText());
    assertEquals("resolved_in_meeting", first.get("verdict").asText());
    assertEquals("done", first.get("status").asText());
    assertEquals("Ann Example", first.get("owner_name").asText());
    String currentProtocol = api.get("/api/v1/meetings/" + M1, ALL).json().at("/protocol/id").asText();
    body.get("data").forEach(t -> assertEquals(currentProtocol, t.get("protocol_id").asText()));
  }

  @Test
  void quirkPaginationLimitIsRowsDeliveredOffsetIsAlwaysZeroTotalIsReal() {
    JsonNode body = api.get("/api/v1/meetings/" + M1 + "/action-items?limit=2&offset=1", ALL).json();
    assertEquals(List.of("Send the revised forecast to finance", "Duplicate of the forecast task"), ApiServer.column(body, "task"));
    assertEquals(2, body.at("/pagination/limit").asInt());
    assertEquals(0, body.at("/pagination/offset").asInt());
    assertEquals(5, body.at("/pagination/total").asInt());
    body = api.get("/api/v1/meetings/" + M1 + "/action-items?offset=4", ALL).json();
    assertEquals(1, body.at("/pagination/limit").asInt(), "rows delivered, not the default 100");
    assertEquals(0, body.at("/pagination/offset").asInt());
    body = api.get("/api/v1/meetings/" + M1 + "/action-items?limit=500", ALL).json();
    assertEquals(5, body.at("/pagination/limit").asInt());
  }

  @Test
  void quirkUnusableDueFilterIs500NamingTheField() {
    for (String field : List.of("due_from", "due_to")) {
      ApiServer.Response r = api.get("/api/v1/meetings/" + M1 + "/action-items?" + field + "=next-week", ALL);
      assertEquals(500, r.status());
      assertEquals(field, r.json().at("/error/field").asText());
      assertEquals("internal_error", r.json().at("/error/code").asText());
      assertEquals("application/json; charset=utf-8", r.header("Content-Type"));
    }
  }

  @Test
  void usableDueFiltersKeepOnlyTasksWithADueDateInclusive() {
    JsonNode body = api.get("/api/v1/meetings/" + M1 + "/action-items?due_from=2026-03-12&due_to=2026-03-20", ALL).json();
    assertEquals(List.of("Book the offsite venue", "Send the revised forecast to finance", "Duplicate of the forecast task"),
        ApiServer.column(body, "task"));
    assertEquals(3, body.at("/pagination/total").asInt());
    body = api.get("/api/v1/meetings/" + M1 + "/action-items?due_from=2026-03-21", ALL).json();
    assertEquals(List.of("Drop the old reporting template"), ApiServer.column(body, "task"), "no-due tasks are excluded");
  }

  @Test
  void meetingTasksFilterByStatusAndVerdictAnd400OnBadEnum() {
    assertEquals(List.of("Duplicate of the forecast task", "Drop the old reporting template"),
        ApiServer.column(api.get("/api/v1/meetings/" + M1 + "/action-items?status=dismissed", ALL).json(), "task"));
    assertEquals(List.of("Clarify who owns the hiring plan"),
        ApiServer.column(api.get("/api/v1/meetings/" + M1 + "/action-items?verdict=unclear_owner", ALL).json(), "task"));
    ApiServer.Response r = api.get("/api/v1/meetings/" + M1 + "/action-items?status=closed", ALL);
    assertEquals(400, r.status());
    assertEquals("status", r.json().at("/error/field").asText());
    r = api.get("/api/v1/meetings/" + M1 + "/action-items?limit=ten", ALL);
    assertEquals(400, r.status());
    assertEquals("limit", r.json().at("/error/field").asText());
  }

  @Test
  void invisibleMissingOrMalformedMeetingIsAnEmptyListNever404() {
    for (String id : List.of(O1, "00000000-0000-0000-0000-000000000000", "not-a-uuid")) {
      ApiServer.Response r = api.get("/api/v1/meetings/" + id + "/action-items", ALL);
      assertEquals(200, r.status(), id);
      assertEquals(0, r.json().get("data").size());
      assertEquals(0, r.json().at("/pagination/total").asInt());
    }
    assertEquals(0, api.get("/api/v1/meetings/" + M2 + "/action-items", ANN).json().get("data").size());
    assertEquals(3, api.get("/api/v1/meetings/" + M2 + "/action-items", BOB).json().get("data").size());
  }

  // ------------------------------------------------ GET /action-items (api-spec 4.5)

  @Test
  void crossMeetingTasksOrderByDueNoDueLastThenMeetingStartDescending() {
    JsonNode body = api.get("/api/v1/action-items", ALL).json();
    assertEquals(List.of("data", "pagination"), ApiServer.fields(body));
    // Superseded minutes contribute nothing; the other workspace never shows.
    assertEquals(List.of(
        "Review the contract draft",                 // 03-09
        "Share the API credentials with Initech",    // 03-12, M2 starts 03-05
        "Book the offsite venue",                    // 03-12, M1 starts 03-02
        "Summarise the interview for product",       // 03-12, M3 has no start: last among equals
        "Send the revised forecast to finance",      // 03-20 (same meeting and due: by id)
        "Duplicate of the forecast task",
        "Drop the old reporting template",           // 04-01
        "Write the integration test plan",           // no due, M2
        "Clarify who owns the hiring plan",          // no due, M1
        "Send a thank-you note"),                    // no due, M3
        withSameDueSortedById(ApiServer.column(body, "task"), body));
    JsonNode t = body.get("data").get(0);
    assertEquals(List.of("id", "task", "owner_name", "due", "verdict", "status", "meeting_id", "meeting_title",
        "meeting_starts_at", "protocol_id"), ApiServer.fields(t));
    assertEquals(M2, t.get("meeting_id").asText());
    assertEquals("Weekly sync with Initech", t.get("meeting_title").asText());
    assertEquals("2026-03-05T13:00:00Z", t.get("meeting_starts_at").asText());
    JsonNode upload = body.get("data").get(3);
    assertEquals(M3, upload.get("meeting_id").asText());
    assertTrue(upload.get("meeting_starts_at").isNull());
    assertEquals(100, body.at("/pagination/limit").asInt());
    assertEquals(0, body.at("/pagination/offset").asInt());
    assertEquals(10, body.at("/pagination/total").asInt());
  }

  /** The two 03-20 tasks of M1 tie on due and meeting, so their order is by id: check it and normalise. */
  private static List<String> withSameDueSortedById(List<String> names, JsonNode body) {
    String a = body.get("data").get(4).get("id").asText();
    String b = body.get("data").get(5).get("id").asText();
    assertTrue(a.compareTo(b) < 0, "ties are ordered by task id");
    List<String> out = new ArrayList<>(names);
    if (out.get(4).startsWith("Duplicate")) java.util.Collections.swap(out, 4, 5);
    return out;
  }

  @Test
  void crossMeetingFilters() {
    assertEquals(3, api.get("/api/v1/action-items?meeting_id=" + M2, ALL).json().get("data").size());
    assertEquals(3, api.get("/api/v1/action-items?meeting_id=" + M2.toUpperCase(), ALL).json().get("data").size());
    assertEquals(0, api.get("/api/v1/action-items?meeting_id=" + O1, ALL).json().get("data").size());
    assertEquals(List.of("Write the integration test plan", "Book the offsite venue"),
        sorted(ApiServer.column(api.get("/api/v1/action-items?status=done", ALL).json(), "task")));
    assertEquals(List.of("Duplicate of the forecast task"),
        ApiServer.column(api.get("/api/v1/action-items?verdict=duplicate", ALL).json(), "task"));
    JsonNode due = api.get("/api/v1/action-items?due_from=2026-03-12&due_to=2026-03-12", ALL).json();
    assertEquals(3, due.at("/pagination/total").asInt());
    due.get("data").forEach(t -> assertEquals("2026-03-12", t.get("due").asText()));
    assertEquals(7, api.get("/api/v1/action-items?due_from=2000-01-01", ALL).json().at("/pagination/total").asInt(),
        "a due bound excludes tasks without a due date");
  }

  /**
   * Regression (issue 30): the in-memory order's binary search over due days answered a
   * negative total (-40 on the demo data) for a due range whose start is after its end.
   */
  @Test
  void invertedDueRangeIsAnEmptyPageWithTotalZero() {
    for (String key : List.of(ALL, ANN, BOB, OTHER)) {
      for (String other : List.of("", "&status=open", "&verdict=open", "&meeting_id=" + M1, "&limit=1&offset=3")) {
        for (String range : List.of("due_from=2026-03-20&due_to=2026-03-12", "due_from=2026-12-31&due_to=2026-01-01",
            "due_from=2026-03-13&due_to=2026-03-12")) {
          JsonNode body = api.get("/api/v1/action-items?" + range + other, key).json();
          assertEquals(0, body.at("/pagination/total").asInt(), key + " " + range + other);
          assertEquals(0, body.get("data").size(), key + " " + range + other);
          JsonNode perMeeting = api.get("/api/v1/meetings/" + M1 + "/action-items?" + range + other, key).json();
          assertEquals(0, perMeeting.at("/pagination/total").asInt(), key + " per meeting " + range + other);
          assertEquals(0, perMeeting.get("data").size(), key + " per meeting " + range + other);
        }
      }
    }
  }

  private static List<String> sorted(List<String> in) {
    List<String> out = new ArrayList<>(in);
    out.sort(java.util.Comparator.reverseOrder());
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"due_from=2026-13-01", "due_from=2026-02-30", "due_to=20260301", "due_to=2026-3-1",
      "meeting_id=123", "status=closed", "verdict=maybe", "limit=1.0", "offset=--1"})
  void crossMeetingBadFilterIs400NamingTheField(String query) {
    ApiServer.Response r = api.get("/api/v1/action-items?" + query, ALL);
    assertEquals(400, r.status(), r.body());
    assertEquals(query.substring(0, query.indexOf('=')), r.json().at("/error/field").asText());
  }

  @Test
  void personalKeysAndOtherWorkspacesSeeOnlyTheirTasks() {
    assertEquals(7, api.get("/api/v1/action-items", ANN).json().at("/pagination/total").asInt());
    assertEquals(5, api.get("/api/v1/action-items", BOB).json().at("/pagination/total").asInt());
    JsonNode other = api.get("/api/v1/action-items", OTHER).json();
    assertEquals(List.of("Secret task"), ApiServer.column(other, "task"));
  }

  @Test
  void pagingThroughReturnsEveryTaskExactlyOnce() {
    Set<String> seen = new HashSet<>();
    List<String> inOrder = new ArrayList<>();
    for (int offset = 0; ; offset += 3) {
      JsonNode page = api.get("/api/v1/action-items?limit=3&offset=" + offset, ALL).json();
      assertEquals(3, page.at("/pagination/limit").asInt());
      assertEquals(offset, page.at("/pagination/offset").asInt());
      if (page.get("data").isEmpty()) break;
      for (String id : ApiServer.column(page, "id")) {
        assertTrue(seen.add(id), "seen twice: " + id);
        inOrder.add(id);
      }
    }
    List<String> whole = ApiServer.column(api.get("/api/v1/action-items?limit=200", ALL).json(), "id");
    assertEquals(whole, inOrder);
    assertEquals(10, seen.size());
  }

}
