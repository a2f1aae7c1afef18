package minutes.changes;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.BOB;
import static minutes.ApiServer.TASKS;
import static minutes.TestLines.delete;
import static minutes.TestLines.meeting;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import minutes.ApiServer;
import minutes.CliRun;
import minutes.StoreIndependent;
import minutes.TestLines;
import minutes.store.Sql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * GET /api/v1/changes/stream (decisions.md "Push") on the real server, on the run's store: every
 * change once, as events of the feed's rows, across reconnects with Last-Event-ID; visibility as
 * /changes; a comment line while idle; a bad cursor 400 before the stream, an expired one a
 * cursor_expired event, then the end.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ChangeStreamTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final HttpClient http = HttpClient.newHttpClient();

  /** One event as the stream sent it; a comment line is an event with {@code comment} set. */
  record Event(String id, String event, String data, boolean comment) {}

  /** An open stream: its lines are read on a thread of their own into events, which the test takes with a time limit. */
  static final class Open implements AutoCloseable {
    final HttpResponse<Stream<String>> response;
    final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
    static final Object END = new Object();

    Open(String query, String key, Map<String, String> headers) throws Exception {
      HttpRequest.Builder b = HttpRequest.newBuilder(api.uri("/api/v1/changes/stream" + query))
          .header("Authorization", "Bearer " + api.key(key));
      headers.forEach(b::header);
      response = http.send(b.build(), HttpResponse.BodyHandlers.ofLines());
      Thread.ofVirtual().start(() -> {
        String id = null, event = null, data = null;
        try {
          for (Iterator<String> lines = response.body().iterator(); lines.hasNext(); ) {
            String line = lines.next();
            if (line.startsWith(":")) {
              events.add(new Event(null, null, null, true));
            } else if (line.isEmpty()) {
              if (data != null) events.add(new Event(id, event, data, false));
              id = event = data = null;
            } else if (line.startsWith("id:")) {
              id = line.substring(3).strip();
            } else if (line.startsWith("event:")) {
              event = line.substring(6).strip();
            } else if (line.startsWith("data:")) {
              data = line.substring(5).strip();
            }
          }
        } catch (UncheckedIOException closed) {
          // the test closed it
        } finally {
          events.add(END);
        }
      });
    }

    /** The next event (not a comment), or null when the stream ended. */
    Event next() throws InterruptedException {
      while (true) {
        Object e = events.poll(20, TimeUnit.SECONDS);
        assertNotNull(e, "no event within 20 s");
        if (e == END) return null;
        if (!((Event) e).comment()) return (Event) e;
      }
    }

    @Override
    public void close() {
      response.body().close();
    }
  }

  @Test
  void everyChangeComesOnceAcrossAReconnectWithLastEventId() throws Exception {
    String start = api.cursor(ALL);
    String a = new UUID(48, 1).toString(), b = new UUID(48, 2).toString(), c = new UUID(48, 3).toString();
    List<String> seen = new ArrayList<>();
    String lastId;
    try (Open s = new Open("?since=" + start, ALL, Map.of())) {
      assertEquals(200, s.response.statusCode());
      assertTrue(s.response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
      importLines(meeting(a, "zqstream", "ann@acme.com"));
      importLines(delete("meeting", "acme", a), meeting(b, "zqstream"));
      lastId = take(s, 3, seen);
    }
    importLines(meeting(c, "zqstream", "bob@acme.com"));
    importLines(delete("meeting", "acme", b));
    // since still names the start, as a reconnecting EventSource's URL does: Last-Event-ID wins.
    try (Open s = new Open("?since=" + start, ALL, Map.of("Last-Event-ID", lastId))) {
      take(s, 2, seen);
    }
    assertEquals(api.changes(ALL, start), seen, "the events are the feed's changes, each once, in order");
  }

  @Test
  void aPersonalKeyHearsOnlyOfWhatItMaySeeAndEachIdIsACursor() throws Exception {
    String start = api.cursor(BOB);
    String hidden = new UUID(48, 4).toString(), shown = new UUID(48, 5).toString();
    try (Open s = new Open("", BOB, Map.of())) {
      importLines(meeting(hidden, "zqhidden", "ann@acme.com"));
      importLines(meeting(shown, "zqshown", "bob@acme.com"));
      Event e = s.next();
      assertEquals("upsert", e.event());
      JsonNode row = MAPPER.readTree(e.data());
      assertEquals(List.of("meeting_id", "change", "changed_at"), ApiServer.fields(row));
      assertEquals(shown, row.get("meeting_id").asText());
      assertEquals(api.get("/api/v1/changes?since=" + start, BOB).json().at("/data/0"), row, "the row /changes gives");
      ApiServer.Response after = api.get("/api/v1/changes?since=" + e.id(), BOB);
      assertEquals(200, after.status(), "an event id is a cursor of /changes");
      assertEquals(0, after.json().get("data").size());
    }
  }

  @Test
  void aKeyRevokedWhileItsStreamIsOpenHearsNothingMore() throws Exception {
    String keyId = api.createKey("stream-revoked", "acme", null);
    try (Open s = new Open("", "stream-revoked", Map.of())) {
      assertEquals(200, s.response.statusCode());
      assertEquals(0, api.cli("keys", "revoke", keyId).code());
      importLines(meeting(new UUID(48, 8).toString(), "zqrevoked"));
      assertNull(s.next(), "the stream ends without the change");
    }
    assertEquals(401, api.get("/api/v1/changes/stream", "stream-revoked").status());
  }

  @Test
  @StoreIndependent // Undertow's timer writes the comment; no store is read while the stream idles
  void anIdleStreamSendsACommentLineWithinFifteenSeconds() throws Exception {
    try (Open s = new Open("", ALL, Map.of())) {
      Object first = s.events.poll(ChangeStream.KEEP_ALIVE_MILLIS + 3000, TimeUnit.MILLISECONDS);
      assertNotNull(first, "nothing within " + (ChangeStream.KEEP_ALIVE_MILLIS + 3000) + " ms");
      assertTrue(((Event) first).comment(), first.toString());
    }
  }

  @Test
  void aBadCursorIs400BeforeTheStreamAndTheScopeIsChecked() throws Exception {
    ApiServer.Response since = api.get("/api/v1/changes/stream?since=abc", ALL);
    assertEquals(400, since.status());
    assertEquals("since", since.json().at("/error/field").asText());
    ApiServer.Response header = api.send("GET", "/api/v1/changes/stream",
        Map.of("Authorization", "Bearer " + api.key(ALL), "Last-Event-ID", "abc"));
    assertEquals(400, header.status(), header.body());
    assertEquals("Last-Event-ID", header.json().at("/error/field").asText());
    assertEquals(403, api.get("/api/v1/changes/stream", TASKS).status());
    assertEquals(401, api.get("/api/v1/changes/stream", null).status());
  }

  @Test
  void anExpiredCursorSendsOneCursorExpiredEventThenTheStreamEnds() throws Exception {
    String old = api.cursor(ALL);
    importLines(meeting(new UUID(48, 6).toString(), "zqaged"));
    try (Connection c = api.store().write()) {
      new Sql("UPDATE change_log SET changed_at = '2001-01-01T00:00:00Z'").update(c); // as if years passed
    }
    importLines(meeting(new UUID(48, 7).toString(), "zqfresh")); // prunes what is older than 30 days
    try (Open s = new Open("?since=" + old, ALL, Map.of())) {
      assertEquals(200, s.response.statusCode());
      Event e = s.next();
      assertEquals("cursor_expired", e.event());
      assertNull(e.id());
      JsonNode error = MAPPER.readTree(e.data()).get("error");
      assertEquals(410, error.get("status").asInt());
      assertEquals("cursor_expired", error.get("code").asText());
      assertNull(s.next(), "the stream ends");
    }
  }

  /** Takes {@code n} events as "id change" into {@code seen}; returns the last event's id. */
  private static String take(Open s, int n, List<String> seen) throws Exception {
    String id = null;
    for (int i = 0; i < n; i++) {
      Event e = s.next();
      assertNotNull(e, "the stream ended early");
      JsonNode row = MAPPER.readTree(e.data());
      assertEquals(row.get("change").asText(), e.event());
      seen.add(row.get("meeting_id").asText() + " " + e.event());
      id = e.id();
    }
    assertFalse(id.isEmpty());
    return id;
  }

  private static void importLines(String... lines) {
    CliRun r = api.cli("import", TestLines.file(api.dir(), lines).toString());
    assertEquals(0, r.code(), r.err());
  }
}
