package minutes.transcripts;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.Fixtures.M1;
import static minutes.Fixtures.M3;
import static minutes.Fixtures.O1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TranscriptApiTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

  @Test
  void segmentsComeInTimeOrderWithEveryField() {
    JsonNode body = api.get("/api/v1/meetings/" + M1 + "/transcript", ALL).json();
    assertEquals(List.of("meeting_id", "data", "pagination"), ApiServer.fields(body));
    assertEquals(M1, body.get("meeting_id").asText());
    JsonNode data = body.get("data");
    assertEquals(3, data.size());
    assertEquals(List.of("index", "speaker_name", "speaker_email", "start_ms", "end_ms", "text"), ApiServer.fields(data.get(0)));
    // The file lists the 9000 ms segment before the 4300 ms one: the answer is in time order.
    assertEquals(List.of(0L, 4300L, 9000L), List.of(data.get(0).get("start_ms").asLong(),
        data.get(1).get("start_ms").asLong(), data.get(2).get("start_ms").asLong()));
    assertEquals(1, data.get(1).get("index").asInt());
    assertTrue(data.get(1).get("speaker_email").isNull());
    assertTrue(data.get(1).get("end_ms").isNull());
    assertEquals(4200, data.get(0).get("end_ms").asLong());
    assertEquals("I will send the revised forecast <script>alert(1)</script> tomorrow.", data.get(2).get("text").asText());
    assertEquals(1000, body.at("/pagination/limit").asInt());
    assertEquals(3, body.at("/pagination/total").asInt());
  }

  @Test
  void indexIsThePositionInTheWholeTranscript() {
    JsonNode body = api.get("/api/v1/meetings/" + M1 + "/transcript?limit=1&offset=2", ALL).json();
    assertEquals(1, body.get("data").size());
    assertEquals(2, body.get("data").get(0).get("index").asInt());
    assertEquals(1, body.at("/pagination/limit").asInt());
    assertEquals(2, body.at("/pagination/offset").asInt());
    assertEquals(3, body.at("/pagination/total").asInt());
    assertEquals(5000, api.get("/api/v1/meetings/" + M1 + "/transcript?limit=99999", ALL).json()
        .at("/pagination/limit").asInt());
  }

  @Test
  void visibleMeetingWithoutTranscriptIsEmptyInvisibleIs404() {
    JsonNode empty = api.get("/api/v1/meetings/" + M3 + "/transcript", ALL).json();
    assertEquals(0, empty.get("data").size());
    assertEquals(0, empty.at("/pagination/total").asInt());
    assertEquals(404, api.get("/api/v1/meetings/" + O1 + "/transcript", ALL).status());
    assertEquals(404, api.get("/api/v1/meetings/nope/transcript", ALL).status());
    assertEquals(404, api.get("/api/v1/meetings/" + M1 + "/transcript", BOB).status());
    assertEquals(200, api.get("/api/v1/meetings/" + M1 + "/transcript", ANN).status());
  }

  @Test
  void badLimitIs400() {
    ApiServer.Response r = api.get("/api/v1/meetings/" + M1 + "/transcript?limit=lots", ALL);
    assertEquals(400, r.status());
    assertEquals("limit", r.json().at("/error/field").asText());
  }


  private List<Integer> indexes(String query) {
    ApiServer.Response r = api.get("/api/v1/meetings/" + M1 + "/transcript" + query, ALL);
    assertEquals(200, r.status(), r.body());
    return ApiServer.column(r.json(), "index").stream().map(Integer::valueOf).toList();
  }

  @Test
  void windowKeepsSegmentsOverlappingItWithTheirWholeTranscriptIndex() {
    // M1: [0, 4200) index 0, 4300 without end index 1, [9000, 15000) index 2.
    assertEquals(List.of(1, 2), indexes("?from_ms=4200"), "a segment ending at from_ms is outside");
    assertEquals(List.of(0), indexes("?to_ms=4300"), "to_ms is exclusive");
    assertEquals(List.of(1), indexes("?from_ms=4300&to_ms=4301"), "a segment without end is an instant");
    assertEquals(List.of(), indexes("?from_ms=4301&to_ms=9000"));
    assertEquals(List.of(2), indexes("?from_ms=10000&to_ms=12000"), "a segment covering the whole window");
    assertEquals(List.of(0, 1, 2), indexes("?from_ms=0&to_ms=99999999999"));
  }

  @Test
  void windowTotalCountsTheWindowAndPagesWithinIt() {
    JsonNode body = api.get("/api/v1/meetings/" + M1 + "/transcript?from_ms=4300&limit=1&offset=1", ALL).json();
    assertEquals(1, body.get("data").size());
    assertEquals(2, body.get("data").get(0).get("index").asInt());
    assertEquals(2, body.at("/pagination/total").asInt());
    body = api.get("/api/v1/meetings/" + M1 + "/transcript?from_ms=4000&limit=1&offset=1", ALL).json();
    assertEquals(1, body.get("data").get(0).get("index").asInt(), "[0, 4200) overlaps from 4000 on");
    assertEquals(3, body.at("/pagination/total").asInt());
    JsonNode narrow = api.get("/api/v1/meetings/" + M1 + "/transcript?from_ms=5000", ALL).json();
    assertEquals(1, narrow.at("/pagination/total").asInt(), "the segment without end at 4300 is before 5000");
    assertEquals(1000, narrow.at("/pagination/limit").asInt());
    assertEquals(0, narrow.at("/pagination/offset").asInt());
  }

  @Test
  void unusableWindowValuesAre400NamingThem() {
    for (String[] bad : new String[][] {{"from_ms=-1", "from_ms"}, {"from_ms=1.5", "from_ms"}, {"to_ms=abc", "to_ms"},
        {"to_ms=", "to_ms"}, {"from_ms=99999999999999999999", "from_ms"}, {"from_ms=500&to_ms=500", "to_ms"},
        {"from_ms=600&to_ms=500", "to_ms"}}) {
      ApiServer.Response r = api.get("/api/v1/meetings/" + M1 + "/transcript?" + bad[0], ALL);
      assertEquals(400, r.status(), bad[0]);
      assertEquals(bad[1], r.json().at("/error/field").asText(), bad[0]);
      assertEquals("invalid_parameter", r.json().at("/error/code").asText(), bad[0]);
    }
    // Parameters are checked before existence (decisions.md, order of checks).
    assertEquals(400, api.get("/api/v1/meetings/" + O1 + "/transcript?from_ms=x", ALL).status());
    assertEquals(404, api.get("/api/v1/meetings/" + O1 + "/transcript?from_ms=1", ALL).status());
  }
}
