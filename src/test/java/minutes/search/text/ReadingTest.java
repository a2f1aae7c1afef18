package minutes.search.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import minutes.StoreIndependent;
import org.junit.jupiter.api.Test;

/**
 * The readings of the languages with rules of their own (docs/SEARCH.md "Per language family"):
 * the query's word and the text's inflected form read as the same term, a near-miss as another,
 * a CJK run as a phrase of its character pairs, and each reading's function words weigh less.
 */
@StoreIndependent
class ReadingTest {
  static List<List<String>> clauses(String language, String q) throws SearchQuery.Refused {
    return SearchQuery.parse(q, SearchAnalyzer.of(language)).clauses;
  }

  static List<String> text(String language, String text) {
    return SearchQuery.analyze(SearchAnalyzer.of(language).words(), text);
  }

  @Test
  void anInflectedFormReadsAsItsWordAndANearMissDoesNot() throws SearchQuery.Refused {
    String[][] same = {{"de", "Vertrag", "Verträge"}, {"de", "Müller", "Mueller"}, {"es", "contratación", "contrataciones"},
        {"fr", "équipe", "l'équipe"}, {"it", "fornitore", "fornitori"}, {"sv", "leverantör", "leverantörer"},
        {"ru", "решения", "решение"}, {"nl", "leverancier", "leveranciers"}, {"da", "leverandør", "leverandører"},
        {"pl", "budżet", "budżetu"}, {"pl", "umowa", "Umowy"}, {"pl", "dostawca", "dostawcami"},
        {"pl", "pracownik", "pracowników"}, {"pl", "sprzedaż", "SPRZEDAŻY"}};
    for (String[] c : same) assertEquals(text(c[0], c[2]), clauses(c[0], c[1]).getFirst(), c[1]);
    String[][] apart = {{"de", "Lieferung", "Lieferanten"}, {"es", "viajero", "viajes"}, {"ru", "расходник", "Расходы"},
        {"pl", "budowa", "budżet"}, {"pl", "dostawca", "dostawach"}};
    for (String[] c : apart) assertNotEquals(text(c[0], c[2]), clauses(c[0], c[1]).getFirst(), c[1]);
  }

  @Test
  void aRunOfChineseJapaneseOrKoreanIsAPhraseOfItsPairs() throws SearchQuery.Refused {
    assertEquals(List.of(List.of("회의", "의록")), clauses("ko", "회의록"));
    assertEquals(List.of(List.of("预算"), List.of("会议")), clauses("zh", "预算 会议"));
    assertEquals(List.of(List.of("预算", "算会", "会议")), clauses("zh", "预算会议"));
    assertEquals(List.of("下个", "个季", "季度"), text("zh", "下个季度"));
    assertEquals(List.of("งบประมาณ"), clauses("th", "งบประมาณ").getFirst());
  }

  @Test
  void theDefaultReadingIsEnglishsAndEveryLanguageWithoutRulesOfItsOwn() {
    for (String language : List.of("en", "und", "tr", "cs", "xx")) assertSame(Reading.DEFAULT, Reading.of(language));
    assertSame(SearchAnalyzer.of("en"), SearchAnalyzer.of(Reading.DEFAULT));
  }

  @Test
  void eachReadingsFunctionWordsWeighLess() throws SearchQuery.Refused {
    SearchQuery german = SearchQuery.parse("die Verträge und", SearchAnalyzer.of("de"));
    assertEquals(0b010, german.counted());
    assertArrayEquals(new float[] {WordWeights.FUNCTION_WORD, 1f, WordWeights.FUNCTION_WORD}, german.weights());
    SearchQuery english = SearchQuery.parse("die Verträge und", new SearchAnalyzer());
    assertEquals(0b111, english.counted(), "no English function word among them");
    assertEquals(0b01, SearchQuery.parse("расходы и", SearchAnalyzer.of("ru")).counted());
    assertEquals(0b0101, SearchQuery.parse("umowy z dostawcami oraz", SearchAnalyzer.of("pl")).counted());
    assertEquals(0b11, SearchQuery.parse("预算 会议", SearchAnalyzer.of("zh")).counted());
  }

  @Test
  void englishQuestionsAskingAboutAMeetingCountOnlyWhatTheyAskAbout() throws SearchQuery.Refused {
    SearchQuery question = SearchQuery.parse("Summarize what they said in the discussions about the budget", new SearchAnalyzer());
    int budget = question.clauses.indexOf(List.of("budget"));
    assertEquals(1L << budget, question.counted(), question.clauses.toString());
    for (String asking : List.of("discussions", "Discussed", "talking", "says", "thoughts", "thinking", "opinions",
        "regarding", "mentioned", "summarised", "summary")) {
      assertTrue(WordWeights.isFunctionWords(SearchQuery.parse(asking, new SearchAnalyzer()).clauses.getFirst()), asking);
    }
    for (String subject : List.of("group", "team", "meeting", "decision", "budget")) {
      SearchQuery q = SearchQuery.parse(subject, new SearchAnalyzer());
      assertEquals(1f, q.weights()[0], subject);
    }
    assertEquals(0b10, SearchQuery.parse("la discussion", SearchAnalyzer.of("fr")).counted(), "English's only");
  }
}
