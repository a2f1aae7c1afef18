package minutes.customers;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.ApiServer.OTHER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class CustomersApiTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  /** For the one test that imports. */
  @RegisterExtension static final ApiServer changed = new ApiServer();
  @RegisterExtension static final ApiServer met = new ApiServer();


  @Test
  void workspaceKeyListsEveryCompanyByLastMeetingThenName() {
    JsonNode body = api.get("/api/v1/customers", ALL).json();
    assertEquals(List.of("data"), List.copyOf(ApiServer.fields(body)));
    // Initech: M1 (invited, absent, still a participant) and M2 (03-05); Globex: M1 (03-02); Hooli: none.
    assertEquals(List.of("Initech", "Globex", "Hooli"), ApiServer.column(body, "name"));
    JsonNode initech = body.get("data").get(0);
    assertEquals(List.of("id", "name", "domains", "meeting_count", "last_meeting_at"), ApiServer.fields(initech));
    assertEquals(List.of("initech.com", "initech.de"), strings(initech.get("domains")));
    assertEquals(2, initech.get("meeting_count").asInt());
    assertEquals("2026-03-05T13:00:00Z", initech.get("last_meeting_at").asText());
    JsonNode globex = body.get("data").get(1);
    assertEquals(1, globex.get("meeting_count").asInt(), "Hans@Globex.com counts, case-insensitively");
    assertEquals("2026-03-02T09:30:00Z", globex.get("last_meeting_at").asText());
    JsonNode hooli = body.get("data").get(2);
    assertEquals(0, hooli.get("meeting_count").asInt());
    assertTrue(hooli.get("last_meeting_at").isNull());
  }

  @Test
  void personalKeySeesOnlyCompaniesOfItsMeetingsCountedOverThem() {
    JsonNode ann = api.get("/api/v1/customers", ANN).json();
    assertEquals(List.of("Globex", "Initech"), ApiServer.column(ann, "name"), "same last meeting: by name");
    assertEquals(1, ann.get("data").get(0).get("meeting_count").asInt());
    assertEquals("2026-03-02T09:30:00Z", ann.get("data").get(0).get("last_meeting_at").asText());
    JsonNode bob = api.get("/api/v1/customers", BOB).json();
    assertEquals(List.of("Initech"), ApiServer.column(bob, "name"));
  }

  @Test
  void otherWorkspaceSeesOnlyItsOwnCompanies() {
    JsonNode other = api.get("/api/v1/customers", OTHER).json();
    assertEquals(List.of("Globex (other)"), ApiServer.column(other, "name"));
    assertEquals(1, other.get("data").get(0).get("meeting_count").asInt(), "its own meeting only");
  }


  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(s -> out.add(s.asText()));
    return out;
  }

  /** The companies are held between requests: an import that changes only companies must show at once. */
  @Test
  void anImportThatChangesOnlyCompaniesIsAnsweredAtOnce() {
    assertEquals(List.of("Initech", "Globex", "Hooli"), ApiServer.column(changed.get("/api/v1/customers", ALL).json(), "name"));
    minutes.CliRun imported = changed.cli("import", minutes.TestLines.file(changed.dir(),
        "{\"kind\": \"company\", \"workspace\": \"acme\", \"id\": \"dc8e729f-e45b-5870-8678-3459f9a4b851\","
            + " \"name\": \"Hooli Labs\", \"domains\": [\"hooli.com\", \"hooli.io\"]}",
        minutes.TestLines.delete("company", "acme", "4188aef9-9e54-5b3a-8518-e07eaed9a0e4")).toString());
    assertEquals(0, imported.code(), imported.err());
    JsonNode body = changed.get("/api/v1/customers", ALL).json();
    assertEquals(List.of("Initech", "Hooli Labs"), ApiServer.column(body, "name"));
    assertEquals(List.of("hooli.com", "hooli.io"), strings(body.get("data").get(1).get("domains")));
  }

  /**
   * Answers are kept by data version and viewer: a meeting imported while serving is counted in
   * the next answer, and a key that does not see it never gets the answer of one that does.
   */
  @Test
  void aMeetingImportIsCountedAtOnceAndEachKeyGetsItsOwnAnswer() {
    assertEquals(0, hooli(met.get("/api/v1/customers", ALL).json()).get("meeting_count").asInt());
    minutes.CliRun imported = met.cli("import", minutes.TestLines.file(met.dir(), minutes.TestLines.meeting("acme",
        java.util.UUID.randomUUID().toString(), "hooli", List.of("ann@acme.com"), "guest@hooli.com")).toString());
    assertEquals(0, imported.code(), imported.err());

    JsonNode all = met.get("/api/v1/customers", ALL).json();
    assertEquals(List.of("Hooli", "Initech", "Globex"), ApiServer.column(all, "name"), "latest meeting first");
    assertEquals(1, hooli(all).get("meeting_count").asInt());
    assertEquals("2026-05-01T09:00:00Z", hooli(all).get("last_meeting_at").asText());
    assertEquals(1, hooli(met.get("/api/v1/customers", ANN).json()).get("meeting_count").asInt());
    assertTrue(!ApiServer.column(met.get("/api/v1/customers", BOB).json(), "name").contains("Hooli"),
        "Bob does not see the meeting");
  }

  private static JsonNode hooli(JsonNode body) {
    for (JsonNode company : body.get("data")) if (company.get("name").asText().equals("Hooli")) return company;
    throw new AssertionError("no Hooli in " + body);
  }
}
