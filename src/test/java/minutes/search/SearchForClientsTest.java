package minutes.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import minutes.ApiServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.ApiServer.MEETINGS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * order, offset, total, facets and moments of GET /search (decisions.md, "Search for
 * search-heavy clients") through the real server, over search-filters.ndjson: 14 meetings that
 * all say "quarterly", on every platform, with participants of three companies, seen by
 * different personal keys. Each answer is checked against what the fixture says it must be.
 */
class SearchForClientsTest {
  @RegisterExtension static final ApiServer api = new ApiServer("/search-filters.ndjson");

  /** A meeting of the fixture; {@code at}: coalesce(starts_at, created_at). */
  record Meeting(String id, String platform, String at, List<String> emails, List<String> viewers) {}

  static final Map<String, Meeting> MEETINGS_BY_ID = new LinkedHashMap<>();
  /** Company id to its name and domains. */
  static final Map<String, List<String>> COMPANY_DOMAINS = new LinkedHashMap<>();
  static final Map<String, String> COMPANY_NAMES = new LinkedHashMap<>();

  @BeforeAll
  static void readFixture() throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    try (InputStream in = SearchForClientsTest.class.getResourceAsStream("/search-filters.ndjson")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        JsonNode n = mapper.readTree(line);
        if (!n.path("workspace").asText().equals("acme")) continue;
        if (n.get("kind").asText().equals("company")) {
          List<String> domains = new ArrayList<>();
          n.get("domains").forEach(d -> domains.add(d.asText().toLowerCase(Locale.ROOT)));
          COMPANY_DOMAINS.put(n.get("id").asText(), domains);
          COMPANY_NAMES.put(n.get("id").asText(), n.get("name").asText());
        }
        if (!n.get("kind").asText().equals("meeting")) continue;
        List<String> emails = new ArrayList<>(), viewers = new ArrayList<>();
        n.get("participants").forEach(p -> {
          if (!p.get("email").isNull()) emails.add(p.get("email").asText().toLowerCase(Locale.ROOT));
        });
        n.get("visible_to").forEach(v -> viewers.add(v.asText()));
        String at = n.has("starts_at") ? n.get("starts_at").asText() : n.get("created_at").asText();
        MEETINGS_BY_ID.put(n.get("id").asText(), new Meeting(n.get("id").asText(), n.get("platform").asText(), at, emails,
            viewers));
      }
    }
    assertEquals(14, MEETINGS_BY_ID.size());
  }

  static JsonNode search(String query, String key) {
    ApiServer.Response r = api.get("/api/v1/search?q=quarterly" + query, key);
    assertEquals(200, r.status(), query + ": " + r.body());
    return r.json();
  }

  static List<String> ids(String query, String key) {
    return ApiServer.column(search(query, key), "meeting_id");
  }

  /** The meetings the key sees that pass the filter. */
  static List<Meeting> visible(String key, Predicate<Meeting> filter) {
    return MEETINGS_BY_ID.values().stream().filter(m -> switch (key) {
      case ANN -> m.viewers().contains("ann@acme.com");
      case BOB -> m.viewers().contains("bob@acme.com");
      default -> true;
    }).filter(filter).toList();
  }

  @Test
  void withoutTheNewParametersTheAnswerIsExactlyAsBefore() {
    JsonNode plain = search("", ALL);
    assertEquals(List.of("query", "data"), ApiServer.fields(plain));
    assertEquals(List.of("meeting_id", "title", "platform", "starts_at", "created_at", "rank", "snippet", "matched_in"),
        ApiServer.fields(plain.get("data").get(0)));
    for (String same : List.of("&moments=0", "&order=rank", "&facet_limit=3", "&moments=-4")) {
      assertEquals(api.get("/api/v1/search?q=quarterly", ALL).body(), api.get("/api/v1/search?q=quarterly" + same, ALL).body(),
          same);
    }
  }

  @Test
  void dateOrdersSortByStartOrCreationTimeAndKeepEachHitsRank() {
    Map<String, Double> ranks = new TreeMap<>();
    search("&limit=100", ALL).get("data").forEach(h -> ranks.put(h.get("meeting_id").asText(), h.get("rank").asDouble()));
    Comparator<Meeting> oldest = Comparator.comparing(Meeting::at).thenComparing(Meeting::id);
    for (String key : List.of(ALL, ANN, BOB)) {
      for (String platform : List.of("", "&platform=zoom")) {
        Predicate<Meeting> filter = m -> platform.isEmpty() || m.platform().equals("zoom");
        List<String> ascending = visible(key, filter).stream().sorted(oldest).map(Meeting::id).toList();
        assertEquals(ascending, ids("&limit=100&order=starts_at" + platform, key), key + platform);
        assertEquals(visible(key, filter).stream().sorted(Comparator.comparing(Meeting::at).reversed()
            .thenComparing(Meeting::id)).map(Meeting::id).toList(), ids("&limit=100&order=-starts_at" + platform, key));
      }
    }
    for (JsonNode h : search("&limit=100&order=-starts_at", ALL).get("data")) {
      assertEquals(ranks.get(h.get("meeting_id").asText()), h.get("rank").asDouble(), "the rank rank order shows");
      assertEquals("transcript", h.get("matched_in").asText());
    }
  }

  @Test
  void offsetPagesThroughTheSameOrderAndTotalCountsEveryMatch() {
    for (String key : List.of(ALL, ANN, BOB)) {
      for (String order : List.of("rank", "starts_at", "-starts_at")) {
        List<String> whole = ids("&limit=100&order=" + order, key);
        List<String> paged = new ArrayList<>();
        for (int offset = 0; offset < whole.size() + 3; offset += 3) {
          JsonNode page = search("&limit=3&order=" + order + "&offset=" + offset, key);
          assertEquals(List.of("query", "data", "total"), ApiServer.fields(page));
          assertEquals(whole.size(), page.get("total").asInt(), key + " " + order);
          paged.addAll(ApiServer.column(page, "meeting_id"));
        }
        assertEquals(whole, paged, key + " " + order);
      }
    }
    assertEquals(visible(ANN, m -> m.platform().equals("zoom")).size(),
        search("&platform=zoom&offset=0", ANN).get("total").asInt());
    assertEquals(0, search("&offset=0&from=2026-04-01", ALL).get("total").asInt());
    assertEquals(0, search("&offset=0&from=2026-03-08&to=2026-03-02", ALL).get("total").asInt(), "an inverted range");
    assertEquals(api.get("/api/v1/search?q=quarterly&offset=0", ALL).body(),
        api.get("/api/v1/search?q=quarterly&offset=-7", ALL).body(), "a negative offset counts as 0");
    JsonNode deepest = search("&offset=900&limit=100", ALL);
    assertEquals(14, deepest.get("total").asInt());
    assertEquals(0, deepest.get("data").size());
    JsonNode noWords = api.get("/api/v1/search?q=%22%2C%2C%22&offset=0&facets=month", ALL).json();
    assertEquals(0, noWords.get("total").asInt(), "a query of no words matches nothing");
    assertEquals(0, noWords.at("/facets/month").size());
  }

  @Test
  void facetsCountEveryMatchingVisibleMeetingNotOnlyThePage() {
    for (String key : List.of(ALL, ANN, BOB)) {
      for (String filter : List.of("", "&platform=zoom", "&from=2026-03-05", "&company=606df9f7-65da-5098-be79-9b91cf66895f")) {
        Predicate<Meeting> passes = switch (filter) {
          case "&platform=zoom" -> m -> m.platform().equals("zoom");
          case "&from=2026-03-05" -> m -> m.at().compareTo("2026-03-05") >= 0;
          case "" -> m -> true;
          default -> m -> inCompany(m, "606df9f7-65da-5098-be79-9b91cf66895f");
        };
        List<Meeting> matching = visible(key, passes);
        JsonNode body = search("&limit=2&facets=platform,company,participant,month&facet_limit=100" + filter, key);
        assertEquals(List.of("query", "data", "total", "facets"), ApiServer.fields(body));
        assertEquals(Math.min(2, matching.size()), body.get("data").size());
        assertEquals(matching.size(), body.get("total").asInt(), key + filter);
        JsonNode facets = body.get("facets");
        assertEquals(List.of("platform", "company", "participant", "month"), ApiServer.fields(facets));
        assertEquals(expected(matching, m -> List.of(m.platform()), false), facets.get("platform"), key + filter);
        assertEquals(expected(matching, Meeting::emails, false), facets.get("participant"), key + filter);
        assertEquals(expected(matching, m -> List.of(m.at().substring(0, 7)), true), facets.get("month"), key + filter);
        assertEquals(expectedCompanies(matching), facets.get("company"), key + filter);
      }
    }
  }

  @Test
  void facetLimitKeepsTheHighestCountsAndFacetsComeInTheOrderAsked() {
    JsonNode all = search("&facets=participant&facet_limit=100", ALL).get("facets").get("participant");
    JsonNode two = search("&facets=participant&facet_limit=2", ALL).get("facets").get("participant");
    assertEquals(2, two.size());
    assertEquals(all.get(0), two.get(0));
    assertEquals(all.get(1), two.get(1));
    assertTrue(all.size() > 2);
    assertEquals(1, search("&facets=month&facet_limit=0", ALL).get("facets").get("month").size(), "clamped to 1");
    assertEquals("2026-03", search("&facets=month&facet_limit=1", ALL).get("facets").get("month").get(0).get("value").asText(),
        "the newest month");
    assertEquals(List.of("month", "platform"), ApiServer.fields(search("&facets=month,platform,month", ALL).get("facets")));
    assertEquals(List.of("platform", "month"), ApiServer.fields(search("&facets=" + "platform,%20month", ALL).get("facets")));
    JsonNode none = search("&facets=platform,company&from=2027-01-01", ALL);
    assertEquals(0, none.get("total").asInt());
    assertEquals(0, none.get("facets").get("platform").size());
    assertEquals(0, none.get("facets").get("company").size());
  }

  @Test
  void eachUnusableValueIs400NamingItself() {
    List<Map.Entry<String, String>> bad = List.of(Map.entry("order", "newest"), Map.entry("order", "-rank"),
        Map.entry("offset", "901&limit=100"), Map.entry("offset", "950&limit=500"), Map.entry("offset", "2.5"),
        Map.entry("facets", "platform,speaker"), Map.entry("facets", ""), Map.entry("facets", "platform,"),
        Map.entry("facet_limit", "ten"), Map.entry("moments", "1e3"));
    for (Map.Entry<String, String> e : bad) {
      ApiServer.Response r = api.get("/api/v1/search?q=quarterly&" + e.getKey() + "=" + e.getValue(), ALL);
      assertEquals(400, r.status(), e + ": " + r.body());
      assertEquals(e.getKey(), r.json().at("/error/field").asText(), e.toString());
      assertTrue(r.json().at("/error/message").asText().startsWith(e.getKey() + " must be"), r.body());
    }
    ApiServer.Response deep = api.get("/api/v1/search?q=quarterly&offset=901&limit=100", ALL);
    assertEquals("offset must be an integer from 0 to 900: offset + limit may be at most 1000",
        deep.json().at("/error/message").asText());
    assertEquals(200, api.get("/api/v1/search?q=quarterly&offset=900&limit=500", ALL).status(),
        "limit is clamped to 100 before offset + limit is judged");
  }

  @Test
  void momentsNeedTranscriptsReadAndAgreeWithTheTranscriptSearch() {
    ApiServer.Response refused = api.get("/api/v1/search?q=quarterly&moments=1", MEETINGS);
    assertEquals(403, refused.status(), refused.body());
    assertEquals("Bearer error=\"insufficient_scope\", scope=\"transcripts:read\"", refused.header("WWW-Authenticate"));
    assertEquals("forbidden", refused.json().at("/error/code").asText());
    assertEquals(200, api.get("/api/v1/search?q=quarterly&moments=0", MEETINGS).status(), "moments 0 asks for none");
    for (String key : List.of(ALL, ANN)) {
      for (String q : List.of("quarterly", "quarterly%20review", "%22the%20numbers%22", "thanks", "quarterly%20today")) {
        JsonNode body = api.get("/api/v1/search?limit=100&moments=10&q=" + q, key).json();
        for (JsonNode hit : body.get("data")) {
          assertEquals(List.of("meeting_id", "title", "platform", "starts_at", "created_at", "rank", "snippet", "matched_in",
              "moments", "moments_total"), ApiServer.fields(hit));
          JsonNode inMeeting = api.get("/api/v1/meetings/" + hit.get("meeting_id").asText() + "/transcript/search?q=" + q, key)
              .json().get("data");
          assertEquals(inMeeting, hit.get("moments"), q);
          assertEquals(inMeeting.size(), hit.get("moments_total").asInt(), q);
        }
        JsonNode one = api.get("/api/v1/search?limit=100&moments=1&q=" + q, key).json();
        for (JsonNode hit : one.get("data")) {
          assertTrue(hit.get("moments").size() <= 1);
          assertEquals(hit.get("moments_total").asInt() > 0, hit.get("moments").size() == 1);
        }
      }
    }
    JsonNode across = api.get("/api/v1/search?moments=3&q=%22numbers%20thanks%22", ALL).json().get("data");
    assertEquals(14, across.size(), "the transcript is one field: the phrase across two segments finds every meeting");
    for (JsonNode hit : across) {
      assertEquals(0, hit.get("moments_total").asInt(), "but no segment holds it");
      assertEquals(0, hit.get("moments").size());
    }
    JsonNode first = search("&moments=3", ALL).get("data").get(0);
    assertEquals(1, first.get("moments_total").asInt());
    assertEquals(0, first.at("/moments/0/index").asInt());
    assertEquals("Host", first.at("/moments/0/speaker_name").asText());
    assertEquals(5000, first.at("/moments/0/end_ms").asInt());
    assertTrue(first.at("/moments/0/snippet").asText().startsWith("<mark>quarterly</mark> <mark>quarterly</mark>"));
  }

  static boolean inCompany(Meeting m, String company) {
    return m.emails().stream().anyMatch(e -> COMPANY_DOMAINS.get(company).contains(e.substring(e.indexOf('@') + 1)));
  }

  /** Values with counts of meetings, highest first, ties by value; or newest first. */
  static JsonNode expected(List<Meeting> matching, java.util.function.Function<Meeting, List<String>> values,
      boolean newestFirst) {
    Map<String, Integer> counts = new TreeMap<>();
    for (Meeting m : matching) for (String v : new java.util.TreeSet<>(values.apply(m))) counts.merge(v, 1, Integer::sum);
    List<Map.Entry<String, Integer>> sorted = new ArrayList<>(counts.entrySet());
    sorted.sort(newestFirst ? Map.Entry.<String, Integer>comparingByKey().reversed()
        : Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map.Entry<String, Integer> e : sorted) out.add(Map.of("value", e.getKey(), "count", e.getValue()));
    return new ObjectMapper().valueToTree(out);
  }

  static JsonNode expectedCompanies(List<Meeting> matching) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (String company : COMPANY_DOMAINS.keySet()) {
      long n = matching.stream().filter(m -> inCompany(m, company)).count();
      if (n > 0) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("value", company);
        row.put("name", COMPANY_NAMES.get(company));
        row.put("count", (int) n);
        out.add(row);
      }
    }
    out.sort(Comparator.comparing((Map<String, Object> r) -> -(Integer) r.get("count"))
        .thenComparing(r -> (String) r.get("value")));
    return new ObjectMapper().valueToTree(out);
  }
}
