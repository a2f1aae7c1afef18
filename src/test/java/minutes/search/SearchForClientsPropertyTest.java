package minutes.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import minutes.ApiServer;
import minutes.Property;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * total, facets, date order, paging and moments of GET /search against a plain oracle, over
 * generated meetings (a few made-up words in titles, minutes and transcript segments, dates
 * that tie, participants of companies that share a domain, meetings seen by different people):
 * for generated queries, keys, filters, orders and pages, on the real server. The oracle reads
 * the generated data only: a meeting matches when one of its fields holds every word and
 * phrase, a segment when it does. On the project's seeded {@link Property} harness (not jqwik:
 * from 1.10 its maintainers ask that it not be used with AI coding agents): 60 + 60 + 60 + 40 cases,
 * the run's seed in every failure.
 */
class SearchForClientsPropertyTest {
  private static final String[] GAPS = {" ", "  ", "\n", " \t", "\u00a0"};
  private static final String[] SPEAKERS = {"Ann", "Bob", "Zoë Ølsen", "李雷"};

  private static final String[] WORDS = {"alpha", "bravo", "delta", "echo", "golf", "hotel", "kilo", "lima"};
  private static final String[] PLATFORMS = {"zoom", "teams", "meet", "upload"};
  private static final String[] DAYS = {"2026-01-05T09:00:00Z", "2026-01-05T09:00:00Z", "2026-02-10T14:00:00Z",
      "2026-03-31T23:59:59Z", "2026-04-01T00:00:00Z", "2025-12-24T08:00:00Z"};
  /** Company id, name, domains: two companies share initech.de. */
  private static final String[][] COMPANIES = {
      {SearchData.id("gen company globex"), "Globex Gen", "globex.test"},
      {SearchData.id("gen company initech"), "Initech Gen", "initech.test initech.de"},
      {SearchData.id("gen company umbrella"), "Umbrella Gen", "initech.de umbrella.test"}};
  /** The companies search-filters.ndjson gives the workspace, which count the generated meetings too. */
  private static final String[][] FIXTURE_COMPANIES = {
      {SearchFiltersTest.GLOBEX, "Globex", "globex.com"}, {SearchFiltersTest.INITECH, "Initech", "initech.com initech.de"},
      {SearchFiltersTest.HOOLI, "Hooli", "hooli.com"}, {SearchFiltersTest.MOVING, "Moving Co", "nowhere.example"}};
  private static final String[] EMAILS = {"ann@acme.com", "Bob@Acme.com", "hans@globex.test", "Ines@Initech.DE",
      "jo@initech.test", "kim@umbrella.test", "lee@elsewhere.test", null};

  /** A generated meeting as the oracle sees it. */
  record Meeting(String id, String title, String platform, String at, List<String> emails, List<String> viewers,
      String minutes, List<String> segments) {}

  static final List<Meeting> GENERATED = generate(new Random(32));
  static final ApiServer api = new ApiServer("/search-filters.ndjson", Map.of(), out -> {
    ObjectMapper json = new ObjectMapper();
    for (String[] c : COMPANIES) {
      ObjectNode n = json.createObjectNode().put("kind", "company").put("workspace", "acme").put("id", c[0]).put("name", c[1]);
      ArrayNode domains = n.putArray("domains");
      for (String d : c[2].split(" ")) domains.add(d);
      out.write(n + "\n");
    }
    for (Meeting m : GENERATED) out.write(line(json, m) + "\n");
  });

  @BeforeAll
  static void start() throws Exception {
    api.beforeAll(null);
  }

  @AfterAll
  static void stop() throws Exception {
    api.afterAll(null);
  }

