package minutes.languages;

import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import minutes.ApiServer;
import minutes.CliRun;
import minutes.TestLines;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Each meeting's words read with its language's rules (decisions.md "Languages"), through the
 * real import and server on the run's store: the fixture's meetings (src/test/resources/languages,
 * one per language, written for these tests) beside the English ones of fixtures.ndjson. An
 * inflected form finds its meeting, a near-miss (another word with the same start, characters of
 * a pair that stand apart, part of a Thai word) finds nothing, snippets and moments mark the
 * words found, and the English meetings answer exactly as when no other language is present.
 */
class LanguageSearchTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  static final List<String> LANGUAGES = List.of("de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "fi", "ru", "pl",
      "zh", "ja", "ko", "th");

  @BeforeAll
  static void importMeetings() throws Exception {
    List<String> lines = new ArrayList<>();
    for (String language : LANGUAGES) {
      lines.add(LanguagesApiTest.meeting(id(language), "Meeting " + language, LanguageDetectionTest.sentences(language),
          language));
    }
    CliRun run = api.cli("import", TestLines.file(api.dir(), lines.toArray(String[]::new)).toString());
    assertEquals(0, run.code(), run.err());
    api.awaitHits(ALL, "zqlang&limit=1&language=th", List.of(id("th")), System.nanoTime(), Duration.ofSeconds(30));
  }

  static String id(String language) {
    return LanguagesApiTest.id("reading " + language);
  }

  static JsonNode search(String q, String more) {
    ApiServer.Response r = api.get("/api/v1/search?q=" + URLEncoder.encode(q, StandardCharsets.UTF_8) + more, ALL);
    assertEquals(200, r.status(), r.body());
    return r.json();
  }

  /** Language, query, a form the meeting holds (the examples first). */
  static final String[][] INFLECTED = {
      {"de", "Lieferant", "Lieferanten"}, {"de", "Vertrag", "Verträge"}, {"de", "Reise", "Reisen"},
      {"de", "Preis", "Preise"}, {"es", "contratación", "contrataciones"}, {"es", "viaje", "viajes"},
      {"fr", "embauche", "embauches"}, {"fr", "équipe", "l'équipe"}, {"fr", "contrat", "contrats"},
      {"it", "fornitore", "fornitori"}, {"pt", "fornecedor", "fornecedores"}, {"nl", "leverancier", "leveranciers"},
      {"sv", "leverantör", "leverantörer"}, {"da", "leverandør", "leverandører"}, {"no", "leverandør", "leverandørene"},
      {"ru", "расход", "Расходы"}, {"ru", "сотрудник", "сотрудников"}, {"ru", "решения", "решение"},
      {"pl", "umowa", "Umowy"}, {"pl", "dostawca", "dostawcami"}, {"pl", "pracownik", "pracowników"},
      {"ko", "예산", "예산을"}, {"ko", "회의록", "회의록을"}, {"th", "งบประมาณ", "ประชุมงบประมาณ"},
      {"zh", "预算", "预算"}, {"ja", "予算", "予算"}};

  @Test
  void anInflectedFormFindsItsMeetingAndMarksTheWordAsWritten() {
    for (String[] c : INFLECTED) {
      String what = c[0] + " " + c[1];
      JsonNode body = search(c[1], "");
      // Another language's reading may find its own word (Dutch "vertraging" reads as "vertrag").
      List<String> found = ApiServer.column(body, "meeting_id");
      assertTrue(found.contains(id(c[0])), what + ": " + ApiServer.column(body, "title"));
      assertTrue(LANGUAGES.stream().map(LanguageSearchTest::id).toList().containsAll(found), what + ": an English meeting");
      String snippet = search(c[1], "&language=" + c[0]).at("/data/0/snippet").asText();
      assertTrue(snippet.contains("<mark>"), what + ": " + snippet);
      JsonNode moments = search(c[1], "&moments=1&language=" + c[0]).at("/data/0/moments/0/snippet");
      assertTrue(moments.asText().contains("<mark>"), what + ": " + moments);
    }
    // The mark covers the word as written, not the stem the index holds.
    assertTrue(search("Lieferant", "").at("/data/0/snippet").asText().contains("<mark>Lieferanten</mark>"));
    assertTrue(search("Verträge", "").at("/data/0/snippet").asText().contains("<mark>Verträge</mark>"));
    assertTrue(search("сотрудник", "").at("/data/0/snippet").asText().contains("<mark>сотрудников</mark>"));
    assertTrue(search("회의록", "").at("/data/0/snippet").asText().contains("<mark>회의록</mark>"));
    assertTrue(search("งบประมาณ", "").at("/data/0/snippet").asText().contains("<mark>งบประมาณ</mark>"));
  }

  /** Language, query that must find nothing: a word sharing the start, a pair of characters far apart, part of a word. */
  static final String[][] NEAR_MISSES = {
      {"de", "Lieferung"}, {"de", "Preisliste"}, {"fr", "fourniture"}, {"es", "viajero"}, {"ru", "расходник"},
      {"ko", "예산안"}, {"th", "งบ"}, {"zh", "预目"}, {"ja", "算新"}, {"pl", "budowa"}};

  @Test
  void aNearMissFindsNothing() {
    for (String[] c : NEAR_MISSES) {
      assertEquals(List.of(), ApiServer.column(search(c[1], ""), "meeting_id"), c[0] + " " + c[1]);
    }
  }

  /** GET /meetings/{id}/transcript/search reads the query by the meeting's language too. */
  @Test
  void theTranscriptSearchReadsByTheMeetingsLanguage() {
    for (String[] c : INFLECTED) {
      JsonNode found = transcriptSearch(c[0], c[1]).get("data");
      assertTrue(!found.isEmpty() && found.get(0).get("snippet").asText().contains("<mark>"), c[0] + " " + c[1] + ": " + found);
    }
    JsonNode lieferant = transcriptSearch("de", "Lieferant").get("data");
    assertEquals(1, lieferant.size());
    assertEquals(0, lieferant.get(0).get("index").asInt());
    assertTrue(lieferant.get(0).get("snippet").asText().contains("<mark>Lieferanten</mark>"));
    assertEquals(1, transcriptSearch("ko", "회의록").at("/data/0/index").asInt());
    for (String[] c : NEAR_MISSES) assertEquals(0, transcriptSearch(c[0], c[1]).get("data").size(), c[0] + " " + c[1]);
  }

  static JsonNode transcriptSearch(String language, String q) {
    ApiServer.Response r = api.get("/api/v1/meetings/" + id(language) + "/transcript/search?q="
        + URLEncoder.encode(q, StandardCharsets.UTF_8), ALL);
    assertEquals(200, r.status(), r.body());
    return r.json();
  }

  @Test
  void aPhraseIsReadWithTheMeetingsRulesToo() {
    assertEquals(List.of(id("de")), ApiServer.column(search("\"neue Lieferant\"", ""), "meeting_id"));
    assertEquals(List.of(id("ru")), ApiServer.column(search("\"новый сотрудник\"", ""), "meeting_id"));
    assertEquals(List.of(), ApiServer.column(search("\"Lieferanten Preise\"", ""), "meeting_id"), "words apart");
  }

  /**
   * The fixture's English (and undetermined) meetings answer as when the search asks for their
   * language alone, which reads the query once, as before languages: same hits, ranks, fields,
   * snippets and moments, for single words, several words, phrases and both match modes.
   */
  @Test
  void englishMeetingsAnswerExactlyAsWithoutOtherLanguages() {
    for (String q : List.of("budget", "the roadmap", "\"action items\"", "meetings review", "what did they decide")) {
      for (String more : List.of("&limit=100", "&limit=100&match=most&moments=2", "&limit=100&order=starts_at")) {
        Map<String, JsonNode> alone = new HashMap<>();
        for (String language : List.of("en", "und")) {
          for (JsonNode hit : search(q, more + "&language=" + language).get("data")) {
            alone.put(hit.get("meeting_id").asText(), hit);
          }
        }
        JsonNode mixed = search(q, more).get("data");
        int english = 0;
        for (JsonNode hit : mixed) {
          JsonNode same = alone.get(hit.get("meeting_id").asText());
          if (same == null) continue; // a meeting of the fixture's other languages
          english++;
          assertEquals(same, hit, q + more);
        }
        assertEquals(alone.size(), english, q + more + ": every English hit is found in the mixed search");
      }
    }
  }
}
