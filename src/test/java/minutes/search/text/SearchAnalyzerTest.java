package minutes.search.text;

import java.util.List;
import minutes.StoreIndependent;
import minutes.generate.QmsumCorpus;
import minutes.generate.TestCorpus;
import minutes.search.query.MeetingQueries;
import minutes.search.query.NeighbourPhraseQuery;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pins what docs/SEARCH.md promises about matching, and the Markdown and snippet helpers. */
@StoreIndependent
class SearchAnalyzerTest {
  final SearchAnalyzer analyzer = new SearchAnalyzer();

  List<String> terms(String text) {
    return SearchQuery.analyze(analyzer, text);
  }

  @Test
  void foldsCaseAccentsUmlautSpellingsAndPlurals() {
    assertEquals(terms("Müller"), terms("mueller"));
    assertEquals(terms("Müller"), terms("MULLER"));
    assertEquals(terms("Café"), terms("cafe"));
    assertEquals(terms("Straße"), terms("strasse"));
    assertEquals(terms("ＢＵＤＧＥＴ"), terms("budget"));
    assertEquals(terms("meetings"), terms("meeting"));
    assertEquals(terms("companies"), terms("company"));
    assertTrue(!terms("planned").equals(terms("planning")), "no stemming beyond plurals");
    assertEquals(List.of("to", "be", "or", "not", "to", "be"), terms("To be, or NOT to be"));
    assertEquals(2, terms("e-mail").size());
    assertEquals(1, terms("v2.1").size());
    assertEquals(terms("Müller's"), terms("muller"));
  }

