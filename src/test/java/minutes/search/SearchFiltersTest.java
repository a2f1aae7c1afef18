package minutes.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import minutes.ApiServer;
import minutes.store.Importer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static minutes.ApiServer.BOB;
import static minutes.ApiServer.OTHER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The search filters of decisions.md through the real server, over search-filters.ndjson: 14
 * meetings that all say "quarterly", each a different number of times (so the unfiltered
 * order is known), on every platform, with and without a start, with participants of two
 * companies. Each filtered answer must be exactly the unfiltered answer's meetings that pass
 * the filter, in the same order, for a workspace key and for personal keys.
 */
class SearchFiltersTest {
  @RegisterExtension static final ApiServer api = new ApiServer("/search-filters.ndjson");

  static final String GLOBEX = "a66ef916-61ee-53f7-94aa-e355e376b9a6", INITECH = "606df9f7-65da-5098-be79-9b91cf66895f",
      HOOLI = "9892ad78-fb64-525d-8aaa-3789797fc860", MOVING = "4ee9fcf3-9673-5b32-b4c9-092a912b8fd8",
      OTHERS_COMPANY = "00652873-51dc-54c3-956d-bed38484d379";

  /** A meeting of the fixture as the filters see it. */
  record Meeting(String id, String platform, String at, List<String> emails, List<String> viewers) {
    boolean hasDomain(String... domains) {
      for (String e : emails) for (String d : domains) if (e.endsWith("@" + d)) return true;
      return false;
    }
  }

  static final Map<String, Meeting> MEETINGS = new java.util.LinkedHashMap<>();

