package minutes.search;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import minutes.ApiServer;
import minutes.cli.Cli;
import minutes.search.index.IndexDirs;
import minutes.store.Importer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * search.timeout_ms through the real server: a server with a limit of 1 ms, 40 generated
 * meetings of 30-50 KB of transcript each, and a search for 64 of the most common words,
 * which takes tens of milliseconds to match on them (about 140 ms at 200 meetings, measured
 * 2026-11-25). It must answer 503 unavailable with Retry-After, never part of its hits, and be
 * counted in /metrics.
 */
class SearchTimeoutTest {
  @RegisterExtension
  static final ApiServer api = new ApiServer("/fixtures.ndjson", Map.of("MINUTES_SEARCH_TIMEOUT_MS", "1"));

  static final String COSTLY = String.join(" ", List.of("the", "and", "to", "of", "a", "i", "you", "that", "it", "we",
      "is", "so", "uh", "in", "have", "um", "but", "for", "be", "this", "on", "are", "what", "if", "with", "think", "like",
      "just", "can", "mm", "do", "there", "know", "or", "not", "well", "one", "hmm", "they", "okay", "as", "right", "then",
      "was", "about", "thing", "at", "would", "no", "will", "some", "all", "mean", "our", "more", "from", "because",
      "very", "oh", "an", "something", "going", "yeah", "really"));

  /** Generated meetings, moved into the fixtures' workspace acme, imported while the server runs. */
  @BeforeAll
  static void importLongTranscripts() throws Exception {
    Path dir = Files.createTempDirectory("search-timeout-");
    try {
      Path raw = dir.resolve("generated.ndjson");
      StringWriter err = new StringWriter();
      int code = Cli.run(new String[] {"generate", "--meetings", "40", "--seed", "16", "--tasks-per-meeting", "1",
          "--transcript-kb", "30-50", "--workspaces", "1", "--out", raw.toString()},
          new PrintWriter(new StringWriter()), new PrintWriter(err));
      assertEquals(0, code, err.toString());
      Path file = dir.resolve("acme.ndjson");
      Files.writeString(file, Files.readString(raw).replace("\"bench-1\"", "\"acme\""));
      new Importer(api.store(), Importer.Progress.NONE).run(List.of(file));
    } finally {
      IndexDirs.deleteTree(dir);
    }
    // The server applies the import on its own; wait (bounded) until its index holds it.
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (api.metric("minutes_index_documents") < 46 || api.metric("minutes_index_lag_entries") > 0) {
      assertTrue(System.nanoTime() < deadline, "the index did not take the import in 120 s");
      Thread.sleep(100);
    }
  }


  @Test
  void aSearchPastTheLimitAnswers503WithRetryAfterAndIsCounted() {
    double before = api.metric("minutes_timeouts_total{kind=\"search\"}");
    for (int i = 0; i < 3; i++) {
      ApiServer.Response r = api.get("/api/v1/search?limit=100&q=" + URLEncoder.encode(COSTLY, StandardCharsets.UTF_8), ALL);
      assertEquals(503, r.status(), r.body());
      assertTrue(Integer.parseInt(r.header("Retry-After")) > 0, "Retry-After: " + r.header("Retry-After"));
      JsonNode error = r.json().get("error");
      assertEquals("unavailable", error.get("code").asText());
      assertTrue(error.get("field").isNull());
      assertTrue(error.get("message").asText().contains("longer than the server allows (1 ms)"), error.toString());
    }
    assertEquals(before + 3, api.metric("minutes_timeouts_total{kind=\"search\"}"), "each stopped search counted once");
  }

  @Test
  void parametersAreStillCheckedFirst() {
    ApiServer.Response r = api.get("/api/v1/search?q=x", ALL);
    assertEquals(400, r.status(), "a refused q is refused before any search runs");
    assertEquals("q", r.json().get("error").get("field").asText());
  }
}
