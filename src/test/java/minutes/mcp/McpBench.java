package minutes.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import minutes.http.Params;
import minutes.http.Routes;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.search.SearchBench;
import minutes.store.DataWatch;
import minutes.store.Db;
import minutes.store.Sql;
import minutes.transcripts.TranscriptApi;

/**
 * The benchmark of bench/mcp-bench.sh (issue 14, "Performance"); not a test. Modes:
 * {@code search BASE KEY QUERIES ROUNDS} times each query as a REST search and as an MCP
 * {@code search} tool call, interleaved (the order alternating per query), one client, over
 * HTTP; {@code transcript DB WORKSPACE_SLUG QUERIES ROUNDS} times transcript/search without
 * HTTP on the meeting whose transcript is nearest 100 KB, through {@link Routes#call} as an
 * MCP tool call runs it.
 */
public final class McpBench {
  private McpBench() {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int WARM_UP_ROUNDS = 5;
  private static final int LIMIT = 50;
  private static final String TRANSCRIPT_SEARCH = "/api/v1/meetings/{id}/transcript/search";

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "search" -> search(args[1], args[2], Files.readAllLines(Path.of(args[3])), Integer.parseInt(args[4]));
      case "transcript" -> transcript(Path.of(args[1]), args[2], Files.readAllLines(Path.of(args[3])),
          Integer.parseInt(args[4]));
      default -> throw new IllegalArgumentException("mode: search | transcript");
    }
  }

  /** REST and MCP searches, interleaved query by query, so that load on a shared machine hits both alike. */
  static void search(String base, String key, List<String> queries, int rounds) throws Exception {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest.Builder rpc = HttpRequest.newBuilder(URI.create(base + "/mcp"))
        .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
        .header("Accept", McpProtocolTest.ACCEPT).header("MCP-Protocol-Version", "2025-06-18");
    long[] rest = new long[queries.size() * rounds], mcp = new long[rest.length], diff = new long[rest.length];
    int i = 0;
    for (int round = -WARM_UP_ROUNDS; round < rounds; round++) {
      for (int k = 0; k < queries.size(); k++) {
        String q = queries.get(k);
        HttpRequest get = HttpRequest.newBuilder(URI.create(base + "/api/v1/search?limit=" + LIMIT + "&q="
            + URLEncoder.encode(q, StandardCharsets.UTF_8))).header("Authorization", "Bearer " + key).build();
        HttpRequest post = rpc.copy().POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of(
            "jsonrpc", "2.0", "id", k, "method", "tools/call",
            "params", Map.of("name", "search", "arguments", Map.of("q", q, "limit", LIMIT)))))).build();
        boolean restFirst = (k + round) % 2 == 0;
        long a = restFirst ? timeRest(client, get) : timeMcp(client, post);
        long b = restFirst ? timeMcp(client, post) : timeRest(client, get);
        if (round < 0) continue;
        rest[i] = restFirst ? a : b;
        mcp[i] = restFirst ? b : a;
        diff[i] = mcp[i] - rest[i];
        i++;
      }
    }
    SearchBench.report("REST GET /api/v1/search, limit " + LIMIT + " (JDK HttpClient, 1 client)", rest);
    SearchBench.report("MCP tools/call search, the same queries, interleaved", mcp);
    System.out.printf("| MCP minus REST, per query pair (negative: MCP faster) | %.2f | | | %d |%n",
        median(diff) / 1e6, diff.length);
  }

  private static long timeRest(HttpClient client, HttpRequest get) throws Exception {
    long t = System.nanoTime();
    HttpResponse<String> r = client.send(get, HttpResponse.BodyHandlers.ofString());
    long took = System.nanoTime() - t;
    if (r.statusCode() != 200) throw new IllegalStateException("REST " + r.statusCode() + ": " + r.body());
    return took;
  }

  private static long timeMcp(HttpClient client, HttpRequest post) throws Exception {
    long t = System.nanoTime();
    HttpResponse<String> r = client.send(post, HttpResponse.BodyHandlers.ofString());
    long took = System.nanoTime() - t;
    JsonNode answer = JSON.readTree(r.body());
    if (r.statusCode() != 200 || answer.at("/result/isError").asBoolean(true)) {
      throw new IllegalStateException("MCP " + r.statusCode() + ": " + r.body());
    }
    return took;
  }

  /** transcript/search in-process: the words and phrases of the query set, in the transcript nearest 100 KB. */
  static void transcript(Path dbPath, String workspace, List<String> queries, int rounds) throws Exception {
    try (Db db = Db.open(minutes.store.Store.sqlite(dbPath), 2)) {
      Principal who;
      String meeting;
      long chars;
      try (Connection c = db.read()) {
        who = new Principal("bench", Db.workspaceId(c, workspace).orElseThrow(), null, EnumSet.allOf(Scope.class), Set.of());
        Object[] nearest = new Sql("""
            SELECT meeting_id, sum(length(text)) AS chars FROM transcript_segment
            GROUP BY meeting_id ORDER BY abs(sum(length(text)) - 100000), meeting_id LIMIT 1""")
            .one(c, rs -> new Object[] {rs.getString(1), rs.getLong(2)}).orElseThrow();
        meeting = (String) nearest[0];
        chars = (Long) nearest[1];
      }
      Routes routes = new Routes(db, "no-store", 0, DataWatch.NONE)
          .api(TRANSCRIPT_SEARCH, Scope.TRANSCRIPTS_READ, Set.of("transcript_segment"), TranscriptApi::search);
      long[] nanos = new long[queries.size() * rounds];
      long matches = 0;
      int i = 0;
      for (int round = -WARM_UP_ROUNDS; round < rounds; round++) {
        for (String q : queries) {
          Map<String, Deque<String>> query = Map.of("q", new ArrayDeque<>(List.of(q)));
          long t = System.nanoTime();
          TranscriptApi.Matches found = (TranscriptApi.Matches) routes.call(TRANSCRIPT_SEARCH, who, new Params(query),
              Map.of("id", meeting));
          long took = System.nanoTime() - t;
          if (round < 0) continue;
          nanos[i++] = took;
          matches += found.data().size();
        }
      }
      System.err.printf("(transcript of meeting %s: %,d characters; %.1f matching segments per query on average)%n",
          meeting, chars, (double) matches / nanos.length);
      SearchBench.report(String.format("in-process transcript/search, %,d-character transcript, limit 100", chars), nanos);
    }
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
