package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import minutes.StoreIndependent;
import minutes.json.Jackson;
import org.junit.jupiter.api.Test;

/** Which text decides a meeting line's language: the line's own, else minutes, transcript and title; a title alone by the rule for titles. */
@StoreIndependent
class MeetingLanguageTest {
  private static final String FRENCH = "Nous avons discuté des nouvelles embauches prévues pour le deuxième semestre avec l'équipe.";

  private static JsonNode line(String json) throws Exception {
    return Jackson.MAPPER.readTree(json);
  }

  @Test
  void aTitleAloneInLatinLettersIsEnglishOrUndeterminedAndTextBesideItDecides() throws Exception {
    assertEquals("und", MeetingLanguage.of(line("{\"title\":\"" + FRENCH + "\",\"transcript\":[]}"), -1));
    assertEquals("fr", MeetingLanguage.of(line("{\"title\":\"Réunion\",\"transcript\":[{\"text\":\"" + FRENCH + "\"}]}"), -1));
    assertEquals("fr", MeetingLanguage.of(line("{\"title\":\"Réunion\",\"protocols\":[{\"content_md\":\"" + FRENCH
        + "\"}]}"), 0));
    assertEquals("ru", MeetingLanguage.of(line("{\"title\":\"Руководство приняло решение сократить число внешних подрядчиков\"}"), -1));
    assertEquals("de", MeetingLanguage.of(line("{\"title\":\"" + FRENCH + "\",\"language\":\"de\"}"), -1));
    assertEquals("und", MeetingLanguage.of(line("{\"title\":\"\"}"), -1));
  }
}
