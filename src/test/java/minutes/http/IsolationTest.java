package minutes.http;

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

import java.util.List;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** No key ever sees a row of another workspace, nor (personal keys) of a meeting its user does not see. */
class IsolationTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

  private static final List<String> ALL_IDS = List.of(M1, M2, M3, M4, M5, O1);

  /** Everything each key may ask for: every list, and every meeting id on every per-meeting endpoint. */
  private static List<String> paths() {
    List<String> paths = new java.util.ArrayList<>(List.of("/api/v1/meetings?limit=200", "/api/v1/action-items?limit=200",
        "/api/v1/customers"));
    for (String id : ALL_IDS) {
      for (String suffix : List.of("", "/participants", "/action-items", "/transcript")) paths.add("/api/v1/meetings/" + id + suffix);
      paths.add("/api/v1/action-items?meeting_id=" + id);
    }
    return paths;
  }

  /** The meetings each key sees (fixtures' visible_to; workspace keys see their whole workspace). */
  private static final java.util.Map<String, List<String>> VISIBLE = java.util.Map.of(ApiServer.ALL,
      List.of(M1, M2, M3, M4, M5), ANN, List.of(M1, M3), BOB, List.of(M2, M3, M5), OTHER, List.of(O1));

  /**
   * Lists (and the per-meeting task list, which never says 404) answer 200; a meeting, its
   * participants and its transcript answer 200 when the key sees the meeting, else 404.
   */
  private static int expectedStatus(String key, String path) {
    for (String id : ALL_IDS) {
      for (String suffix : List.of("", "/participants", "/transcript")) {
        if (path.equals("/api/v1/meetings/" + id + suffix)) return VISIBLE.get(key).contains(id) ? 200 : 404;
      }
    }
    return 200;
  }

  private static void assertSeesNothingOf(String key, List<String> invisibleIds, List<String> invisibleWords) {
    for (String path : paths()) {
      ApiServer.Response r = api.get(path, key);
      // A leak check over error answers would prove nothing: each path must answer as expected.
      assertEquals(expectedStatus(key, path), r.status(), key + " via " + path + ": " + r.body());
      String body = r.body();
      for (String id : invisibleIds) {
        // The per-meeting task list echoes the requested id; any other mention is a leak.
        String echoed = "\"meeting_id\":\"" + id + "\",\"data\":[]";
        String rest = body.replace(echoed, "");
        assertFalse(rest.contains(id), key + " sees " + id + " via " + path + ": " + body);
      }
      for (String word : invisibleWords) assertFalse(body.contains(word), key + " sees '" + word + "' via " + path);
    }
  }

  @Test
  void anotherWorkspaceSeesNoRowOfAcme() {
    assertSeesNothingOf(OTHER, List.of(M1, M2, M3, M4, M5), List.of("Quarterly", "Initech", "Hooli", "forecast to finance"));
  }

  @Test
  void acmeKeysSeeNoRowOfTheOtherWorkspace() {
    for (String key : List.of(ApiServer.ALL, ANN, BOB)) {
      assertSeesNothingOf(key, List.of(O1), List.of("Secret", "Globex (other)", "carl@other.test"));
    }
  }

  @Test
  void personalKeysSeeOnlyTheirUsersMeetings() {
    assertSeesNothingOf(ANN, List.of(M2, M4, M5), List.of("Weekly sync", "Share the API credentials", "No bot joined"));
    assertSeesNothingOf(BOB, List.of(M1, M4), List.of("Quarterly", "offsite venue", "Kickoff"));
  }

  @Test
  void personalKeyAnswersHaveTheWorkspaceKeyShapes() {
    for (String path : List.of("/api/v1/meetings", "/api/v1/action-items", "/api/v1/customers", "/api/v1/meetings/" + M3,
        "/api/v1/meetings/" + M3 + "/participants", "/api/v1/meetings/" + M3 + "/action-items")) {
      var ws = api.get(path, ApiServer.ALL).json();
      var personal = api.get(path, ANN).json();
      assertEquals(ApiServer.fields(ws), ApiServer.fields(personal), path);
      if (ws.has("data")) {
        assertEquals(ApiServer.fields(ws.get("data").get(0)), ApiServer.fields(personal.get("data").get(0)), path);
      }
    }
  }
}
