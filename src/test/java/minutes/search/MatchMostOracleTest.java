package minutes.search;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import minutes.ApiServer;
import minutes.Property;
import minutes.search.SearchOracleTest.Meeting;
import minutes.search.SearchOracleTest.Workspace;
import minutes.search.text.PlainScan;
import minutes.search.text.QueryMatches;
import minutes.search.text.SnippetText;
import minutes.search.text.SearchQuery.Match;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code match=most} through the real import and server on the run's store, against a plain scan
 * of generated meetings (SearchOracleTest's generator, its filters and keys): a meeting matches
 * when its title, minutes or transcript holds any clause of q; the hits come by the number of the
 * query's counted clauses (those not all function words, or all when none is) the meeting holds
 * anywhere, then by rank, which is the formula of docs/SEARCH.md computed by hand ({@link RankOracle});
 * {@code total} counts
 * every match. In one meeting's transcript the same q finds the segments holding any clause,
 * ordered the same way by each segment's own rank, with the snippets transcript search shows.
 */
class MatchMostOracleTest {
  static final long DATA_SEED = Long.getLong("search.dataSeed", new java.util.SplittableRandom().nextLong());
  static final List<Workspace> DATA = new ArrayList<>();
  static final Map<String, String> KEYS_TO_USERS = new HashMap<>();

  @RegisterExtension static final ApiServer api = new ApiServer("/fixtures.ndjson", Map.of(), out -> {
    Random random = new Random(DATA_SEED);
    for (int w = 0; w < SearchOracleTest.WORKSPACES; w++) {
      Workspace ws = SearchOracleTest.workspace(new Property.Case(random, 10, DATA_SEED), w);
      DATA.add(ws);
      for (String line : SearchOracleTest.ndjson(ws)) out.write(line + "\n");
    }
  });

  @BeforeAll
  static void keys() throws Exception {
    for (Workspace ws : DATA) {
      api.createKey(ws.slug(), ws.slug(), null);
      KEYS_TO_USERS.put(ws.slug(), null);
      for (String u : ws.users()) {
        api.createKey(ws.slug() + "/" + u, ws.slug(), u);
        KEYS_TO_USERS.put(ws.slug() + "/" + u, u);
      }
    }
  }

  @Test
  void matchMostAnswersWhatThePlainScanAnswers() {
    Map<String, Integer> met = new HashMap<>();
    Property.forAll("match=most as a plain scan (data seed " + DATA_SEED + ", -Dsearch.dataSeed)", 200, 10, c -> {
      SearchOracleTest.Request r = SearchOracleTest.request(c, DATA, KEYS_TO_USERS);
      String q = r.q().text();
      List<List<String>> clauses = r.q().clauses();
      if (q.strip().codePointCount(0, q.strip().length()) < 2 || clauses.isEmpty()) return;
      ApiServer.Response answer = api.get("/api/v1/search?match=most&limit=100&facets=platform&q="
          + URLEncoder.encode(q, StandardCharsets.UTF_8) + r.parameters(), r.key());
      String what = "q=" + q + r.parameters() + " as " + r.key();
      assertEquals(200, answer.status(), what + ": " + answer.body());
      Workspace ws = DATA.stream().filter(w -> r.key().startsWith(w.slug())).findFirst().orElseThrow();
      List<RankOracle.Scored> expected = new ArrayList<>();
      for (Meeting m : ws.meetings()) {
        if (r.passes().test(m)) {
          RankOracle.Scored s = RankOracle.scored(m, clauses, Match.MOST);
          if (s != null) expected.add(s);
        }
      }
      JsonNode data = answer.json().get("data");
      assertEquals(expected.size(), answer.json().get("total").asInt(), what + ": total counts every match");
      Map<String, RankOracle.Scored> byId = new HashMap<>();
      for (RankOracle.Scored s : expected) byId.put(s.meeting().id(), s);
      Set<String> found = new LinkedHashSet<>();
      RankOracle.Scored previous = null;
      for (JsonNode hit : data) {
        RankOracle.Scored s = byId.get(hit.get("meeting_id").asText());
        assertTrue(s != null, what + ": a meeting that holds a clause and passes: " + hit);
        found.add(s.meeting().id());
        assertEquals(s.rank(), hit.get("rank").asDouble(), 1e-5, what + ": the rank of " + hit);
        if (s.field().equals("title")) assertEquals(0.35, hit.get("rank").asDouble(), what);
        assertEquals(s.field(), hit.get("matched_in").asText(), what + ": the field of the rank: " + hit);
        if (previous != null) {
          assertTrue(previous.words() > s.words() || previous.words() == s.words() && previous.rank() >= s.rank() - 1e-5,
              what + ": more words first, then rank: " + previous + " before " + s);
        }
        met.merge(previous != null && previous.words() > s.words() ? "fewer words" : "hit", 1, Integer::sum);
        previous = s;
      }
      assertEquals(byId.keySet(), found, what);
      transcriptSearch(c, r, ws, met);
    });
    for (var least : Map.of("hit", 200, "fewer words", 20, "segments", 30).entrySet()) {
      assertTrue(met.getOrDefault(least.getKey(), 0) >= least.getValue(), "the property met " + met);
    }
  }

  /** A matching segment as the oracle orders it. */
  record Segment(int index, int words, double rank, String snippet) {}

  /**
   * GET /meetings/{id}/transcript/search with match=most: the first {@code limit} segments
   * holding any clause, more counted clauses first, then the segment's rank (each clause's
   * count saturated by the segment's length in characters, whitespace runs counted once), then time.
   */
  private static void transcriptSearch(Property.Case c, SearchOracleTest.Request r, Workspace ws, Map<String, Integer> met) {
    List<List<String>> clauses = r.q().clauses();
    List<Meeting> visible = ws.meetings().stream().filter(r.visible()).toList();
    if (visible.isEmpty()) return;
    Meeting m = c.pick(visible);
    int limit = c.between(1, 4);
    ApiServer.Response answer = api.get("/api/v1/meetings/" + m.id() + "/transcript/search?match=most&limit=" + limit
        + "&q=" + URLEncoder.encode(r.q().text(), StandardCharsets.UTF_8), r.key());
    String what = "transcript search of " + m.id() + " for " + r.q().text() + " as " + r.key();
    assertEquals(200, answer.status(), what + ": " + answer.body());
    long counted = RankOracle.counted(clauses);
    float[] weights = RankOracle.weights(clauses);
    List<Segment> matching = new ArrayList<>();
    for (int i = 0; i < m.segments().size(); i++) {
      String text = m.segments().get(i);
      List<QueryMatches.Span> spans = PlainScan.matches(text, clauses);
      if (spans.isEmpty()) continue;
      int[] tf = new int[clauses.size()];
      long held = 0;
      for (QueryMatches.Span s : spans) {
        tf[s.clause()]++;
        held |= 1L << s.clause();
      }
      StringBuilder collapsed = new StringBuilder(); // the length a rank counts: whitespace runs one space
      minutes.search.text.MarkdownText.appendCollapsed(collapsed, text);
      float sum = 0, all = 0, norm = 1.2f * (1 - 0.75f + 0.75f * collapsed.length() / 120f);
      for (int k = 0; k < tf.length; k++) {
        all += weights[k];
        if (tf[k] > 0) sum += weights[k] * tf[k] / (tf[k] + norm);
      }
      int[] window = SnippetText.window(text.length(), spans.get(0).start(), spans.get(0).end());
      matching.add(new Segment(i, Long.bitCount(held & counted), sum / all,
          SnippetText.render(text, 0, text.length(), window[0], window[1], spans)));
    }
    matching.sort(Comparator.comparingInt((Segment s) -> -s.words()).thenComparing(s -> -s.rank()).thenComparingInt(Segment::index));
    List<String> expected = matching.stream().limit(limit).map(s -> s.index() + " " + s.snippet()).toList();
    List<String> found = new ArrayList<>();
    for (JsonNode s : answer.json().get("data")) found.add(s.get("index").asInt() + " " + s.get("snippet").asText());
    assertEquals(expected, found, what);
    if (!found.isEmpty()) met.merge("segments", 1, Integer::sum);
  }
}