  /** The five Lucene filters that {@link FoldingFilter} does in one pass, in their order. */
  static final org.apache.lucene.analysis.Analyzer REFERENCE = new org.apache.lucene.analysis.Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String field) {
        var source = new org.apache.lucene.analysis.standard.StandardTokenizer();
        org.apache.lucene.analysis.TokenStream t = new org.apache.lucene.analysis.en.EnglishPossessiveFilter(source);
        t = new org.apache.lucene.analysis.LowerCaseFilter(t);
        t = new org.apache.lucene.analysis.de.GermanNormalizationFilter(t);
        t = new org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter(t);
        t = new org.apache.lucene.analysis.en.EnglishMinimalStemFilter(t);
        return new TokenStreamComponents(source, t);
      }
    };

  /** FoldingFilter must analyse exactly as the filters it replaces: on words chosen for their traps... */
  @Test
  void foldingFilterMatchesTheLuceneFiltersItReplaces() {
    String text = "Müller Mueller MÜLLER Straße STRASSE Café naïve façade queue blue does goes companies series "
        + "species boxes status class classes Müller's James's it’s ＢＵＤＧＥＴ Ærø Œuvre Ångström Øre ﬁnance ß ẞ "
        + "Groß Größe Äpfel Öl Übel Quelle aue Feuer toes shoes ties dies pies aies eies yes is as us bus gas "
        + "MEETINGS Agreed Paul's PAUL'S o'clock don't 2026 v2.1 e-mail user@example.com İstanbul ΣΊΣΥΦΟΣ "
        + "ies oes aes ees ses uss Ｍüｌｌｅｒ œ æsthetic ąčęėįšųūž the QUEUES queues ueber über Bauer Frauen Heuer quiet quoe";
    assertEquals(SearchQuery.analyze(REFERENCE, text), terms(text));
  }

  /** ... and on every text of the bundled QMSum corpus: transcripts, summaries and topics. */
  @Test
  void foldingFilterMatchesTheLuceneFiltersOverTheWholeBundledCorpus() throws Exception {
    long words = 0;
    for (QmsumCorpus.Meeting m : TestCorpus.get().meetings()) {
      List<String> texts = new java.util.ArrayList<>(List.of(m.name(), m.summary()));
      for (QmsumCorpus.Topic t : m.topics()) texts.add(t.text());
      for (QmsumCorpus.Turn t : m.turns()) texts.add(t.text());
      String all = String.join("\n", texts);
      List<String> expected = SearchQuery.analyze(REFERENCE, all);
      assertEquals(expected, terms(all), m.name());
      words += expected.size();
    }
    assertTrue(words > 1_000_000, "the whole corpus: " + words + " words");
  }

  @Test
  void adjacentCommonWordsAlsoGetAPairTermAtTheFirstWordsPosition() throws Exception {
    List<String> tokens = tokens(analyzer, "I think the plan, the budget had the");
    int i = Neighbours.code("i"), think = Neighbours.code("think"), the = Neighbours.code("the");
    assertTrue(the > 0 && the < i && i < think && Neighbours.code("plan") == 0 && Neighbours.code("had") == 0);
    // Each word names its neighbours that are coded and at least as frequent: two bytes for both
    // (before, after), one for one (the high bit set for the word after); pair terms carry nothing.
    assertEquals(List.of("i/1/0-1", "i think/0/0-7", "think/1/2-7/" + i + "," + the, "think the/0/2-11",
        "the/1/8-11", "plan/1/12-16/" + the + "," + the, "the/1/18-21", "budget/1/22-28/" + the,
        "had/1/29-32/" + (0x80 | the), "the/1/33-36"), tokens);
  }

  /** Each token as term/increment/start-end, then its payload's bytes if it has one. */
  static List<String> tokens(org.apache.lucene.analysis.Analyzer analyzer, String text) throws Exception {
    List<String> tokens = new java.util.ArrayList<>();
    try (var ts = analyzer.tokenStream("transcript", text)) {
      var term = ts.addAttribute(org.apache.lucene.analysis.tokenattributes.CharTermAttribute.class);
      var inc = ts.addAttribute(org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute.class);
      var offset = ts.addAttribute(org.apache.lucene.analysis.tokenattributes.OffsetAttribute.class);
      var payload = ts.addAttribute(org.apache.lucene.analysis.tokenattributes.PayloadAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        var p = payload.getPayload();
        tokens.add(term + "/" + inc.getPositionIncrement() + "/" + offset.startOffset() + "-" + offset.endOffset()
            + (p == null ? "" : "/" + java.util.stream.IntStream.range(p.offset, p.offset + p.length)
                .mapToObj(k -> Integer.toString(p.bytes[k] & 0xFF)).collect(java.util.stream.Collectors.joining(","))));
      }
      ts.end();
    }
    return tokens;
  }

  /**
   * A word's neighbours are the words at the positions just before and after it. StandardTokenizer
   * chops an overlong word instead of leaving a gap, but a filter that drops words leaves one:
   * across it no neighbour is named and no pair term made, as a plain phrase does not match across it.
   */
  @Test
  void neighboursAndPairsNeverReachAcrossAPositionGap() throws Exception {
    var withGaps = new org.apache.lucene.analysis.Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String field) {
        var source = new org.apache.lucene.analysis.standard.StandardTokenizer();
        var dropped = new org.apache.lucene.analysis.CharArraySet(List.of("gap"), false);
        return new TokenStreamComponents(source,
            new CommonPairs.Filter(new FoldingFilter(new org.apache.lucene.analysis.StopFilter(source, dropped))));
      }
    };
    int the = Neighbours.code("the"), i = Neighbours.code("i");
    // Without the gaps "plan" and "i" name "the" before them, "had" the one after it, "think" the "i" before it,
    // and "the i" and "i think" are pairs.
    assertEquals(List.of("the/1/0-3", "plan/1/4-8/" + the, "had/1/9-12/" + (0x80 | the), "the/1/13-16", "the i/0/13-18",
        "i/1/17-18/" + the, "i think/0/17-24", "think/1/19-24/" + i), tokens(analyzer, "the plan had the i think"));
    assertEquals(List.of("the/1/0-3", "plan/2/8-12", "had/1/13-16", "the/2/21-24", "i/2/29-30", "think/2/35-40"),
        tokens(withGaps, "the gap plan had gap the gap i gap think"));
  }

  /** The analyzer reuses one token stream for every text: the first word of one text has no neighbour in the last. */
  @Test
  void aTextsFirstWordNamesNoNeighbourFromTheTextBefore() throws Exception {
    assertEquals(List.of("budget/1/0-6/" + (0x80 | Neighbours.code("the")), "the/1/7-10"), tokens(analyzer, "budget the"));
    assertEquals(List.of("plan/1/0-4"), tokens(analyzer, "plan"));
  }

  @Test
  void phrasesReadTheRarestWordsAndAskForTheirNeighboursInsteadOfReadingCommonWords() {
    int the = Neighbours.code("the"), to = Neighbours.code("to"), and = Neighbours.code("and");
    int well = Neighbours.code("well"), as = Neighbours.code("as");
    assertTrue(the < to && to < and && and < well, "codes follow frequency");
    assertEquals("plan@0 budget@2<" + the + ",0>", phrase("plan", "the", "budget"));
    assertEquals("need@1<" + the + ",0>", phrase("the", "need"));
    assertEquals("had@0<0," + the + ">", phrase("had", "the"));
    assertEquals("them@0<0," + as + ">", phrase("them", "as"));
    assertEquals("work@1<" + to + "," + well + ">", phrase("to", "work", "well"));
    assertEquals("work@1<" + to + ",0> together@2", phrase("to", "work", "together"));
    // A coded word between two uncoded ones is recorded by the word after it.
    assertEquals("rock@0 roll@2<" + and + ",0>", phrase("rock", "and", "roll"));
    // Of two neighbours that would record a word, the rarer is read: "an" rather than "thing".
    int an = Neighbours.code("an"), thing = Neighbours.code("thing");
    assertTrue(the < thing && thing < an && !CommonPairs.common("an") && !CommonPairs.common("thing"));
    assertEquals("an@0<0," + the + "> thing@2", phrase("an", "the", "thing"));
    // "At least as frequent" includes the word itself: "an an an" reads the middle "an" only.
    assertEquals("an@1<" + an + "," + an + ">", phrase("an", "an", "an"));
    // Uncoded words are all read; common words side by side keep their pair terms, as plain phrases.
    assertEquals("remote@0 control@1", phrase("remote", "control"));
    assertEquals("i think@0 think the@1", phrase("i", "think", "the"));
  }

  private static String phrase(String... words) {
    var q = MeetingQueries.phrase("f", List.of(words));
    if (q instanceof NeighbourPhraseQuery) return q.toString("f").replace("\"", "");
    var p = (org.apache.lucene.search.PhraseQuery) q;
    List<String> out = new java.util.ArrayList<>();
    for (int k = 0; k < p.getTerms().length; k++) out.add(p.getTerms()[k].text() + "@" + p.getPositions()[k]);
    return String.join(" ", out);
  }

  @Test
  void markdownSyntaxIsRemoved() {
    assertEquals("Decisions Launch the beta in April Café opens 1 2 a b",
        MarkdownText.plain("# Decisions\n\n- **Launch** the [beta](https://x.io) in `April`\n* __Café__ opens\n"
            + "1. 1\n2) 2\n\n---\n| a \\| b |\n|---|"));
    assertEquals("snake_case stays, 2*3*4 too", MarkdownText.plain("snake_case stays, 2*3*4 too"));
    assertEquals("quote gone image", MarkdownText.plain("> quote ~~gone~~\n![image](i.png)"));
  }

  @Test
  void snippetsAreCentredOnTheMatchesWithinTheVisibleLimitAndCutAtSpaces() {
    String text = "word ".repeat(200) + "target " + "word ".repeat(200);
    int at = text.indexOf("target");
    int[] w = SnippetText.window(text.length(), at, at + 6);
    String s = SnippetText.render(text, 0, text.length(), w[0], w[1], List.of(new QueryMatches.Span(at, at + 6, 0)));
    String visible = s.replace("<mark>", "").replace("</mark>", "");
    assertTrue(visible.length() <= SnippetText.MAX_VISIBLE, visible.length() + ": " + s);
    assertTrue(s.startsWith("\u2026word") && s.endsWith("word\u2026"), s);
    int mid = visible.indexOf("target");
    assertTrue(mid > 100 && mid < 140, "centred: " + mid);
    assertEquals("a <mark>b</mark> c", SnippetText.render("a b c", 0, 5, 0, 5, List.of(new QueryMatches.Span(2, 3, 0))));
  }

  @Test
  void titlesAreEscapedAndMarked() {
    assertEquals("<mark>Budget</mark> &lt;b&gt; &amp; <mark>Müller&#39;s</mark>",
        SnippetText.title(analyzer, "Budget <b> & Müller's", java.util.Set.of("budget", "muller")));
  }
}
