package minutes.meetings;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.ApiServer.OTHER;
import static minutes.Fixtures.M1;
import static minutes.Fixtures.M2;
import static minutes.Fixtures.M3;
import static minutes.Fixtures.M4;
import static minutes.Fixtures.M5;
import static minutes.Fixtures.O1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MeetingsApiTest {
  @RegisterExtension static final ApiServer api = new ApiServer();


  @Test
  void listsWorkspaceMeetingsNewestFirstWithEveryRowField() {
    JsonNode page = api.get("/api/v1/meetings", ALL).json();
    // -starts_at by default; the upload (no start) sorts by its created_at; equal starts by id.
    assertEquals(List.of(M4, M2, M5, M1, M3), ApiServer.column(page, "id"));
    assertEquals(5, page.get("data").size());
    assertEquals(50, page.at("/pagination/limit").asInt());
    assertEquals(0, page.at("/pagination/offset").asInt());
    assertEquals(5, page.at("/pagination/total").asInt());
    JsonNode m2 = page.get("data").get(1);
    assertEquals(List.of("id", "title", "platform", "source", "status", "starts_at", "ends_at", "created_at", "organizer_email",
        "language"),
        ApiServer.fields(m2));
    assertEquals("Weekly sync with Initech", m2.get("title").asText());
    assertEquals("teams", m2.get("platform").asText());
    assertEquals("url", m2.get("source").asText());
    assertEquals("processing", m2.get("status").asText());
    assertEquals("2026-03-05T13:00:00Z", m2.get("starts_at").asText());
    assertEquals("2026-03-05T13:45:00Z", m2.get("ends_at").asText());
    assertEquals("2026-03-05T12:55:00Z", m2.get("created_at").asText());
    assertTrue(m2.get("organizer_email").isNull());
    JsonNode upload = page.get("data").get(4);
    assertEquals(M3, upload.get("id").asText());
    assertTrue(upload.get("starts_at").isNull());
    assertTrue(upload.get("ends_at").isNull());
  }

  @Test
  void personalKeySeesOnlyItsUsersMeetings() {
    assertEquals(Set.of(M1, M3), new TreeSet<>(ApiServer.column(api.get("/api/v1/meetings", ANN).json(), "id")));
    assertEquals(Set.of(M2, M3, M5), new TreeSet<>(ApiServer.column(api.get("/api/v1/meetings", BOB).json(), "id")));
    assertEquals(List.of(O1), ApiServer.column(api.get("/api/v1/meetings", OTHER).json(), "id"));
  }

  @Test
  void ordersByEachFieldBothWays() {
    assertEquals(List.of(M3, M1, M5, M2, M4), ApiServer.column(api.get("/api/v1/meetings?order=starts_at", ALL).json(), "id"));
    assertEquals(List.of(M3, M1, M5, M2, M4), ApiServer.column(api.get("/api/v1/meetings?order=created_at", ALL).json(), "id"));
    assertEquals(List.of(M4, M2, M5, M1, M3), ApiServer.column(api.get("/api/v1/meetings?order=-created_at", ALL).json(), "id"));
    // Case-insensitive by title: Customer, Kickoff, No bot, Quarterly, Weekly.
    assertEquals(List.of(M3, M4, M5, M1, M2), ApiServer.column(api.get("/api/v1/meetings?order=title", ALL).json(), "id"));
    assertEquals(List.of(M2, M1, M5, M4, M3), ApiServer.column(api.get("/api/v1/meetings?order=-title", ALL).json(), "id"));
  }

  @Test
  void fromIsInclusiveToIsExclusiveOnStartOrCreation() {
    assertEquals(Set.of(M1, M5, M2), new TreeSet<>(ApiServer.column(api.get("/api/v1/meetings?from=2026-03-02T09:30:00Z&to=2026-04-01", ALL).json(), "id")));
    assertEquals(Set.of(M1, M5, M2, M4), new TreeSet<>(ApiServer.column(api.get("/api/v1/meetings?from=2026-03-02", ALL).json(), "id")));
    assertEquals(List.of(M3), ApiServer.column(api.get("/api/v1/meetings?to=2026-03-01", ALL).json(), "id"));
    // An offset is converted to UTC: 14:00+01:00 is 13:00Z.
    assertEquals(List.of(M2), ApiServer.column(api.get("/api/v1/meetings?from=2026-03-05T14:00:00%2B01:00&to=2026-03-05T13:00:01Z", ALL).json(), "id"));
  }

  @Test
  void qMatchesTitlesIgnoringCaseAndAccents() {
    assertEquals(List.of(M1), ApiServer.column(api.get("/api/v1/meetings?q=MULLER", ALL).json(), "id"));
    assertEquals(List.of(M1), ApiServer.column(api.get("/api/v1/meetings?q=m%C3%BCller", ALL).json(), "id"));
    assertEquals(List.of(), ApiServer.column(api.get("/api/v1/meetings?q=%25", ALL).json(), "id"));
    assertEquals(List.of(), ApiServer.column(api.get("/api/v1/meetings?q=_", ALL).json(), "id"));
  }

  @Test
  void filtersByStatusPlatformAndSource() {
    assertEquals(List.of(M2), ApiServer.column(api.get("/api/v1/meetings?status=processing", ALL).json(), "id"));
    assertEquals(List.of(M3), ApiServer.column(api.get("/api/v1/meetings?platform=upload", ALL).json(), "id"));
    assertEquals(Set.of(M1, M4, M5), new TreeSet<>(ApiServer.column(api.get("/api/v1/meetings?source=calendar", ALL).json(), "id")));
  }

  @Test
  void limitAndOffsetAreClampedAndReported() {
    JsonNode page = api.get("/api/v1/meetings?limit=0&offset=-4", ALL).json();
    assertEquals(1, page.at("/pagination/limit").asInt());
    assertEquals(0, page.at("/pagination/offset").asInt());
    assertEquals(List.of(M4), ApiServer.column(page, "id"));
    page = api.get("/api/v1/meetings?limit=1000&offset=3", ALL).json();
    assertEquals(200, page.at("/pagination/limit").asInt());
    assertEquals(3, page.at("/pagination/offset").asInt());
    assertEquals(List.of(M1, M3), ApiServer.column(page, "id"));
    assertEquals(5, page.at("/pagination/total").asInt());
  }

  @ParameterizedTest
  @ValueSource(strings = {"limit=2.5", "limit=1e3", "limit=abc", "offset=x", "from=2026-02-30", "to=yesterday",
      "order=duration", "order=--title", "status=done", "platform=webex", "source=email"})
  void unusableParametersAre400NamingTheField(String query) {
    ApiServer.Response r = api.get("/api/v1/meetings?" + query, ALL);
    assertEquals(400, r.status(), r.body());
    assertEquals(query.substring(0, query.indexOf('=')), r.json().at("/error/field").asText());
    assertEquals("invalid_parameter", r.json().at("/error/code").asText());
  }

  @Test
  void firstValueOfARepeatedParameterWinsAndUnknownOnesAreIgnored() {
    assertEquals(List.of(M2), ApiServer.column(api.get("/api/v1/meetings?status=processing&status=nonsense&colour=blue", ALL).json(), "id"));
  }

  @Test
  void meetingHasEveryFieldWithNestedParticipantsAndCurrentMinutes() {
    JsonNode m = api.get("/api/v1/meetings/" + M1, ALL).json();
    assertEquals(List.of("id", "title", "platform", "source", "status", "starts_at", "ends_at", "join_url",
        "organizer_email", "created_at", "template_id", "language", "participants", "protocol"), ApiServer.fields(m));
    assertEquals("en", m.get("language").asText(), "detected from its English minutes and transcript");
    assertEquals(M1, m.get("id").asText());
    assertEquals("Quarterly planning with Müller", m.get("title").asText());
    assertEquals("https://zoom.example/j/123", m.get("join_url").asText());
    assertEquals("ann@acme.com", m.get("organizer_email").asText());
    assertEquals("2026-02-25T08:00:00Z", m.get("created_at").asText());
    assertEquals(36, m.get("template_id").asText().length());

    JsonNode people = m.get("participants");
    assertEquals(5, people.size());
    assertEquals(List.of("display_name", "email", "is_internal", "source", "approx_joined_at", "approx_left_at"),
        ApiServer.fields(people.get(0)));
    assertTrue(people.get(0).get("is_internal").asBoolean());
    assertFalse(people.get(1).get("is_internal").asBoolean(), "globex.com is a customer's domain");
    assertEquals("2026-03-02T09:33:00Z", people.get(1).get("approx_joined_at").asText());
    assertTrue(people.get(2).get("approx_joined_at").isNull(), "invited but absent");
    assertTrue(people.get(3).get("email").isNull());
    assertFalse(people.get(3).get("is_internal").asBoolean(), "no email, not internal");
    assertTrue(people.get(4).get("is_internal").asBoolean(), "acme.de is declared as ACME.de");
    assertEquals("manual", people.get(4).get("source").asText());

    JsonNode p = m.get("protocol");
    assertEquals(List.of("id", "tldr", "content_md", "generated_at", "edited_at", "action_items"), ApiServer.fields(p));
    assertEquals("2026-03-03T08:00:00Z", p.get("generated_at").asText(), "the most recent minutes");
    assertEquals("2026-03-03T09:15:00Z", p.get("edited_at").asText());
    assertTrue(p.get("content_md").asText().startsWith("# Quarterly planning"));
    JsonNode tasks = p.get("action_items");
    assertEquals(5, tasks.size());
    assertEquals(List.of("id", "task", "owner_name", "due", "verdict", "status"), ApiServer.fields(tasks.get(0)));
    assertEquals("Send the revised forecast to finance", tasks.get(0).get("task").asText(), "order of the minutes");
    assertTrue(tasks.get(2).get("owner_name").isNull());
    assertTrue(tasks.get(2).get("due").isNull());
    assertEquals("unclear_owner", tasks.get(2).get("verdict").asText());
  }

  @Test
  void meetingWithoutMinutesHasNullProtocolAndUploadHasNulls() {
    JsonNode m4 = api.get("/api/v1/meetings/" + M4, ALL).json();
    assertTrue(m4.get("protocol").isNull());
    JsonNode m5 = api.get("/api/v1/meetings/" + M5, ALL).json();
    assertEquals(0, m5.get("participants").size());
    JsonNode m3 = api.get("/api/v1/meetings/" + M3, ALL).json();
    for (String f : List.of("starts_at", "ends_at", "join_url", "organizer_email", "template_id")) {
      assertTrue(m3.get(f).isNull(), f);
    }
    assertTrue(m3.at("/protocol/tldr").isNull());
  }

  @Test
  void idsAreCaseInsensitive() {
    assertEquals(M1, api.get("/api/v1/meetings/" + M1.toUpperCase(), ALL).json().get("id").asText());
  }

  @Test
  void invisibleMissingAndMalformedMeetingsAre404() {
    for (String path : List.of("/api/v1/meetings/" + O1, "/api/v1/meetings/00000000-0000-0000-0000-000000000000",
        "/api/v1/meetings/not-a-uuid", "/api/v1/meetings/" + O1 + "/participants", "/api/v1/meetings/x/participants")) {
      ApiServer.Response r = api.get(path, ALL);
      assertEquals(404, r.status(), path);
      assertEquals("not_found", r.json().at("/error/code").asText());
    }
    assertEquals(404, api.get("/api/v1/meetings/" + M2, ANN).status(), "ann does not see bob's meeting");
    assertEquals(200, api.get("/api/v1/meetings/" + M2, BOB).status());
    assertEquals(404, api.get("/api/v1/meetings/" + M1, OTHER).status());
  }

  @Test
  void participantsCarryDomainAndAttendance() {
    JsonNode body = api.get("/api/v1/meetings/" + M1 + "/participants", ALL).json();
    assertEquals(List.of("meeting_id", "data"), ApiServer.fields(body));
    assertEquals(M1, body.get("meeting_id").asText());
    JsonNode rows = body.get("data");
    assertEquals(5, rows.size());
    assertEquals(List.of("display_name", "email", "is_internal", "source", "approx_joined_at", "approx_left_at",
        "domain", "attended"), ApiServer.fields(rows.get(0)));
    assertEquals("globex.com", rows.get(1).get("domain").asText(), "lower-cased");
    assertEquals("Hans@Globex.com", rows.get(1).get("email").asText(), "as given");
    assertFalse(rows.get(2).get("attended").asBoolean());
    assertTrue(rows.get(1).get("attended").asBoolean());
    assertTrue(rows.get(3).get("domain").isNull());
    JsonNode empty = api.get("/api/v1/meetings/" + M5 + "/participants", ALL).json();
    assertEquals(0, empty.get("data").size());
  }

}
