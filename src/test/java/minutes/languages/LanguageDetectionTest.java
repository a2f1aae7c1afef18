package minutes.languages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import minutes.StoreIndependent;
import org.junit.jupiter.api.Test;

/**
 * The detector on the fixture's sentences (src/test/resources/languages, written for these
 * tests): a whole meeting's text is told right in every language, a single sentence mostly right
 * and otherwise {@code und}, and English text never reads as another language, which would
 * change its answers.
 */
@StoreIndependent
class LanguageDetectionTest {
  static final List<String> LANGUAGES =
      List.of("en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "fi", "pl", "ru", "zh", "ja", "ko", "th");

  static List<String> sentences(String language) throws IOException {
    try (InputStream in = LanguageDetectionTest.class.getResourceAsStream("/languages/" + language + ".txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
    }
  }

  @Test
  void aMeetingsWholeTextIsToldInEveryLanguage() throws IOException {
    for (String language : LANGUAGES) {
      assertEquals(language, LanguageDetection.detect(String.join("\n", sentences(language))), language);
    }
  }

  @Test
  void aSentenceIsToldRightOrUndeterminedNeverAnotherLanguageForMostLanguages() throws IOException {
    Map<String, List<String>> wrong = new TreeMap<>();
    int right = 0, und = 0, all = 0;
    for (String language : LANGUAGES) {
      for (String s : sentences(language)) {
        String found = LanguageDetection.detect(s);
        all++;
        if (found.equals(language)) right++;
        else if (found.equals(Languages.UNDETERMINED)) und++;
        else wrong.computeIfAbsent(language, k -> new ArrayList<>()).add(found + ": " + s);
      }
    }
    System.out.printf("sentences: %d, right %d, und %d, wrong %d %s%n", all, right, und, all - right - und, wrong);
    assertTrue(right >= all * 0.8, right + " of " + all + " right");
    assertTrue(!wrong.containsKey("en"), "English read as another language: " + wrong.get("en"));
  }

  /** The function-word test that spares English meetings the n-gram detector claims no other language's text. */
  @Test
  void englishFunctionWordsTellEnglishMeetingsAndNoOtherLanguagesText() throws IOException {
    assertTrue(LanguageDetection.readsAsEnglish(String.join("\n", sentences("en"))));
    for (String language : LANGUAGES.subList(1, LANGUAGES.size())) {
      assertTrue(!LanguageDetection.readsAsEnglish(String.join("\n", sentences(language))), language);
      for (String s : sentences(language)) assertTrue(!LanguageDetection.readsAsEnglish(s), s);
    }
    assertTrue(!LanguageDetection.readsAsEnglish("the and that you with this"), "too few words to tell");
  }

  @Test
  void chineseJapaneseKoreanAndThaiAreToldByTheirScriptAmongLatinWords() throws IOException {
    for (String language : List.of("zh", "ja", "ko", "th")) {
      for (String s : sentences(language)) {
        assertEquals(language, LanguageDetection.detect(s + " Q3 roadmap, OKR review, Salesforce zqlang"), s);
      }
      assertEquals(language, LanguageDetection.detect(sentences(language).get(0).replace(" ", "").substring(0, 4)), "four characters");
    }
  }

  /**
   * A title alone in Latin letters is English or {@code und}: two English titles of
   * bench/api-bench.sh's corpus that the profiles read as Indonesian and French, and each Latin
   * language's first sentence taken as a title; other scripts keep their language.
   */
  @Test
  void aTitleAloneInLatinLettersIsEnglishOrUndetermined() throws IOException {
    assertEquals("id", LanguageDetection.detect("Planning: Language training data for cell phones"));
    assertEquals("fr", LanguageDetection.detect("Ironbridge Insurance Ltd: Functional requirements"));
    assertEquals("und", LanguageDetection.detectTitle("Planning: Language training data for cell phones"));
    assertEquals("und", LanguageDetection.detectTitle("Ironbridge Insurance Ltd: Functional requirements"));
    for (String language : LANGUAGES) {
      String title = sentences(language).get(0), detected = LanguageDetection.detect(title);
      boolean otherScript = List.of("ru", "zh", "ja", "ko", "th").contains(language);
      if (!otherScript) assertEquals(language, detected, title);
      assertEquals(language.equals("en") || otherScript ? detected : "und", LanguageDetection.detectTitle(title), title);
    }
  }

  @Test
  void shortTitlesAndEmptyTextAreUndetermined() {
    assertEquals("und", LanguageDetection.detect(""));
    assertEquals("und", LanguageDetection.detect("Q3 sync"));
    assertEquals("und", LanguageDetection.detect("1:1 Ann / Bob"));
    assertEquals("und", LanguageDetection.detect("Q3 sync\nok zqlang"));
  }
}
