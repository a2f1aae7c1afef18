package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import minutes.ApiServer;
import minutes.TestStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Same answers on both stores (issue 12), byte for byte: the same fixtures imported into SQLite
 * and into PostgreSQL, then every endpoint asked the same questions, with every kind of key,
 * filters, orders, pages and mistakes, and the status and body compared. Runs in the
 * PostgreSQL run of the suite, where both stores are at hand.
 */
class StoreParityTest {
  /** A workspace key, two personal keys, another workspace's key, a key short of two scopes. */
  private static final String[] KEYS = {ApiServer.ALL, ApiServer.ANN, ApiServer.BOB, ApiServer.OTHER, ApiServer.MEETINGS};
  /** Thousands of questions from each key in seconds: not what the rate limit is for. */
  private static final java.util.Map<String, String> UNLIMITED = java.util.Map.of("MINUTES_HTTP_RATE_LIMIT_PER_MINUTE", "0");

  @RegisterExtension static final ApiServer sqlite = new ApiServer("/fixtures.ndjson", UNLIMITED).onSqlite();
  @RegisterExtension static final ApiServer postgres = new ApiServer("/fixtures.ndjson", UNLIMITED);
  @RegisterExtension static final ApiServer sqliteFilters = new ApiServer("/search-filters.ndjson", UNLIMITED).onSqlite();
  @RegisterExtension static final ApiServer postgresFilters = new ApiServer("/search-filters.ndjson", UNLIMITED);
  @RegisterExtension static final ApiServer sqliteTranscripts = new ApiServer("/transcripts.ndjson", UNLIMITED).onSqlite();
  @RegisterExtension static final ApiServer postgresTranscripts = new ApiServer("/transcripts.ndjson", UNLIMITED);

  @Test
  void everyEndpointAnswersTheSameOnSqliteAndPostgres() {
    assumeTrue(TestStore.postgres(), "the PostgreSQL run compares it with SQLite");
    int compared = 0;
    for (ApiServer[] pair : new ApiServer[][] {{sqlite, postgres}, {sqliteFilters, postgresFilters},
        {sqliteTranscripts, postgresTranscripts}}) {
      compared += compare(pair[0], pair[1], questions(pair[0]));
    }
    assertTrue(compared > 1500, "questions asked: " + compared);
  }

  private static int compare(ApiServer a, ApiServer b, List<String> paths) {
    int n = 0;
    for (String path : paths) {
      for (String key : KEYS) {
        ApiServer.Response onSqlite = a.get(path, key), onPostgres = b.get(path, key);
        assertEquals(onSqlite.status(), onPostgres.status(), key + " " + path + ": " + onPostgres.body());
        assertEquals(onSqlite.body(), onPostgres.body(), key + " " + path);
        n++;
      }
    }
    return n;
  }

  /** Requests for every endpoint, with the ids, dates and words the data holds. */
  private static List<String> questions(ApiServer server) {
    Set<String> paths = new LinkedHashSet<>();
    for (String order : new String[] {"", "starts_at", "-starts_at", "created_at", "-created_at", "title", "-title"}) {
      paths.add("/api/v1/meetings?order=" + order + "&limit=3&offset=1");
      paths.add("/api/v1/meetings" + (order.isEmpty() ? "" : "?order=" + order));
    }
    for (String filter : new String[] {"status=ready", "platform=zoom", "source=upload", "from=2026-03-01",
        "to=2026-03-02T12:00:00Z", "q=planning", "q=M%C3%BCller", "q=MULLER", "q=_", "q=%25", "limit=abc", "order=nope",
        "from=2026-02-30"}) {
      paths.add("/api/v1/meetings?" + filter);
    }
    JsonNode meetings = server.get("/api/v1/meetings?limit=200", ApiServer.ALL).json().get("data");
    List<String> ids = new ArrayList<>();
    meetings.forEach(m -> ids.add(m.get("id").asText()));
    ids.add("00000000-0000-0000-0000-000000000000");
    ids.add("not-a-uuid");
    for (String id : ids) {
      String m = "/api/v1/meetings/" + id;
      paths.add(m);
      paths.add(m + "/participants");
      paths.add(m + "/action-items");
      paths.add(m + "/action-items?status=open&limit=1");
      paths.add(m + "/action-items?due_from=2026-01-01&due_to=2026-12-31");
      paths.add(m + "/transcript");
      paths.add(m + "/transcript?limit=2&offset=1");
      paths.add(m + "/transcript?from_ms=1000&to_ms=60000");
      paths.add(m + "/transcript/search?q=the");
      paths.add(m + "/transcript/search?q=%22we%20should%22&limit=3");
      paths.add("/api/v1/action-items?meeting_id=" + id);
    }
    for (String filter : new String[] {"", "status=open", "status=done", "verdict=open", "verdict=duplicate",
        "due_from=2026-03-01", "due_to=2026-03-15", "due_from=2026-01-01&due_to=2026-12-31", "limit=2&offset=1",
        "offset=1000", "limit=0", "due_from=nope"}) {
      paths.add("/api/v1/action-items" + (filter.isEmpty() ? "" : "?" + filter));
    }
    paths.add("/api/v1/customers");
    for (String q : new String[] {"planning", "budget", "\"revised forecast\"", "müller", "the", "meeting notes", "zz",
        "AND OR NOT", "a"}) {
      String encoded = URLEncoder.encode(q, StandardCharsets.UTF_8);
      paths.add("/api/v1/search?q=" + encoded);
      paths.add("/api/v1/search?q=" + encoded + "&limit=2&platform=zoom");
      paths.add("/api/v1/search?q=" + encoded + "&from=2026-03-01&to=2026-04-01");
    }
    return new ArrayList<>(paths);
  }
}
