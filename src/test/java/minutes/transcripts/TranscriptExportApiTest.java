package minutes.transcripts;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.ApiServer.MEETINGS;
import static minutes.ApiServer.TRANSCRIPTS;
import static minutes.Fixtures.M1;
import static minutes.Fixtures.M3;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * GET /meetings/{id}/transcript?format=vtt|srt: the same page as the JSON answer, as a WebVTT or
 * SubRip file, under the same scope, visibility and window parameters; errors stay JSON.
 */
class TranscriptExportApiTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

  // M1's segments in time order: Ann 0-4200, a dial-in without end at 4300, Hans 9000-15000 with markup.
  private static final String M1_VTT = """
      WEBVTT

      00:00:00.000 --> 00:00:04.200
      <v Ann Example>Welcome everyone, let us start with the budget.

      00:00:04.300 --> 00:00:09.000
      <v Dial-in User>Sorry, can you hear me?

      00:00:09.000 --> 00:00:15.000
      <v Hans Müller>I will send the revised forecast &lt;script&gt;alert(1)&lt;/script&gt; tomorrow.
      """;

  private static final String M1_SRT = """
      1
      00:00:00,000 --> 00:00:04,200
      Ann Example: Welcome everyone, let us start with the budget.

      2
      00:00:04,300 --> 00:00:09,000
      Dial-in User: Sorry, can you hear me?

      3
      00:00:09,000 --> 00:00:15,000
      Hans Müller: I will send the revised forecast <script>alert(1)</script> tomorrow.
      """;

  @Test
  void vttIsACuePerSegmentWithTheSpeakerInAVoiceSpan() {
    ApiServer.Response r = api.get("/api/v1/meetings/" + M1 + "/transcript?format=vtt", TRANSCRIPTS);
    assertEquals(200, r.status());
    assertEquals("text/vtt; charset=utf-8", r.header("Content-Type"));
    assertEquals(M1_VTT, r.body(), "a segment without end ends where the next starts; markup is escaped");
  }

  @Test
  void srtIsNumberedCuesWithTheSpeakerAsAPrefix() {
    ApiServer.Response r = api.get("/api/v1/meetings/" + M1 + "/transcript?format=srt", TRANSCRIPTS);
    assertEquals(200, r.status());
    assertEquals("application/x-subrip; charset=utf-8", r.header("Content-Type"));
    assertEquals(M1_SRT, r.body());
  }

  @Test
  void jsonIsTheDefaultAndByteForByteTheAnswerWithoutFormat() {
    ApiServer.Response plain = api.get("/api/v1/meetings/" + M1 + "/transcript", ALL);
    ApiServer.Response json = api.get("/api/v1/meetings/" + M1 + "/transcript?format=json", ALL);
    assertEquals("application/json; charset=utf-8", json.header("Content-Type"));
    assertEquals(plain.body(), json.body());
    assertEquals(plain.header("ETag"), json.header("ETag"));
  }

  @Test
  void windowAndPageParametersChooseTheCues() {
    assertEquals("""
        WEBVTT

        00:00:04.300 --> 00:00:04.301
        <v Dial-in User>Sorry, can you hear me?
        """, api.get("/api/v1/meetings/" + M1 + "/transcript?format=vtt&from_ms=4300&to_ms=5000", ALL).body(),
        "without the next segment in the answer, a segment without end ends 1 ms after its start");
    assertEquals("""
        1
        00:00:09,000 --> 00:00:15,000
        Hans Müller: I will send the revised forecast <script>alert(1)</script> tomorrow.
        """, api.get("/api/v1/meetings/" + M1 + "/transcript?format=srt&offset=2&limit=1", ALL).body());
    assertEquals("WEBVTT\n", api.get("/api/v1/meetings/" + M3 + "/transcript?format=vtt", ALL).body(),
        "a visible meeting without transcript");
    assertEquals("", api.get("/api/v1/meetings/" + M3 + "/transcript?format=srt", ALL).body());
  }

  @Test
  void scopeVisibilityAndBadParametersAnswerJsonErrors() {
    for (String format : new String[] {"vtt", "srt"}) {
      String path = "/api/v1/meetings/" + M1 + "/transcript?format=" + format;
      assertJsonError(api.get(path, MEETINGS), 403, "forbidden");
      assertJsonError(api.get(path, BOB), 404, "not_found");
      assertEquals(200, api.get(path, ANN).status());
      assertJsonError(api.get(path + "&to_ms=-1", ALL), 400, "invalid_parameter");
      assertJsonError(api.get("/api/v1/meetings/" + M1 + "/transcript?format=" + format.toUpperCase(), ALL), 400,
          "invalid_parameter");
    }
    ApiServer.Response unknown = api.get("/api/v1/meetings/" + M1 + "/transcript?format=docx", ALL);
    assertJsonError(unknown, 400, "invalid_parameter");
    assertEquals("format", unknown.json().at("/error/field").asText());
    assertEquals("format must be one of json, vtt, srt", unknown.json().at("/error/message").asText());
  }

  @Test
  void headAndConditionalRequestsWorkAsForJson() {
    String path = "/api/v1/meetings/" + M1 + "/transcript?format=vtt";
    String auth = "Bearer " + api.key(ALL);
    ApiServer.Response head = api.send("HEAD", path, Map.of("Authorization", auth));
    assertEquals(200, head.status());
    assertEquals("text/vtt; charset=utf-8", head.header("Content-Type"));
    assertEquals("", head.body());
    String etag = api.get(path, ALL).header("ETag");
    ApiServer.Response again = api.send("GET", path, Map.of("Authorization", auth, "If-None-Match", etag));
    assertEquals(304, again.status());
    assertEquals("text/vtt; charset=utf-8", again.header("Content-Type"));
    assertEquals("", again.body());
  }

  private static void assertJsonError(ApiServer.Response r, int status, String code) {
    assertEquals(status, r.status(), r.body());
    assertEquals("application/json; charset=utf-8", r.header("Content-Type"));
    assertEquals(code, r.json().at("/error/code").asText());
  }
}
