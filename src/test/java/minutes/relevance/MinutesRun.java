package minutes.relevance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import minutes.relevance.Figures.Outcome;

/**
 * Asks a running minutes server, over its REST API, what the benchmark measures; it knows
 * nothing of the server's insides, so it measures whatever build answers. Per query: {@code GET
 * /search?q=&limit=10&moments=3&match=} (the right meeting's place, its first 3 moments), then
 * {@code GET /meetings/{id}/transcript/search?q=&limit=3&match=} in the right meeting. A query
 * form without a word, or a {@code q} the server refuses (400 naming {@code q}: too long, too
 * many words), counts as a query without hits. Needs a key with meetings:read and
 * transcripts:read, and a rate limit the run does not reach.
 */
final class MinutesRun {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;
  private final String key;
  private final Map<String, QmsumSet.Meeting> byId;
  private final int threads;

  MinutesRun(String base, String key, QmsumSet set, int threads) {
    this.base = base.replaceFirst("/+$", "");
    this.key = key;
    this.byId = RelevanceWorkspace.byId(set);
    this.threads = threads;
  }

  /**
   * Whether the server knows {@code match}: one that does refuses a value it does not know (400
   * naming {@code match}); one that does not ignores the parameter as it ignores any unknown one.
   */
  boolean knowsMatch() {
    JsonNode answer = get("/api/v1/search?q=budget&limit=1&match=unknown-mode", true);
    return answer.path("error").path("field").asText().equals("match");
  }

  /** The figures of these queries in this form, searched with {@code match}. */
  Figures measure(List<QmsumSet.Query> queries, QueryForms form, String match) {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Outcome>> pending = new ArrayList<>();
      for (QmsumSet.Query q : queries) pending.add(pool.submit(() -> outcome(q, form.of(q.text()), match)));
      List<Outcome> outcomes = new ArrayList<>();
      for (Future<Outcome> f : pending) outcomes.add(f.get());
      return Figures.of(outcomes);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a search failed: " + e.getCause().getMessage(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Why queries (in this form, {@code match=all}) find no meeting: returns how many find none,
   * and how many of those hold a word that alone finds no meeting (a typo, a name nobody said);
   * the others hold only words that occur, but never all of them in one meeting's one field.
   */
  int[] noHits(List<QmsumSet.Query> queries, QueryForms form) {
    Map<String, Boolean> found = new java.util.HashMap<>();
    int none = 0;
    int unknownWord = 0;
    for (QmsumSet.Query query : queries) {
      String q = form.of(query.text());
      if (!q.isBlank() && finds(q)) continue;
      none++;
      if (QueryForms.words(q).stream().anyMatch(w -> !found.computeIfAbsent(w, this::finds))) unknownWord++;
    }
    return new int[] {none, unknownWord};
  }

  /**
   * The QMSum names of every meeting {@code match=all} finds for {@code q} (in pages of 100, the
   * most {@code limit} gives); empty for a blank or refused {@code q}.
   */
  Set<String> allHits(String q) {
    Set<String> names = new HashSet<>();
    if (q.isBlank()) return names;
    for (int offset = 0; ; offset += 100) {
      JsonNode page = get("/api/v1/search?limit=100&match=all&offset=" + offset + "&q=" + encode(q), false);
      if (page == null) return names;
      for (JsonNode hit : page.path("data")) names.add(byId.get(hit.path("meeting_id").asText()).name());
      if (page.path("data").size() < 100) return names;
    }
  }

  /** Whether {@code q} alone finds a meeting (a single letter, which the server refuses, counts as found). */
  private boolean finds(String q) {
    if (q.codePointCount(0, q.length()) < 2) return true;
    JsonNode found = get("/api/v1/search?limit=1&match=all&q=" + encode(q), false);
    return found != null && !found.path("data").isEmpty();
  }

  private Outcome outcome(QmsumSet.Query query, String q, String match) {
    if (q.isBlank()) return Outcome.NONE;
    String params = "q=" + encode(q) + "&match=" + match;
    JsonNode found = get("/api/v1/search?limit=10&moments=3&" + params, false);
    if (found == null) return Outcome.NONE;
    String rightId = RelevanceWorkspace.id(query.meeting());
    QmsumSet.Meeting meeting = byId.get(rightId);
    JsonNode hits = found.path("data");
    int rank = 0;
    boolean moment = false;
    for (int i = 0; i < hits.size() && rank == 0; i++) {
      if (hits.get(i).path("meeting_id").asText().equals(rightId)) {
        rank = i + 1;
        moment = anyRight(query, meeting, hits.get(i).path("moments"), 3);
      }
    }
    JsonNode inMeeting = get("/api/v1/meetings/" + rightId + "/transcript/search?limit=3&" + params, false);
    return new Outcome(!hits.isEmpty(), rank, moment, inMeeting != null && anyRight(query, meeting,
        inMeeting.path("data"), 3));
  }

  /** Whether one of the first {@code n} segments (their {@code index}) is a turn that answers the query. */
  private static boolean anyRight(QmsumSet.Query query, QmsumSet.Meeting meeting, JsonNode segments, int n) {
    for (int i = 0; i < Math.min(n, segments.size()); i++) {
      if (query.answeredBy(meeting.turns().get(segments.get(i).path("index").asInt()).index())) return true;
    }
    return false;
  }

  /**
   * The answer's JSON; null for a 400 naming {@code q} (a query the server will not run); the
   * error itself when {@code errorsToo}. Anything else but 200 fails the run.
   */
  private JsonNode get(String pathAndQuery, boolean errorsToo) {
    HttpRequest request = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
        .header("Authorization", "Bearer " + key).timeout(Duration.ofSeconds(60)).GET().build();
    try {
      HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      // A loaded machine sheds load: the server says when to come back, and the answer is the same then.
      for (int retry = 0; r.statusCode() == 503 && r.headers().firstValue("Retry-After").isPresent() && retry < 20; retry++) {
        Thread.sleep(200L * (retry + 1));
        r = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      }
      JsonNode body = JSON.readTree(r.body());
      if (r.statusCode() == 200 || errorsToo) return body;
      if (r.statusCode() == 400 && body.path("error").path("field").asText().equals("q")) return null;
      throw new IllegalStateException("GET " + pathAndQuery + ": " + r.statusCode() + " " + r.body());
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + pathAndQuery, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
