package minutes.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.OptionalLong;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.http.ApiError;
import minutes.keys.Scope;
import minutes.keys.Principal;
import minutes.TestStore;
import minutes.store.Db;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SearchIndex in-process over a real SQLite file and real index files: matching, ranks, snippets, visibility. */
class SearchIndexTest {
  @TempDir static Path dir;
  static Db db;
  static TestStore testStore;
  static SearchIndex index;
  static Principal acme, other, ann, bob;

  static final String LONG_TAIL;

  static {
    StringBuilder b = new StringBuilder();
    while (b.length() < 60_000) b.append("we talked about nothing in particular for quite a while today. ");
    LONG_TAIL = b.toString();
  }

  @BeforeAll
  static void setUp() throws Exception {
    new SearchData()
        .workspace("acme", "ann@acme.com", "bob@acme.com")
        .workspace("other", "carl@other.com")
        .meeting("acme", "budget", "Budget review with Müller", "2026-03-02T09:00:00Z", List.of("Ann@Acme.com"),
            "# Decisions\n- **Launch** the [beta](https://example.com/beta) in `April`\n- __Café__ opens",
            "Welcome to the budget review.", "I will send <script>alert(\"x\")</script> & the forecast tomorrow.")
        .meeting("acme", "zeppelin-once", "Airship chat", "2026-03-01T09:00:00Z", List.of("bob@acme.com"),
            null, "A zeppelin flew over the office.", "Then lunch.")
        .meeting("acme", "zeppelin-often", "Airship deep dive", "2026-02-01T09:00:00Z", List.of("bob@acme.com"),
            null, "zeppelin zeppelin zeppelin.", "The zeppelin again, zeppelin everywhere.")
        .meeting("acme", "title-old", "Harbour logistics", "2026-01-05T09:00:00Z", List.of(), null, "Nothing here.",
            "To be, or not to be, that is the question.")
        .meeting("acme", "title-new", "Harbour logistics follow-up", "2026-01-20T09:00:00Z", List.of(), null, "Still nothing.")
        .meeting("acme", "upload", "Recorded interview", null, List.of("ann@acme.com", "bob@acme.com"), null,
            LONG_TAIL + "finally the unicornword appeared near the very end of it all.")
        .meeting("acme", "emoji", "Emoji", "2026-01-02T09:00:00Z", List.of(), null,
            "x" + "\uD83D\uDE42".repeat(1500) + " needleword " + "\uD83D\uDE42".repeat(1500) + " tailword")
        // Each ranked best by another field (RankSimilarity: about 0.8, 0.83 and 0.35 against 0.5, 0.5 and 0.19).
        .meeting("acme", "best-protocol", "Quokka notes", "2026-04-01T09:00:00Z", List.of(),
            "quokka quokka quokka quokka", "one quokka.")
        .meeting("acme", "best-transcript", "Wildlife talk", "2026-04-02T09:00:00Z", List.of(), "a quokka",
            "quokka quokka quokka quokka quokka.")
        .meeting("acme", "best-title", "Quokka census", "2026-04-03T09:00:00Z", List.of(), null,
            LONG_TAIL + "and a quokka.")
        // "walrus" and "the tusk" apart in short minutes, "walrus the tusk" at the end of a longer transcript.
        .meeting("acme", "walrus", "Arctic fauna", "2026-01-04T09:00:00Z", List.of(),
            "A walrus swam by; the tusk was long.", "krill ".repeat(300) + "I saw a walrus the tusk of which was long.")
        .meeting("acme", "umlaut-viewer", "Okapi sighting", "2026-01-03T09:00:00Z", List.of("ülla@acme.com"), null,
            "An okapiword was seen.")
        .meeting("other", "secret", "Budget review with Müller", "2026-03-03T09:00:00Z", List.of("carl@other.com"),
            "Other workspace minutes about the zeppelin budget.", "zeppelin budget Müller")
        .importInto((testStore = TestStore.create(dir)).store(), dir);
    db = Db.open(testStore.store(), 4);
    index = SearchIndex.open(dir.resolve("index"), db);
    assertFalse(index.ready());
    index.syncOnce(); // builds the first generation
    index.syncOnce(); // opens it
    assertTrue(index.ready());
    long acmeId = workspaceId("acme"), otherId = workspaceId("other");
    acme = new Principal("k1", acmeId, null, EnumSet.allOf(Scope.class), Set.of());
    other = new Principal("k2", otherId, null, EnumSet.allOf(Scope.class), Set.of());
    ann = new Principal("k3", acmeId, "ANN@acme.com", EnumSet.allOf(Scope.class), Set.of());
    bob = new Principal("k4", acmeId, "bob@acme.com", EnumSet.allOf(Scope.class), Set.of());
  }