  static List<Meeting> generate(Random r) {
    List<Meeting> out = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      String platform = PLATFORMS[r.nextInt(PLATFORMS.length)];
      List<String> emails = new ArrayList<>();
      for (int k = r.nextInt(4); k > 0; k--) emails.add(EMAILS[r.nextInt(EMAILS.length)]);
      List<String> viewers = new ArrayList<>();
      if (r.nextBoolean()) viewers.add("ann@acme.com");
      if (r.nextBoolean()) viewers.add("bob@acme.com");
      List<String> segments = new ArrayList<>();
      for (int k = r.nextInt(5); k > 0; k--) segments.add(spoken(r, 1 + r.nextInt(5)));
      out.add(new Meeting(SearchData.id("generated " + i), words(r, 2), platform, DAYS[r.nextInt(DAYS.length)], emails,
          viewers, r.nextInt(3) == 0 ? "" : words(r, 3 + r.nextInt(6)), segments));
    }
    return out;
  }

  static String words(Random r, int n) {
    List<String> w = new ArrayList<>();
    for (int i = 0; i < n; i++) w.add(WORDS[r.nextInt(WORDS.length)]);
    return String.join(" ", w);
  }

  /**
   * A segment's text: mostly words a space apart, as the index holds them; sometimes with the
   * runs of spaces, tabs, line breaks and outer spaces that the index collapses, so that moments
   * are also shown from the database's text.
   */
  static String spoken(Random r, int n) {
    if (r.nextInt(3) > 0) return words(r, n);
    StringBuilder out = new StringBuilder(r.nextBoolean() ? " " : "");
    for (int i = 0; i < n; i++) {
      if (i > 0) out.append(GAPS[r.nextInt(GAPS.length)]);
      out.append(WORDS[r.nextInt(WORDS.length)]);
    }
    return out.append(r.nextBoolean() ? "\n" : "").toString();
  }

  static ObjectNode line(ObjectMapper json, Meeting m) {
    ObjectNode n = json.createObjectNode().put("kind", "meeting").put("workspace", "acme").put("id", m.id())
        .put("title", m.title()).put("platform", m.platform()).put("source", m.platform().equals("upload") ? "upload" : "calendar")
        .put("status", "ready").put("created_at", m.at())
        .put("language", "en"); // the oracle reads words by English rules, whatever detection would take them for
    if (!m.platform().equals("upload")) n.put("starts_at", m.at()); // an upload counts by created_at
    m.viewers().forEach(n.putArray("visible_to")::add);
    ArrayNode people = n.putArray("participants");
    for (String e : m.emails()) people.addObject().put("display_name", "P").put("email", e).put("source", "calendar");
    if (!m.minutes().isEmpty()) {
      n.putArray("protocols").addObject().put("id", SearchData.id("minutes of " + m.id())).put("content_md", m.minutes())
          .put("generated_at", m.at());
    }
    ArrayNode transcript = n.putArray("transcript");
    for (int i = 0; i < m.segments().size(); i++) {
      // Speakers come back, and every third segment has no end (the import keeps segments in time order).
      long start = 1000L * i + m.title().length();
      ObjectNode segment = transcript.addObject().put("speaker_name", SPEAKERS[(i * 7 + m.title().length()) % SPEAKERS.length])
          .put("start_ms", start).put("text", m.segments().get(i));
      if (i % 3 != 2) segment.put("end_ms", start + 300L * i);
    }
    return n;
  }

  /** A query: one to three clauses, each a word or a two-word phrase. */
  record Query(List<List<String>> clauses) {
    String text() {
      return String.join(" ", clauses.stream().map(c -> c.size() == 1 ? c.get(0) : "\"" + String.join(" ", c) + "\"").toList());
    }

    /** Whether the text holds every clause (a phrase as consecutive words). */
    boolean in(String text) {
      List<String> tokens = List.of(text.replace('\u00a0', ' ').strip().split("\\s+"));
      return clauses.stream().allMatch(c -> Collections.indexOfSubList(tokens, c) >= 0);
    }

    boolean matches(Meeting m) {
      return in(m.title()) || in(m.minutes()) || in(String.join(" ", m.segments()));
    }
  }

  /** The filters and key of a request. */
  record Asked(Query q, String key, String platform, String from, String to) {
    String params() {
      return "q=" + enc(q.text()) + (platform == null ? "" : "&platform=" + platform) + (from == null ? "" : "&from=" + from)
          + (to == null ? "" : "&to=" + to);
    }

    List<Meeting> expected() {
      return GENERATED.stream().filter(m -> key.equals(ALL) || m.viewers().contains(key.equals(ANN) ? "ann@acme.com" : "bob@acme.com"))
          .filter(m -> platform == null || m.platform().equals(platform))
          .filter(m -> from == null || m.at().compareTo(from) >= 0)
          .filter(m -> to == null || m.at().compareTo(to) < 0)
          .filter(q::matches).toList();
    }
  }

  /** Cases' sizes: 0 asks one word, 1 up to two clauses, 2 and more the whole space (1-3 clauses of 1-2 words). */
  static final int MAX_SIZE = 10;

  /**
   * A request: one to three clauses of one or two of the words (fewer for the first, smallest
   * cases), any key, and a platform, from and to each left out six times in ten.
   */
  static Asked asked(Property.Case c) {
    List<List<String>> clauses = new ArrayList<>();
    for (int i = c.between(1, Math.min(3, 1 + c.size())); i > 0; i--) {
      List<String> clause = new ArrayList<>();
      for (int k = c.between(1, c.size() == 0 ? 1 : 2); k > 0; k--) clause.add(c.pick(List.of(WORDS)));
      clauses.add(clause);
    }
    return new Asked(new Query(clauses), c.pick(List.of(ALL, ANN, BOB)), c.chance(0.6) ? null : c.pick(List.of(PLATFORMS)),
        c.chance(0.6) ? null : c.pick(List.of(DAYS)), c.chance(0.6) ? null : c.pick(List.of(DAYS)));
  }

  /** An int in [from, to] with its corners often: {@code low} and {@code high} a sixth of the time each. */
  static int withCorners(Property.Case c, int from, int to, int low, int high) {
    return switch (c.nextInt(6)) {
      case 0 -> low;
      case 1 -> high;
      default -> c.between(from, to);
    };
  }

  @Test
  void totalAndFacetsCountTheMatchingVisibleMeetings() {
    Property.forAll("total and facets count the matching visible meetings", 60, MAX_SIZE,
        c -> totalAndFacets(asked(c), withCorners(c, -2, 120, 1, 100), // facet_limit out of range is clamped to 1-100
            c.pick(List.of("rank", "starts_at", "-starts_at")), withCorners(c, 1, 20, 1, 100)));
  }

  /** Also: the page that comes with facets (collected in the same pass as they are) is the page without them. */
  static void totalAndFacets(Asked a, int facetLimit, String order, int pageLimit) {
    String asked = "/api/v1/search?" + a.params() + "&order=" + order + "&limit=" + pageLimit;
    JsonNode body = get(asked + "&facets=platform,company,participant,month&facet_limit=" + facetLimit, a.key());
    assertEquals(get(asked, a.key()).get("data"), body.get("data"), a + " by " + order + " limit " + pageLimit);
    List<Meeting> matching = a.expected();
    assertEquals(matching.size(), body.get("total").asInt(), a.toString());
    int limit = Math.max(1, Math.min(100, facetLimit));
    JsonNode facets = body.get("facets");
    assertEquals(counts(matching, m -> List.of(m.platform()), false, limit), facets.get("platform"), a.toString());
    assertEquals(counts(matching, m -> m.emails().stream().filter(e -> e != null).map(e -> e.toLowerCase(Locale.ROOT)).toList(),
        false, limit), facets.get("participant"), a.toString());
    assertEquals(counts(matching, m -> List.of(m.at().substring(0, 7)), true, limit), facets.get("month"), a.toString());
    assertEquals(companies(matching, limit), facets.get("company"), a.toString());
  }

  @Test
  void pagesOfEveryOrderJoinIntoTheWholeOrder() {
    Property.forAll("pages of every order join into the whole order", 60, MAX_SIZE,
        c -> pages(asked(c), c.pick(List.of("rank", "starts_at", "-starts_at")), withCorners(c, 1, 7, 1, 7)));
  }

  static void pages(Asked a, String order, int limit) {
    List<String> whole = column(get("/api/v1/search?" + a.params() + "&limit=100&order=" + order, a.key()));
    if (!order.equals("rank")) {
      Comparator<Meeting> byTime = order.equals("starts_at") ? Comparator.comparing(Meeting::at)
          : Comparator.comparing(Meeting::at).reversed();
      assertEquals(a.expected().stream().sorted(byTime.thenComparing(Meeting::id)).map(Meeting::id).toList(), whole,
          a.toString());
    } else {
      assertEquals(new TreeSet<>(a.expected().stream().map(Meeting::id).toList()), new TreeSet<>(whole), a.toString());
    }
    List<String> paged = new ArrayList<>();
    for (int offset = 0; offset <= whole.size(); offset += limit) {
      JsonNode page = get("/api/v1/search?" + a.params() + "&order=" + order + "&limit=" + limit + "&offset=" + offset, a.key());
      assertEquals(whole.size(), page.get("total").asInt(), a.toString());
      paged.addAll(column(page));
    }
    assertEquals(whole, paged, a + " by " + limit);
  }

  /**
   * A date order ranks its page itself, each field scored once (Hits.describe), not by the
   * score it collected by: every hit must still be the very hit rank order shows, rank,
   * matched_in, snippet and moments alike ("the hits keep the rank they have in rank order").
   * Queries of an absent word, only punctuation, pages past the end and single hits included.
   */
  @Test
  void dateOrdersShowEachHitAsRankOrderShowsIt() {
    Property.forAll("date orders show each hit as rank order shows it", 60, MAX_SIZE, c -> {
      Asked a = asked(c);
      if (c.chance(0.1)) { // nothing matches: a word no meeting holds, or no word at all
        a = new Asked(new Query(List.of(List.of(c.chance(0.5) ? "zulu" : "--"))), a.key(), a.platform(), a.from(), a.to());
      }
      sameHits(a, c.pick(List.of("starts_at", "-starts_at")), withCorners(c, 1, 20, 1, 100), withCorners(c, 0, 40, 0, 61),
          withCorners(c, 0, 3, 0, 3));
    });
  }

  static void sameHits(Asked a, String order, int limit, int offset, int moments) {
    String asked = "/api/v1/search?" + a.params() + "&moments=" + moments;
    Map<String, JsonNode> ranked = new LinkedHashMap<>();
    for (JsonNode h : get(asked + "&limit=100", a.key()).get("data")) ranked.put(h.get("meeting_id").asText(), h);
    assertEquals(a.expected().size(), ranked.size(), a.toString()); // every match: there are fewer than 100
    JsonNode page = get(asked + "&order=" + order + "&limit=" + limit + "&offset=" + offset, a.key()).get("data");
    String what = a + " by " + order + " limit " + limit + " offset " + offset + " moments " + moments;
    assertEquals(Math.max(0, Math.min(limit, ranked.size() - offset)), page.size(), what);
    for (JsonNode h : page) assertEquals(ranked.get(h.get("meeting_id").asText()), h, what);
  }

  @Test
  void momentsAreTheSegmentsThatHoldTheQueryAsTheTranscriptSearchFindsThem() {
    Property.forAll("moments are the segments that hold the query as the transcript search finds them", 40, MAX_SIZE,
        c -> moments(asked(c), withCorners(c, 1, 10, 1, 10)));
  }

  static void moments(Asked a, int moments) {
    JsonNode hits = get("/api/v1/search?" + a.params() + "&limit=100&moments=" + moments, a.key()).get("data");
    Map<String, Meeting> byId = new LinkedHashMap<>();
    GENERATED.forEach(m -> byId.put(m.id(), m));
    for (JsonNode hit : hits) {
      Meeting m = byId.get(hit.get("meeting_id").asText());
      List<Integer> segments = new ArrayList<>();
      for (int i = 0; i < m.segments().size(); i++) if (a.q().in(m.segments().get(i))) segments.add(i);
      assertEquals(segments.size(), hit.get("moments_total").asInt(), a + " in " + m);
      List<Integer> shown = new ArrayList<>();
      hit.get("moments").forEach(s -> shown.add(s.get("index").asInt()));
      assertEquals(segments.subList(0, Math.min(moments, segments.size())), shown, a + " in " + m);
      JsonNode inMeeting = get("/api/v1/meetings/" + m.id() + "/transcript/search?q=" + enc(a.q().text()), a.key()).get("data");
      for (int i = 0; i < shown.size(); i++) assertEquals(inMeeting.get(i), hit.get("moments").get(i), a.toString());
    }
  }

  /**
   * With match=most the moments are the segments holding any clause, best first or in time
   * order as moments_order says, found by the index exactly as the transcript search finds them
   * in the text: the same segments, order, times and snippets, and moments_total all of them.
   */
  @Test
  void matchMostMomentsAreWhatTheTranscriptSearchFindsInEitherOrder() {
    Property.forAll("match=most moments as the transcript search finds them", 40, MAX_SIZE,
        c -> mostMoments(asked(c), withCorners(c, 1, 10, 1, 10), c.chance(0.5) ? "&moments_order=time" : ""));
  }

  static void mostMoments(Asked a, int moments, String order) {
    String asked = "&match=most" + order;
    JsonNode hits = get("/api/v1/search?" + a.params() + "&limit=100&moments=" + moments + asked, a.key()).get("data");
    for (JsonNode hit : hits) {
      String id = hit.get("meeting_id").asText();
      JsonNode inMeeting = get("/api/v1/meetings/" + id + "/transcript/search?limit=500&q=" + enc(a.q().text()) + asked,
          a.key()).get("data");
      assertEquals(inMeeting.size(), hit.get("moments_total").asInt(), a + asked + " in " + id);
      assertEquals(Math.min(moments, inMeeting.size()), hit.get("moments").size(), a + asked + " in " + id);
      for (int i = 0; i < hit.get("moments").size(); i++) {
        assertEquals(inMeeting.get(i), hit.get("moments").get(i), a + asked + " in " + id);
      }
    }
  }

  static JsonNode get(String pathAndQuery, String key) {
    ApiServer.Response r = api.get(pathAndQuery, key);
    assertEquals(200, r.status(), pathAndQuery + ": " + r.body());
    return r.json();
  }

  static List<String> column(JsonNode body) {
    return ApiServer.column(body, "meeting_id");
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** Values with their counts of meetings: highest first, ties by value; or newest first; at most limit. */
  static JsonNode counts(List<Meeting> matching, java.util.function.Function<Meeting, List<String>> values,
      boolean newestFirst, int limit) {
    Map<String, Integer> counts = new TreeMap<>();
    for (Meeting m : matching) for (String v : new TreeSet<>(values.apply(m))) counts.merge(v, 1, Integer::sum);
    List<Map.Entry<String, Integer>> sorted = new ArrayList<>(counts.entrySet());
    sorted.sort(newestFirst ? Map.Entry.<String, Integer>comparingByKey().reversed()
        : Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map.Entry<String, Integer> e : sorted.subList(0, Math.min(limit, sorted.size()))) {
      out.add(Map.of("value", e.getKey(), "count", e.getValue()));
    }
    return new ObjectMapper().valueToTree(out);
  }

  /** Companies with a participant of a matching meeting in one of their domains, each meeting counted once. */
  static JsonNode companies(List<Meeting> matching, int limit) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (String[] c : java.util.stream.Stream.concat(java.util.Arrays.stream(COMPANIES), java.util.Arrays.stream(FIXTURE_COMPANIES))
        .toList()) {
      List<String> domains = List.of(c[2].split(" "));
      long n = matching.stream().filter(m -> m.emails().stream().anyMatch(e -> e != null
          && domains.contains(e.substring(e.indexOf('@') + 1).toLowerCase(Locale.ROOT)))).count();
      if (n == 0) continue;
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("value", c[0]);
      row.put("name", c[1]);
      row.put("count", (int) n);
      out.add(row);
    }
    out.sort(Comparator.comparing((Map<String, Object> r) -> -(Integer) r.get("count")).thenComparing(r -> (String) r.get("value")));
    return new ObjectMapper().valueToTree(out.subList(0, Math.min(limit, out.size())));
  }
}
