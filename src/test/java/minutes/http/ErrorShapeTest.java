package minutes.http;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.MEETINGS;
import static minutes.ApiServer.TASKS;
import static minutes.ApiServer.TRANSCRIPTS;
import static minutes.Fixtures.M1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The error body, content type and headers of every error code, and the order of checks. */
class ErrorShapeTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

  /** Every endpoint with the scope it needs. */
  static final Map<String, String> ENDPOINTS = Map.of(
      "/api/v1/meetings", "meetings:read",
      "/api/v1/meetings/" + M1, "meetings:read",
      "/api/v1/meetings/" + M1 + "/participants", "meetings:read",
      "/api/v1/customers", "meetings:read",
      "/api/v1/changes", "meetings:read",
      "/api/v1/meetings/" + M1 + "/action-items", "action_items:read",
      "/api/v1/action-items", "action_items:read",
      "/api/v1/meetings/" + M1 + "/transcript", "transcripts:read",
      "/api/v1/search?q=budget", "meetings:read");

  static void assertErrorShape(ApiServer.Response r, int status, String code) {
    assertEquals(status, r.status(), r.body());
    assertEquals("application/json; charset=utf-8", r.header("Content-Type"));
    JsonNode e = r.json().get("error");
    assertEquals(List.of("error"), ApiServer.fields(r.json()));
    assertEquals(List.of("status", "code", "field", "message"), ApiServer.fields(e));
    assertEquals(status, e.get("status").asInt());
    assertEquals(code, e.get("code").asText());
    assertFalse(e.get("message").asText().isBlank());
    assertFalse(r.body().contains("Exception") || r.body().contains("SELECT") || r.body().contains("/work/"),
        "no trace, SQL or path: " + r.body());
  }

  @Test
  void missingKeyIs401WithBearerChallengeOnEveryEndpoint() {
    for (String path : ENDPOINTS.keySet()) {
      ApiServer.Response r = api.get(path, null);
      assertErrorShape(r, 401, "unauthorized");
      assertEquals("Bearer", r.header("WWW-Authenticate"));
      assertTrue(r.json().at("/error/field").isNull());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"Bearer", "Bearer ", "Token abc", "Basic YWxhZGRpbjpvcGVuc2VzYW1l",
      "Bearer mk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "Bearer short"})
  void malformedOrUnknownKeysAre401(String header) {
    assertErrorShape(api.send("GET", "/api/v1/meetings", Map.of("Authorization", header)), 401, "unauthorized");
  }

  @Test
  void schemeIsCaseInsensitiveButNeedsTheSpace() {
    String key = api.key(ALL);
    assertEquals(200, api.send("GET", "/api/v1/meetings", Map.of("Authorization", "bearer " + key)).status());
    assertEquals(200, api.send("GET", "/api/v1/meetings", Map.of("Authorization", "BEARER " + key)).status());
    assertErrorShape(api.send("GET", "/api/v1/meetings", Map.of("Authorization", "Bearer" + key)), 401, "unauthorized");
  }

  @Test
  void keyInQueryStringNeverAuthenticates() {
    assertErrorShape(api.send("GET", "/api/v1/meetings?access_token=" + api.key(ALL) + "&key=" + api.key(ALL),
        Map.of()), 401, "unauthorized");
  }

  @Test
  void revokedKeyIs401() {
    assertErrorShape(api.get("/api/v1/meetings", ApiServer.REVOKED), 401, "unauthorized");
  }

  @Test
  void eachEndpointWithoutItsScopeIs403NamingTheScope() {
    Map<String, String> keyForScope = Map.of("meetings:read", MEETINGS, "action_items:read", TASKS,
        "transcripts:read", TRANSCRIPTS);
    ENDPOINTS.forEach((path, scope) -> {
      for (var k : keyForScope.entrySet()) {
        ApiServer.Response r = api.get(path, k.getValue());
        if (k.getKey().equals(scope)) {
          assertEquals(200, r.status(), path + " with " + scope);
        } else {
          assertErrorShape(r, 403, "forbidden");
          assertEquals("Bearer error=\"insufficient_scope\", scope=\"" + scope + "\"", r.header("WWW-Authenticate"));
        }
      }
    });
  }

  @Test
  void scopeIsCheckedBeforeParametersAndExistence() {
    assertErrorShape(api.get("/api/v1/meetings/00000000-0000-0000-0000-000000000000", TASKS), 403, "forbidden");
    assertErrorShape(api.get("/api/v1/action-items?limit=abc", MEETINGS), 403, "forbidden");
    assertErrorShape(api.get("/api/v1/action-items?limit=abc", null), 401, "unauthorized");
  }

  @Test
  void badParameterIs400NamingFieldAndShape() {
    ApiServer.Response r = api.get("/api/v1/action-items?due_from=tomorrow", ALL);
    assertErrorShape(r, 400, "invalid_parameter");
    assertEquals("due_from", r.json().at("/error/field").asText());
    assertTrue(r.json().at("/error/message").asText().contains("YYYY-MM-DD"));
  }

  @Test
  void unknownPathIsJson404() {
    for (String path : List.of("/", "/api/v1", "/api/v2/meetings", "/api/v1/meetings/" + M1 + "/nothing", "/favicon.ico")) {
      ApiServer.Response r = api.get(path, ALL);
      assertErrorShape(r, 404, "not_found");
      assertTrue(r.json().at("/error/field").isNull());
    }
  }

  @Test
  void otherMethodsAre405WithAllow() {
    for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS")) {
      for (String path : List.of("/api/v1/meetings", "/api/v1/meetings/" + M1, "/healthz")) {
        ApiServer.Response r = api.send(method, path, Map.of("Authorization", "Bearer " + api.key(ALL)));
        assertErrorShape(r, 405, "method_not_allowed");
        assertEquals("GET, HEAD", r.header("Allow"));
      }
    }
  }

  @Test
  void everyAnswerSaysNosniff() {
    assertEquals("nosniff", api.get("/api/v1/meetings", ALL).header("X-Content-Type-Options"));
    assertEquals("nosniff", api.get("/nowhere", null).header("X-Content-Type-Options"));
  }

  @Test
  void healthNeedsNoKey() {
    ApiServer.Response r = api.get("/healthz", null);
    assertEquals(200, r.status());
    assertEquals("ok", r.json().get("status").asText());
  }
}
