package minutes.search.query;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import minutes.Property;
import minutes.TestStore;
import minutes.json.Jackson;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.search.SearchApi;
import minutes.search.SearchData;
import minutes.search.index.IndexDirs;
import minutes.search.index.MeetingDocument;
import minutes.search.index.SearchIndex;
import minutes.search.text.SearchAnalyzer;
import minutes.search.text.SearchQuery.Match;
import minutes.store.Db;
import minutes.store.Importer;
import minutes.store.WorkspaceCompanies;
import org.apache.lucene.facet.FacetsCollector;
import org.apache.lucene.facet.FacetsCollectorManager;
import org.apache.lucene.facet.sortedset.SortedSetDocValuesFacetCounts;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The company facet over companies held by import count ({@link Facets#companies}) counts as
 * over companies read from the database, on generated workspaces: companies sharing domains
 * within and across workspaces, with equal names, participants of those domains and of many
 * others, in upper case or none. Each case imports its own workspaces into one store and index,
 * then checks, per workspace, that the held list is {@link WorkspaceCompanies#read}'s, that the
 * counts equal an oracle over the generated data whether the list was just read or held, and
 * that walking a segment's domains maps them to the companies as seeking them does. Then an
 * import of companies alone (new domains, a company deleted) moves the import count but not the
 * data version, and the counts follow it. The run's store (SQLite or PostgreSQL); the project's
 * seeded {@link Property} harness.
 */
class CompanyFacetPropertyTest {
  private static final String[] NAMES = {"Globex", "globex", "Alpha", "Zeta", "Ölwerk", "Émile"};

  @TempDir static Path dir;
  static TestStore testStore;
  static Db db;
  static SearchIndex index;

  @BeforeAll
  static void setUp() throws Exception {
    testStore = TestStore.createMigrated(dir);
    importLines(List.of("{\"kind\":\"workspace\",\"slug\":\"seed\",\"name\":\"Seed\"}"));
    db = Db.open(testStore.store(), 2);
    index = SearchIndex.open(dir.resolve("index"), db);
    index.syncOnce(); // builds the first generation
    index.syncOnce(); // opens it
    assertTrue(index.ready());
  }

  @AfterAll
  static void tearDown() {
    if (index != null) index.close();
    if (db != null) db.close();
    if (testStore != null) testStore.close();
  }

  static void importLines(List<String> lines) throws Exception {
    Path file = Files.createTempFile(dir, "data-", ".ndjson");
    Files.write(file, lines);
    new Importer(testStore.store(), Importer.Progress.NONE).run(List.of(file));
  }

  /** A generated company: id, name, domains (lower case) in the order generated. */
  record Company(String id, String name, List<String> domains) {}

  /** A generated meeting of a workspace: its participants' domains (lower case; null: no email). */
  record Meeting(String id, List<String> domains) {}

  /** A generated workspace. */
  record Workspace(String slug, List<Company> companies, List<Meeting> meetings) {}

  private static int caseNumber;

  @Test
  void companyFacetCountsAsTheDatabaseSaysHeldOrRead() {
    Property.forAll("company facet counts as the database says, held or read", 12, 8, this::check);
  }

  void check(Property.Case c) throws Exception {
    int n = caseNumber++;
    // Domains: a few the companies draw from, shared across the case's workspaces, and many
    // only participants have, so that a segment holds far more domains than the companies.
    List<String> companyDomains = new ArrayList<>(), otherDomains = new ArrayList<>();
    for (int i = 0; i < 1 + c.size(); i++) companyDomains.add("co" + i + ".case" + n + ".test");
    for (int i = 0; i < c.between(0, 6 * (1 + c.size())); i++) otherDomains.add("x" + i + ".case" + n + ".test");
    List<Workspace> workspaces = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    for (int w = 0; w < c.between(1, 3); w++) {
      String slug = "case" + n + "-" + w;
      lines.add("{\"kind\":\"workspace\",\"slug\":\"" + slug + "\",\"name\":\"W\"}");
      List<Company> companies = new ArrayList<>();
      for (int k = 0; k < c.between(0, 2 + c.size()); k++) {
        companies.add(company(c, new UUID(n + 1, w * 1000L + k).toString(), companyDomains));
      }
      companies.forEach(co -> lines.add(line(slug, co)));
      List<Meeting> meetings = new ArrayList<>();
      for (int m = 0; m < c.between(0, 4 + 3 * c.size()); m++) {
        List<String> domains = new ArrayList<>();
        for (int p = c.between(0, 4); p > 0; p--) {
          domains.add(c.chance(0.15) ? null
              : c.chance(0.6) || otherDomains.isEmpty() ? c.pick(companyDomains) : c.pick(otherDomains));
        }
        Meeting meeting = new Meeting(new UUID(n + 1, 1_000_000L + w * 1000L + m).toString(), domains);
        meetings.add(meeting);
        lines.add(line(c, slug, meeting));
      }
      workspaces.add(new Workspace(slug, companies, meetings));
    }
    importLines(lines);
    index.syncOnce(); // applies the case's meetings

    Facets facets = new Facets();
    Map<String, Facets.Companies> held = new HashMap<>();
    for (Workspace w : workspaces) held.put(w.slug(), checkWorkspace(facets, w));

    // Companies alone change: new domains for some, one deleted; no meeting is touched.
    long version = version();
    List<String> changes = new ArrayList<>();
    List<Workspace> changed = new ArrayList<>();
    for (Workspace w : workspaces) {
      List<Company> companies = new ArrayList<>();
      for (Company co : w.companies()) {
        if (c.chance(0.2)) {
          changes.add("{\"kind\":\"delete\",\"workspace\":\"" + w.slug() + "\",\"what\":\"company\",\"id\":\"" + co.id() + "\"}");
          continue;
        }
        Company now = c.chance(0.5) ? company(c, co.id(), companyDomains) : co;
        if (now != co) changes.add(line(w.slug(), now));
        companies.add(now);
      }
      changed.add(new Workspace(w.slug(), companies, w.meetings()));
    }
    changes.add("{\"kind\":\"workspace\",\"slug\":\"seed\",\"name\":\"Seed\"}"); // an import even when nothing changed
    importLines(changes);
    assertEquals(version, version(), "an import of companies alone leaves the data version as it was");
    for (Workspace w : changed) assertNotSame(held.get(w.slug()), checkWorkspace(facets, w), "held at another import count");
  }

  /** Checks one workspace; returns the companies {@code facets} holds for it. */
  Facets.Companies checkWorkspace(Facets facets, Workspace w) throws Exception {
    try (Connection c = db.read()) {
      c.setAutoCommit(true); // GET /search reads statement by statement
      long id = Db.workspaceId(c, w.slug()).orElseThrow();
      Facets.Companies before = facets.companies(c, id);
      Facets.Companies held = facets.companies(c, id);
      assertSame(before, held, "held at one import count");
      List<WorkspaceCompanies.Company> read = WorkspaceCompanies.read(c, id);
      assertEquals(read, held.list, w.slug());
      assertEquals(byDomain(read), byDomain(held), w.slug());
      Principal who = new Principal("k", id, null, EnumSet.allOf(Scope.class), Set.of());
      SearchRequest r = new SearchRequest(SearchApi.query("zebra", new SearchAnalyzer()), SearchFilters.NONE, 1, 0,
          SearchRequest.Order.RANK, List.of(Facets.COMPANY, Facets.PLATFORM), 100, 0, true, Match.ALL, false);
      List<SearchHit.CompanyCount> expected = oracle(w, read);
      // The index's own Facets: read on the first search of a case, held on the second.
      for (int i = 0; i < 2; i++) {
        SearchHit.Result found = SearchData.answer(index, c, OptionalLong.empty(), who, r, () -> false);
        assertEquals(w.meetings().size(), found.total(), w.slug());
        assertEquals(expected, found.facets().get(Facets.COMPANY), w + " search " + i);
      }
      segments(held);
      return held;
    }
  }

  /**
   * Walking each segment's domains and seeking the companies' give the same map, the one a plain
   * look-up gives; counting a company of one domain by its domain's count gives what walking the
   * matches for it gives.
   */
  static void segments(Facets.Companies of) throws Exception {
    String current = IndexDirs.current(dir.resolve("index"));
    try (FSDirectory d = FSDirectory.open(dir.resolve("index").resolve(current));
        DirectoryReader reader = DirectoryReader.open(d)) {
      Map<BytesRef, int[]> byDomain = of.byDomain();
      for (LeafReaderContext leaf : reader.leaves()) {
        SortedSetDocValues domains = DocValues.getSortedSet(leaf.reader(), MeetingDocument.PARTICIPANT_DOMAIN);
        int[][] plain = null;
        for (long ord = 0; ord < domains.getValueCount(); ord++) {
          int[] in = byDomain.get(BytesRef.deepCopyOf(domains.lookupOrd(ord)));
          if (in == null) continue;
          if (plain == null) plain = new int[(int) domains.getValueCount()][];
          plain[(int) ord] = in;
        }
        assertArrayEquals(plain, Facets.companiesByOrd(DocValues.getSortedSet(leaf.reader(), MeetingDocument.PARTICIPANT_DOMAIN), byDomain, true));
        assertArrayEquals(plain, Facets.companiesByOrd(DocValues.getSortedSet(leaf.reader(), MeetingDocument.PARTICIPANT_DOMAIN), byDomain, false));
      }
      // Over every meeting of the index, all workspaces': domains shared with other workspaces'
      // companies and meetings that count for several companies.
      if (reader.numDocs() == 0) return;
      FacetsCollector all = new IndexSearcher(reader).search(new MatchAllDocsQuery(), new FacetsCollectorManager());
      SortedSetDocValuesFacetCounts counts = new Facets().counts(reader, all);
      assertEquals(Facets.companies(all, counts, of, Integer.MAX_VALUE, true),
          Facets.companies(all, counts, of, Integer.MAX_VALUE, false), "one-domain companies by their domain's count, as walked");
    }
  }

  /** Each domain's companies as indexes into {@code list}, ascending, from the list alone. */
  static Map<String, List<Integer>> byDomain(List<WorkspaceCompanies.Company> list) {
    Map<String, List<Integer>> out = new HashMap<>();
    for (int i = 0; i < list.size(); i++) {
      for (String d : list.get(i).domains()) out.computeIfAbsent(d, k -> new ArrayList<>()).add(i);
    }
    return out;
  }

  static Map<String, List<Integer>> byDomain(Facets.Companies of) {
    Map<String, List<Integer>> out = new HashMap<>();
    of.byDomain().forEach((d, in) -> out.put(d.utf8ToString(), java.util.Arrays.stream(in).boxed().toList()));
    return out;
  }

  /** Meetings per company with a participant in one of its domains, each once; highest first, ties by id. */
  static List<SearchHit.CompanyCount> oracle(Workspace w, List<WorkspaceCompanies.Company> names) {
    Map<String, String> nameOf = new LinkedHashMap<>();
    names.forEach(co -> nameOf.put(co.id(), co.name()));
    List<SearchHit.CompanyCount> out = new ArrayList<>();
    for (Company co : w.companies()) {
      int count = (int) w.meetings().stream().filter(m -> m.domains().stream().anyMatch(d -> d != null && co.domains().contains(d))).count();
      if (count > 0) out.add(new SearchHit.CompanyCount(co.id(), nameOf.get(co.id()), count));
    }
    out.sort(Comparator.comparingInt((SearchHit.CompanyCount v) -> -v.count()).thenComparing(SearchHit.CompanyCount::value));
    return out.subList(0, Math.min(100, out.size()));
  }

  static Company company(Property.Case c, String id, List<String> domainPool) {
    Set<String> domains = new LinkedHashSet<>();
    for (int d = c.between(0, 3); d > 0; d--) domains.add(c.pick(domainPool));
    return new Company(id, c.pick(List.of(NAMES)), List.copyOf(domains));
  }

  static String line(String slug, Company co) {
    ObjectNode n = Jackson.MAPPER.createObjectNode().put("kind", "company").put("workspace", slug).put("id", co.id())
        .put("name", co.name());
    ArrayNode domains = n.putArray("domains");
    // Upper case in the file: the database holds domains in lower case.
    for (String d : co.domains()) domains.add(d.length() % 2 == 0 ? d.toUpperCase(Locale.ROOT) : d);
    return n.toString();
  }

  static String line(Property.Case c, String slug, Meeting m) {
    ObjectNode n = Jackson.MAPPER.createObjectNode().put("kind", "meeting").put("workspace", slug).put("id", m.id())
        .put("title", "zebra sync").put("platform", "zoom").put("source", "calendar").put("status", "ready")
        .put("created_at", "2026-0" + c.between(1, 9) + "-01T10:00:00Z");
    ArrayNode people = n.putArray("participants");
    for (String d : m.domains()) {
      ObjectNode p = people.addObject().put("display_name", "P").put("source", "calendar");
      if (d != null) p.put("email", "p" + c.nextInt(3) + "@" + (c.chance(0.3) ? d.toUpperCase(Locale.ROOT) : d));
    }
    return n.toString();
  }

  static long version() throws Exception {
    try (Connection c = db.read()) {
      return Db.dataVersion(c);
    }
  }
}
