package minutes.transcripts;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.ApiServer.MEETINGS;
import static minutes.ApiServer.TRANSCRIPTS;
import static minutes.Fixtures.O1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** GET /meetings/{id}/transcript/search over src/test/resources/transcripts.ndjson. */
class TranscriptSearchApiTest {
  @RegisterExtension static final ApiServer api = new ApiServer("/transcripts.ndjson");

  /** "Design review": seven segments, visible to ann only. */
  static final String REVIEW = "7a1c43e0-5b7e-4d4c-9a55-1f0f7f6f2a01";

  private static ApiServer.Response search(String q, String extra, String key) {
    return api.get("/api/v1/meetings/" + REVIEW + "/transcript/search?q=" + URLEncoder.encode(q, StandardCharsets.UTF_8)
        + extra, key);
  }

  private static List<Integer> indexes(String q) {
    ApiServer.Response r = search(q, "", ALL);
    assertEquals(200, r.status(), r.body());
    return ApiServer.column(r.json(), "index").stream().map(Integer::valueOf).toList();
  }

  @Test
  void matchingSegmentsComeInTimeOrderWithEveryField() {
    JsonNode body = search("budget", "", ALL).json();
    assertEquals(List.of("meeting_id", "query", "data"), ApiServer.fields(body));
    assertEquals(REVIEW, body.get("meeting_id").asText());
    assertEquals("budget", body.get("query").asText());
    JsonNode data = body.get("data");
    assertEquals(4, data.size());
    JsonNode first = data.get(0);
    assertEquals(List.of("index", "speaker_name", "start_ms", "end_ms", "snippet"), ApiServer.fields(first));
    assertEquals(0, first.get("index").asInt());
    assertEquals("Ann Example", first.get("speaker_name").asText());
    assertEquals(0, first.get("start_ms").asLong());
    assertEquals(5000, first.get("end_ms").asLong());
    assertEquals("Let&#39;s talk about the <mark>budget</mark> first.", first.get("snippet").asText());
    JsonNode plural = data.get(1);
    assertEquals(2, plural.get("index").asInt());
    assertEquals(9000, plural.get("start_ms").asLong());
    assertTrue(plural.get("end_ms").isNull());
    assertEquals("<mark>Budgets</mark> are tight &lt;b&gt;this&lt;/b&gt; year &amp; next.", plural.get("snippet").asText());
    assertEquals(List.of(0, 2, 3, 4), indexes("budget"));
  }

  @Test
  void wordsAreAndedWithinOneSegmentAndQuotesMakeAPhrase() {
    assertEquals(List.of(3, 4), indexes("budget review"));
    assertEquals(List.of(3, 4), indexes("REVIEW budgets"));
    assertEquals(List.of(3), indexes("\"budget review\""));
    assertEquals("The <mark>budget review</mark> is next week.", search("\"budget review\"", "", ALL).json()
        .at("/data/0/snippet").asText());
    // "talk" is in segment 0 and "review" in 3 and 4: no single segment holds both.
    assertEquals(List.of(), indexes("talk review"));
  }

  @Test
  void caseAccentsAndUmlautSpellingsFold() {
    assertEquals(List.of(1), indexes("muller"));
    assertEquals("Der <mark>Müller</mark>-Bericht: <mark>Mueller</mark> sagt, die Größe passt.",
        search("MÜLLER", "", ALL).json().at("/data/0/snippet").asText());
    assertEquals(List.of(1), indexes("groesse"));
    assertEquals(List.of(6), indexes("resume CAFE"));
  }

  @Test
  void aLongSegmentShowsTheWindowAroundItsMatch() {
    String snippet = search("forecast", "", ALL).json().at("/data/0/snippet").asText();
    assertTrue(snippet.startsWith("\u2026") && snippet.endsWith("\u2026"), snippet);
    assertTrue(snippet.contains("sales <mark>forecast</mark> stays"), snippet);
    int visible = snippet.replace("<mark>", "").replace("</mark>", "").length();
    assertTrue(visible <= 240, visible + ": " + snippet);
  }

  @Test
  void queryIsTrimmedAndTextWithoutWordsFindsNothing() {
    assertEquals("Budget", search("  Budget  ", "", ALL).json().get("query").asText());
    JsonNode none = search("?!", "", ALL).json();
    assertEquals("?!", none.get("query").asText());
    assertEquals(0, none.get("data").size());
  }

  @Test
  void limitBoundsTheMatchesAndIsClamped() {
    assertEquals(2, search("budget", "&limit=2", ALL).json().get("data").size());
    assertEquals(1, search("budget", "&limit=0", ALL).json().get("data").size());
    assertEquals(4, search("budget", "&limit=100000", ALL).json().get("data").size());
    ApiServer.Response bad = search("budget", "&limit=two", ALL);
    assertEquals(400, bad.status());
    assertEquals("limit", bad.json().at("/error/field").asText());
  }

  @Test
  void unusableQIs400NamingIt() {
    for (String q : new String[] {"", " a ", "é", "x".repeat(501)}) {
      ApiServer.Response r = search(q, "", ALL);
      assertEquals(400, r.status(), q);
      assertEquals("q", r.json().at("/error/field").asText(), q);
    }
    ApiServer.Response missing = api.get("/api/v1/meetings/" + REVIEW + "/transcript/search", ALL);
    assertEquals(400, missing.status());
    assertEquals("q", missing.json().at("/error/field").asText());
  }

  @Test
  void aMeetingTheKeyCannotSeeIs404AfterParameters() {
    assertEquals(200, search("budget", "", ANN).status());
    assertEquals(404, search("budget", "", BOB).status());
    assertEquals(404, api.get("/api/v1/meetings/" + O1 + "/transcript/search?q=budget", ALL).status());
    assertEquals(404, api.get("/api/v1/meetings/not-a-uuid/transcript/search?q=budget", ALL).status());
    assertEquals(400, api.get("/api/v1/meetings/" + O1 + "/transcript/search?q=x", ALL).status());
  }

  @Test
  void needsTheTranscriptsScope() {
    ApiServer.Response r = search("budget", "", MEETINGS);
    assertEquals(403, r.status());
    assertTrue(r.header("WWW-Authenticate").contains("scope=\"transcripts:read\""));
    assertEquals(200, search("budget", "", TRANSCRIPTS).status());
    assertEquals(401, search("budget", "", null).status());
  }
}