  @BeforeAll
  static void readFixture() throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    try (InputStream in = SearchFiltersTest.class.getResourceAsStream("/search-filters.ndjson")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        JsonNode n = mapper.readTree(line);
        if (!n.get("kind").asText().equals("meeting") || !n.get("workspace").asText().equals("acme")) continue;
        List<String> emails = new ArrayList<>(), viewers = new ArrayList<>();
        n.get("participants").forEach(p -> {
          if (!p.get("email").isNull()) emails.add(p.get("email").asText().toLowerCase(Locale.ROOT));
        });
        n.get("visible_to").forEach(v -> viewers.add(v.asText()));
        String at = n.has("starts_at") ? n.get("starts_at").asText() : n.get("created_at").asText();
        MEETINGS.put(n.get("id").asText(), new Meeting(n.get("id").asText(), n.get("platform").asText(), at, emails, viewers));
      }
    }
    assertEquals(14, MEETINGS.size());
  }

  static List<String> ids(String query, String key) {
    ApiServer.Response r = api.get("/api/v1/search?q=quarterly&limit=100" + query, key);
    assertEquals(200, r.status(), query + ": " + r.body());
    return ApiServer.column(r.json(), "meeting_id");
  }

  /** The unfiltered answer's meetings that pass {@code filter}, in its order. */
  static List<String> expected(String key, Predicate<Meeting> filter) {
    return ids("", key).stream().filter(id -> filter.test(MEETINGS.get(id))).toList();
  }

  static void assertFilters(String query, Predicate<Meeting> filter) {
    for (String key : List.of(ALL, ANN, BOB)) {
      List<String> want = expected(key, filter);
      assertEquals(want, ids(query, key), query + " as " + key);
    }
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Test
  void withoutFiltersEveryMeetingIsFoundInRankOrderAndPersonalKeysSeeTheirs() {
    List<String> all = ids("", ALL);
    assertEquals(14, all.size());
    assertEquals(new ArrayList<>(MEETINGS.keySet()), all, "meeting i says quarterly 14 - i times");
    assertEquals(expected(ALL, m -> m.viewers().contains("ann@acme.com")), ids("", ANN));
    assertEquals(7, ids("", ANN).size());
    assertEquals(2, ids("", OTHER).size());
  }

  @Test
  void platformKeepsThatPlatformOnly() {
    for (String platform : List.of("zoom", "teams", "meet", "upload")) {
      assertFilters("&platform=" + platform, m -> m.platform().equals(platform));
      assertFalse(expected(ALL, m -> m.platform().equals(platform)).isEmpty(), platform);
    }
  }

  @Test
  void fromIsInclusiveToExclusiveOnStartOrCreationTime() {
    // Meeting 2 starts at 2026-03-03T09:00:00Z; uploads have no start and count by created_at (February).
    String at = "2026-03-03T09:00:00Z";
    assertFilters("&from=" + at, m -> m.at().compareTo(at) >= 0);
    assertFilters("&to=" + at, m -> m.at().compareTo(at) < 0);
    assertTrue(ids("&from=" + at, ALL).contains(MEETINGS.keySet().toArray()[2]), "from includes its own second");
    assertFalse(ids("&to=" + at, ALL).contains(MEETINGS.keySet().toArray()[2]), "to excludes it");
    // A date means its start; an offset is converted.
    assertFilters("&from=2026-03-03", m -> m.at().compareTo("2026-03-03T00:00:00Z") >= 0);
    assertFilters("&to=2026-03-03", m -> m.at().compareTo("2026-03-03T00:00:00Z") < 0);
    assertEquals(ids("&from=" + at, ALL), ids("&from=" + enc("2026-03-03T10:00:00+01:00"), ALL));
    assertFilters("&from=2026-03-02&to=2026-03-08", m -> m.at().compareTo("2026-03-02") >= 0 && m.at().compareTo("2026-03-08") < 0);
    assertEquals(List.of(), ids("&from=2026-03-08&to=2026-03-02", ALL), "an empty range");
    assertFilters("&to=2026-03-01", m -> m.platform().equals("upload"));
  }

  @Test
  void participantMatchesAnyParticipantsEmailIgnoringCase() {
    assertFilters("&participant=hans@globex.com", m -> m.emails().contains("hans@globex.com"));
    assertEquals(ids("&participant=hans@globex.com", ALL), ids("&participant=" + enc("HANS@GLOBEX.COM"), ALL));
    assertFalse(ids("&participant=hans@globex.com", ALL).isEmpty());
    // Invited but absent counts; case folds beyond ASCII too.
    assertFilters("&participant=ines@initech.de", m -> m.emails().contains("ines@initech.de"));
    assertFalse(ids("&participant=ines@initech.de", ALL).isEmpty());
    assertEquals(List.of(MEETINGS.keySet().toArray()[6]), ids("&participant=" + enc("ÜLLA@Globex.com"), ALL));
    assertEquals(List.of(), ids("&participant=nobody@globex.com", ALL));
    assertEquals(List.of(), ids("&participant=hans@globex.com", OTHER).stream().filter(MEETINGS::containsKey).toList(),
        "another workspace's meetings stay another workspace's");
  }

  @Test
  void companyMatchesParticipantsInAnyOfItsDomains() {
    assertFilters("&company=" + GLOBEX, m -> m.hasDomain("globex.com"));
    assertFilters("&company=" + INITECH, m -> m.hasDomain("initech.com", "initech.de"));
    assertFilters("&company=" + HOOLI.toUpperCase(Locale.ROOT), m -> m.hasDomain("hooli.com"));
    assertFalse(ids("&company=" + INITECH, ALL).isEmpty());
    // Unknown or another workspace's: no hits, never an error.
    assertEquals(List.of(), ids("&company=" + SearchData.id("no such company"), ALL));
    assertEquals(List.of(), ids("&company=" + OTHERS_COMPANY, ALL), "another workspace's company");
    assertEquals(2, ids("&company=" + OTHERS_COMPANY, OTHER).size(), "its own workspace's key finds its meetings");
  }

  @Test
  void aCompanysNewDomainsApplyAtOnceWithoutReindex() throws Exception {
    assertEquals(List.of(), ids("&company=" + MOVING, ALL));
    Path file = Files.createTempFile("search-filters-", ".ndjson");
    try {
      Files.writeString(file, "{\"kind\":\"company\",\"workspace\":\"acme\",\"id\":\"" + MOVING
          + "\",\"name\":\"Moving Co\",\"domains\":[\"Hooli.com\"]}\n");
      new Importer(api.store(), Importer.Progress.NONE).run(List.of(file));
    } finally {
      Files.delete(file);
    }
    // No meeting changed, so there is nothing for the index to apply: the next search uses the new domains.
    assertFilters("&company=" + MOVING, m -> m.hasDomain("hooli.com"));
    assertFalse(ids("&company=" + MOVING, ALL).isEmpty());
  }

  @Test
  void filtersCombineAndLimitCountsOnlyMeetingsThatPassThem() {
    assertFilters("&platform=zoom&company=" + GLOBEX, m -> m.platform().equals("zoom") && m.hasDomain("globex.com"));
    assertFilters("&platform=teams&from=2026-03-05&participant=ann@acme.com",
        m -> m.platform().equals("teams") && m.at().compareTo("2026-03-05") >= 0 && m.emails().contains("ann@acme.com"));
    assertFilters("&participant=bob@acme.com&company=" + INITECH + "&to=2026-03-11",
        m -> m.emails().contains("bob@acme.com") && m.hasDomain("initech.com", "initech.de") && m.at().compareTo("2026-03-11") < 0);
    // The best meetings overall are on zoom; limit=2 with platform=teams still gives two teams meetings.
    List<String> teams = expected(ALL, m -> m.platform().equals("teams"));
    assertTrue(teams.size() >= 3);
    assertFalse(ids("", ALL).subList(0, 2).stream().anyMatch(teams::contains), "the top two overall are no teams meetings");
    ApiServer.Response r = api.get("/api/v1/search?q=quarterly&limit=2&platform=teams", ALL);
    assertEquals(teams.subList(0, 2), ApiServer.column(r.json(), "meeting_id"));
    List<String> annsTeams = expected(ANN, m -> m.platform().equals("teams"));
    r = api.get("/api/v1/search?q=quarterly&limit=1&platform=teams", ANN);
    assertEquals(annsTeams.subList(0, 1), ApiServer.column(r.json(), "meeting_id"), "a personal key's limit counts its own");
  }

  @Test
  void eachUnusableValueIs400NamingItself() {
    Map<String, List<String>> bad = Map.of(
        "from", List.of("2026-02-30", "yesterday", "2026-03-03T09:00", "", "1e3"),
        "to", List.of("2026-13-01", "03/03/2026", ""),
        "platform", List.of("skype", "Zoom", ""),
        "participant", List.of("ann", "ann@", "a b@acme.com", ""),
        "company", List.of("globex", "a66ef916-61ee-53f7-94aa", ""));
    for (Map.Entry<String, List<String>> e : bad.entrySet()) {
      for (String value : e.getValue()) {
        ApiServer.Response r = api.get("/api/v1/search?q=quarterly&" + e.getKey() + "=" + enc(value), ALL);
        assertEquals(400, r.status(), e.getKey() + "=" + value + ": " + r.body());
        JsonNode error = r.json().get("error");
        assertEquals("invalid_parameter", error.get("code").asText());
        assertEquals(e.getKey(), error.get("field").asText(), e.getKey() + "=" + value);
        assertTrue(error.get("message").asText().startsWith(e.getKey() + " must be"), error.toString());
      }
    }
  }
}
