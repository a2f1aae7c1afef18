package minutes.search;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import minutes.http.ApiError;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.search.query.SearchHit;
import minutes.search.text.SearchAnalyzer;
import minutes.search.text.SearchQuery;
import minutes.search.text.SnippetText;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SearchIndex in-process over a real SQLite file and real index files: matching, ranks, snippets, visibility. */
class SearchIndexTest extends SearchFixture {
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
    // "budget" is in its title and once in its transcript: the transcript's half of the content
    // rank (no minutes) stays below a title hit, so the title names it (eachHitNamesTheField...
    // has content outranking a title).
    assertEquals("title", h.matchedIn());
    assertEquals(0.35, h.rank(), "the best of title (0.35) and content");
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
    assertTrue(visible(h.snippet()).length() <= SnippetText.MAX_VISIBLE, h.snippet());
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
        assertTrue(visible(h.snippet()).length() <= SnippetText.MAX_VISIBLE, q + ": " + h.snippet());
        Set<String> words = SearchApi.query(q, new SearchAnalyzer()).words();
        List<String> marks = marked(h.snippet());
        assertFalse(marks.isEmpty(), h.snippet());
        for (String m : marks) {
          for (String w : SearchQuery.analyze(new SearchAnalyzer(), m)) assertTrue(words.contains(w), m + " in " + h.snippet());
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
      ApiError e = assertThrows(ApiError.class, () -> SearchApi.query(q, new SearchAnalyzer()), q);
      assertEquals(400, e.status());
      assertEquals("q", e.field());
    }
    assertEquals("ab", SearchApi.query("  ab \t", new SearchAnalyzer()).text);
    assertEquals("\uFFFDx", SearchApi.query("\uD83Dx", new SearchAnalyzer()).text);
  }

  @Test
  void limitBoundsTheNumberOfHits() throws Exception {
    assertEquals(1, search(index, acme, "harbour", 1).size());
  }

  /**
   * A smaller limit gives the first hits of a larger one, whichever fields decide: with two
   * hits, "quokka" gives the two meetings whose minutes and transcript rank them above any
   * title; with three, the meeting whose title ranks it (0.35, above its own transcript) comes
   * in third.
   */
  @Test
  void aSmallerLimitGivesTheFirstHitsOfALargerOne() throws Exception {
    for (String q : List.of("quokka", "zeppelin", "harbour", "budget", "the tusk", "walrus")) {
      List<SearchHit> all = search(index, acme, q, 50);
      for (int limit = 1; limit <= all.size(); limit++) {
        assertEquals(all.subList(0, limit), search(index, acme, q, limit), q + ", limit " + limit);
      }
    }
    List<SearchHit> three = search(index, acme, "quokka", 3);
    assertEquals(List.of("transcript", "protocol", "title"), three.stream().map(SearchHit::matchedIn).toList());
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
}