  @AfterAll
  static void tearDown() {
    if (index != null) index.close();
    if (db != null) db.close();
    if (testStore != null) testStore.close();
  }

  static long workspaceId(String slug) throws Exception {
    try (Connection c = db.read()) {
      return Db.workspaceId(c, slug).orElseThrow();
    }
  }

  static List<SearchHit> search(SearchIndex index, Principal p, String q, int limit) throws Exception {
    try (Connection c = db.read()) {
      c.setAutoCommit(false);
      try {
        return SearchData.search(index, c, p, q, limit);
      } finally {
        c.rollback();
      }
    }
  }

  static List<SearchHit> search(Principal p, String q) throws Exception {
    return search(index, p, q, 50);
  }

  static List<String> ids(List<SearchHit> hits) {
    return hits.stream().map(SearchHit::meetingId).toList();
  }

  /** The snippet as a reader sees it: tags removed, entities decoded. */
  static String visible(String snippet) {
    return snippet.replace("<mark>", "").replace("</mark>", "").replace("&lt;", "<").replace("&gt;", ">")
        .replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&");
  }

  static List<String> marked(String snippet) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("<mark>(.*?)</mark>").matcher(snippet);
    while (m.find()) out.add(m.group(1));
    return out;
  }

  @Test
  void titleHitRanksExactly035AndShowsTheWholeTitleMarked() throws Exception {
    List<SearchHit> hits = search(acme, "harbour");
    assertEquals(2, hits.size());
    for (SearchHit h : hits) {
      assertEquals("title", h.matchedIn());
      assertEquals(0.35, h.rank());
    }
    assertEquals("<mark>Harbour</mark> logistics follow-up", hits.get(0).snippet());
  }

  @Test
  void equalRanksAreOrderedByDateNewestFirst() throws Exception {
    assertEquals(List.of(SearchData.id("title-new"), SearchData.id("title-old")), ids(search(acme, "harbour logistics")));
  }

  @Test
  void contentRankIsInOpenUnitIntervalAndGrowsWithRelevance() throws Exception {
    List<SearchHit> hits = search(acme, "zeppelin");
    assertEquals(List.of(SearchData.id("zeppelin-often"), SearchData.id("zeppelin-once")), ids(hits));
    for (SearchHit h : hits) {
      assertEquals("transcript", h.matchedIn());
      assertTrue(h.rank() > 0 && h.rank() < 1, "rank " + h.rank());
    }
    assertTrue(hits.get(0).rank() > hits.get(1).rank());
  }

  @Test
  void aMeetingMatchingInSeveralFieldsGivesOneHitWithItsBestField() throws Exception {
    List<SearchHit> hits = search(acme, "budget");
    assertEquals(List.of(SearchData.id("budget")), ids(hits));
    SearchHit h = hits.get(0);
    // "budget" is in its title and in its short transcript, which ranks above a title hit (0.35).
    assertEquals("transcript", h.matchedIn());
    assertTrue(h.rank() > 0.35, "the best of title (0.35) and content: " + h.rank());
    assertEquals("zoom", h.platform());
    assertEquals("2026-03-02T09:00:00Z", h.startsAt());
    assertEquals("2026-01-01T08:00:00Z", h.createdAt());
    assertEquals("Budget review with Müller", h.title());
  }

  @Test
  void eachHitNamesTheFieldThatRanksItBestWhateverElseMatches() throws Exception {
    List<SearchHit> hits = search(acme, "quokka");
    assertEquals(List.of(SearchData.id("best-transcript"), SearchData.id("best-protocol"), SearchData.id("best-title")),
        ids(hits));
    assertEquals(List.of("transcript", "protocol", "title"), hits.stream().map(SearchHit::matchedIn).toList());
    assertTrue(hits.get(1).rank() > 0.35, "the minutes outrank the title that also matches: " + hits.get(1).rank());
    assertEquals(0.35, hits.get(2).rank(), "the title outranks a long transcript that mentions the word once");
    assertEquals("<mark>Quokka</mark> census", hits.get(2).snippet());
    assertEquals("<mark>quokka</mark> <mark>quokka</mark> <mark>quokka</mark> <mark>quokka</mark>", hits.get(1).snippet());
  }

  /**
   * A phrase hit is named by the field the phrase stands in. Reading a hit's minutes checks the
   * phrase at that hit only (not up to the next match), but it must check it: the minutes that
   * hold the words apart would otherwise outrank the long transcript that holds the phrase.
   */
  @Test
  void aPhraseHitNamesTheFieldWhereThePhraseStandsNotWhereItsWordsDo() throws Exception {
    List<SearchHit> hits = search(acme, "\"walrus the tusk\"");
    assertEquals(List.of(SearchData.id("walrus")), ids(hits));
    assertEquals("transcript", hits.get(0).matchedIn());
    assertEquals("protocol", search(acme, "walrus tusk").get(0).matchedIn(), "as words, the short minutes rank best");
  }

  @Test
  void protocolHitsShowNoMarkdown() throws Exception {
    SearchHit h = search(acme, "launch beta").get(0);
    assertEquals("protocol", h.matchedIn());
    String text = visible(h.snippet());
    for (String syntax : List.of("**", "__", "](", "# ", "- ", "`", "https://")) assertFalse(text.contains(syntax), text);
    assertTrue(text.contains("Launch the beta in April"), text);
  }

  @Test
  void scriptInATranscriptComesBackEscaped() throws Exception {
    SearchHit h = search(acme, "alert forecast").get(0);
    assertEquals("transcript", h.matchedIn());
    assertTrue(h.snippet().contains("&lt;script&gt;"), h.snippet());
    assertTrue(h.snippet().contains("&amp;"), h.snippet());
    String withoutMarks = h.snippet().replace("<mark>", "").replace("</mark>", "");
    assertFalse(withoutMarks.contains("<") || withoutMarks.contains(">") || withoutMarks.contains("\""), h.snippet());
  }

  @Test
  void aMatchFarIntoALongTranscriptIsFoundAndShownShortAndMarked() throws Exception {
    SearchHit h = search(acme, "unicornword").get(0);
    assertEquals(SearchData.id("upload"), h.meetingId());
    assertEquals(List.of("unicornword"), marked(h.snippet()));
    assertTrue(visible(h.snippet()).length() <= Snippets.MAX_VISIBLE, h.snippet());
    assertTrue(h.snippet().startsWith("\u2026"), h.snippet());
    assertEquals(null, h.startsAt());
    assertEquals("upload", h.platform());
  }

  @Test
  void snippetsStayShortAndMarkOnlyMatchedWords() throws Exception {
    for (String q : List.of("nothing particular", "while today", "\"quite a while\"")) {
      List<SearchHit> hits = search(acme, q);
      assertFalse(hits.isEmpty(), q);
      for (SearchHit h : hits) {
        assertTrue(visible(h.snippet()).length() <= Snippets.MAX_VISIBLE, q + ": " + h.snippet());
        Set<String> words = SearchApi.query(q, index.analyzer()).words();
        List<String> marks = marked(h.snippet());
        assertFalse(marks.isEmpty(), h.snippet());
        for (String m : marks) {
          for (String w : SearchQuery.analyze(index.analyzer(), m)) assertTrue(words.contains(w), m + " in " + h.snippet());
        }
      }
    }
  }

  @Test
  void offsetsStayRightPastSurrogatePairsAtChunkBoundaries() throws Exception {
    for (String word : List.of("needleword", "tailword")) {
      SearchHit h = search(acme, word).get(0);
      assertEquals(List.of(word), marked(h.snippet()));
      assertFalse(h.snippet().chars().anyMatch(c -> c == '\uFFFD' || c == '?'), h.snippet());
    }
  }

  @Test
  void caseAndAccentsAreFolded() throws Exception {
    for (String q : List.of("muller", "MÜLLER", "Mueller", "mÜlLeR")) {
      assertEquals(List.of(SearchData.id("budget")), ids(search(acme, q)), q);
    }
    SearchHit cafe = search(acme, "cafe").get(0);
    assertEquals(List.of("Café"), marked(cafe.snippet()));
    assertEquals("Budget review with <mark>Müller</mark>", search(acme, "mueller review").get(0).snippet()
        .replace("<mark>review</mark>", "review").replace("<mark>Budget</mark>", "Budget"));
  }

  @Test
  void wordsAreAndedAndQuotedTextIsAPhrase() throws Exception {
    assertEquals(1, search(acme, "zeppelin lunch").size());
    assertEquals(0, search(acme, "zeppelin harbour").size());
    assertEquals(1, search(acme, "\"zeppelin flew\"").size());
    assertEquals(0, search(acme, "\"flew zeppelin\"").size());
    String phrase = String.join(" ", marked(search(acme, "\"zeppelin flew\"").get(0).snippet()));
    assertEquals("zeppelin flew", phrase.replace("  ", " "));
  }

  @Test
  void phrasesOfCommonWordsMatchExactlyWhereTheWordsStandInOrder() throws Exception {
    assertEquals(List.of(SearchData.id("title-old")), ids(search(acme, "\"to be or not to be\"")));
    SearchHit h = search(acme, "\"that is the question\"").get(0);
    assertEquals(List.of("that is the question"), marked(h.snippet()));
    // Matches of several clauses are merged in text order; one starting where a longer one does is inside it.
    assertEquals(List.of("that is the"), marked(search(acme, "that \"that is the\"").get(0).snippet()));
    assertEquals(List.of("To be", "to be"), marked(search(acme, "\"to be\" be").get(0).snippet()));
    assertEquals(List.of("To be", "not", "to be"), marked(search(acme, "not \"to be\"").get(0).snippet()));
    assertEquals(List.of(), ids(search(acme, "\"be to\"")));
    assertEquals(List.of(), ids(search(acme, "\"is that\"")));
    assertEquals(List.of(), ids(search(acme, "\"the the\"")));
    assertEquals(1, search(acme, "\"not to be that\"").size(), "punctuation between words does not break a phrase");
    // The index's pair terms are no words: a word spelled like one finds nothing.
    assertEquals(List.of(), ids(search(acme, "to_be")));
    assertEquals(List.of(), ids(search(acme, "is_the")));
  }

  /**
   * Every hostile input has one outcome: refused as too short (400 naming q, only where fewer
   * than 2 characters are left), or searched as the plain words it holds, with exactly these
   * hits. Nothing is query syntax: "AND", "OR NOT", "title:", "*", "~" and "^" are words or
   * punctuation.
   */
  @Test
  void eachHostileInputHasExactlyOneOutcome() throws Exception {
    String budget = SearchData.id("budget"), emoji = SearchData.id("emoji");
    Map<String, List<String>> outcomes = new LinkedHashMap<>();
    for (String refused : List.of("\"", "*", "\\", "!", "%", "\uD83D")) outcomes.put(refused, null);
    for (String nothing : List.of("\"\"", "\"unclosed phrase", "[a TO z]", "**", "bud*", "?udget", "title:budget",
        "workspace:1", "id:*", "budget AND", "NOT budget", "budget~2", "budget^10", "\\\\", "a\\b", "/regex/", "&&",
        "||", "%00", "\u0000\u0000", "🙂 budget", "' OR 1=1 --", "\u202E\u202E", "﷽﷽", "e\u0301e\u0301", "a".repeat(500),
        "\"" + "the ".repeat(120) + "\"")) {
      outcomes.put(nothing, List.of());
    }
    for (String found : List.of("((budget", "budget)", "-budget", "+budget", "<script>", "ＢＵＤＧＥＴ", "budget ".repeat(70))) {
      outcomes.put(found, List.of(budget));
    }
    outcomes.put("{x}", List.of(budget, emoji));
    outcomes.put("\uDE42x", List.of(budget, emoji)); // the lone surrogate becomes U+FFFD, punctuation: "x"
    outcomes.put("x\uD83D", List.of(budget, emoji));
    outcomes.put("🙂🙂", List.of(emoji)); // emoji are words too
    outcomes.put("AND", List.of(SearchData.id("best-title"))); // SEARCH.md: searched as the word "and"
    outcomes.put("OR NOT", List.of(SearchData.id("title-old"))); // "To be, or not to be"
    for (Map.Entry<String, List<String>> o : outcomes.entrySet()) {
      String q = o.getKey();
      if (o.getValue() == null) {
        ApiError e = assertThrows(ApiError.class, () -> search(acme, q), q);
        assertEquals(400, e.status(), q);
        assertEquals("q", e.field(), q);
      } else {
        List<SearchHit> hits = search(acme, q);
        assertEquals(o.getValue(), ids(hits), q);
        for (SearchHit h : hits) assertNotNull(h.snippet());
      }
    }
  }

  @Test
  void qLengthLimits() {
    for (String q : List.of("", " ", "a", " a ", "é", "🙂", "a".repeat(501), "x".repeat(5000))) {
      ApiError e = assertThrows(ApiError.class, () -> SearchApi.query(q, index.analyzer()), q);
      assertEquals(400, e.status());
      assertEquals("q", e.field());
    }
    assertEquals("ab", SearchApi.query("  ab \t", index.analyzer()).text);
    assertEquals("\uFFFDx", SearchApi.query("\uD83Dx", index.analyzer()).text);
  }

  @Test
  void limitBoundsTheNumberOfHits() throws Exception {
    assertEquals(1, search(index, acme, "harbour", 1).size());
  }

  @Test
  void anotherWorkspaceNeverSeesAMeeting() throws Exception {
    assertEquals(List.of(SearchData.id("secret")), ids(search(other, "zeppelin budget muller")));
    assertFalse(ids(search(acme, "zeppelin")).contains(SearchData.id("secret")));
    assertFalse(ids(search(acme, "budget")).contains(SearchData.id("secret")));
  }

  @Test
  void personalKeysSeeOnlyTheirMeetingsWhateverTheEmailCase() throws Exception {
    assertEquals(List.of(SearchData.id("budget")), ids(search(ann, "budget")));
    assertEquals(List.of(), ids(search(bob, "budget")));
    assertEquals(List.of(SearchData.id("zeppelin-often"), SearchData.id("zeppelin-once")), ids(search(bob, "zeppelin")));
    assertEquals(List.of(), ids(search(ann, "zeppelin")));
    assertEquals(List.of(), ids(search(ann, "harbour")), "meetings visible to nobody stay hidden from personal keys");
    assertEquals(1, search(ann, "unicornword").size());
    assertEquals(1, search(bob, "unicornword").size());
  }

  @Test
  void personalKeyEmailsIgnoreAsciiCaseOnlyAsSqlDoes() throws Exception {
    long acmeId = workspaceId("acme");
    Principal sameUser = new Principal("k5", acmeId, "ülla@ACME.com", EnumSet.allOf(Scope.class), Set.of());
    Principal otherUser = new Principal("k6", acmeId, "Ülla@acme.com", EnumSet.allOf(Scope.class), Set.of());
    assertEquals(List.of(SearchData.id("umlaut-viewer")), ids(search(sameUser, "okapiword")));
    assertEquals(List.of(), ids(search(otherUser, "okapiword")), "Ü is another letter than ü for meeting_viewer (NOCASE)");
  }

  /** A time limit that says "stop" from its {@code stopAt}-th look on (1-based), counting every look. */
  static final class CountingLimit implements org.apache.lucene.index.QueryTimeout {
    final int stopAt;
    int looks;

    CountingLimit(int stopAt) {
      this.stopAt = stopAt;
    }

    @Override
    public boolean shouldExit() {
      return ++looks >= stopAt;
    }
  }

  static List<SearchHit> searchWithin(org.apache.lucene.index.QueryTimeout limit, String q) throws Exception {
    try (Connection c = db.read()) {
      c.setAutoCommit(false);
      try {
        return index.search(c, OptionalLong.empty(), acme, SearchApi.query(q, index.analyzer()), SearchFilters.NONE, 50, limit);
      } finally {
        c.rollback();
      }
    }
  }

  /**
   * A search stops at its time limit wherever it is, in matching or in the snippets after it,
   * and then fails as timed out instead of answering with the hits found so far.
   */
  @Test
  void aSearchPastItsTimeLimitFailsWhereverItIsAndNeverAnswersPart() throws Exception {
    String q = "quokka"; // three hits: one title, one minutes, one transcript snippet
    CountingLimit never = new CountingLimit(Integer.MAX_VALUE);
    assertEquals(3, searchWithin(never, q).size());
    int looks = never.looks, matching = looks - 2 * 3; // describe and highlight look once per hit
    assertTrue(matching >= 1, "matching looked at the limit: " + looks);
    for (int stopAt = 1; stopAt <= looks; stopAt++) {
      int at = stopAt;
      SearchUnavailable e = assertThrows(SearchUnavailable.class, () -> searchWithin(new CountingLimit(at), q),
          "stopped at look " + at + " of " + looks + (at <= matching ? " (matching)" : " (best field, snippets)"));
      assertEquals(SearchUnavailable.Reason.TIMED_OUT, e.reason);
    }
    assertEquals(3, searchWithin(new CountingLimit(looks + 1), q).size());
  }

  /** The same when matching runs split across cores: a helper thread's part stops too. */
  @Test
  void aSplitSearchPastItsTimeLimitFailsToo() throws Exception {
    try (SplitSearch split = new SplitSearch(2, 0); Connection c = db.read()) {
      IndexSearcher s = new IndexSearcher(DirectoryReader.open(FSDirectory.open(dir.resolve("index")
          .resolve(IndexDirs.current(dir.resolve("index"))))));
      try {
        s.setSimilarity(Generation.SIMILARITY);
        SearchQuery q = SearchApi.query("\"walrus the tusk\"", index.analyzer());
        Hits expired = new Hits(s, index.analyzer(), () -> true);
        SearchUnavailable e = assertThrows(SearchUnavailable.class,
            () -> expired.find(split, acme, q, SearchFilters.NONE, List.of(), 50));
        assertEquals(SearchUnavailable.Reason.TIMED_OUT, e.reason);
        assertEquals(1, split.splits(), "the search was split");
        assertEquals(1, new Hits(s, index.analyzer(), () -> false).find(split, acme, q, SearchFilters.NONE, List.of(), 50)
            .size());
      } finally {
        s.getIndexReader().close();
      }
    }
  }
}
