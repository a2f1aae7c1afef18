package minutes.search.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import minutes.Property;
import minutes.StoreIndependent;
import minutes.search.index.MeetingDocument;
import minutes.search.text.SearchAnalyzer;
import minutes.search.text.SearchQuery;
import minutes.search.text.SearchQuery.Match;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.search.Query;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/**
 * The two ways a search sorts by reading, each against the simple way: {@link Readings#alike},
 * which groups a query's readings by their {@link MeetingQueries.Scoring}, against grouping them by
 * the scored query each makes, compared whole (generated queries of the language fixture's words,
 * src/test/resources/languages, function words, phrases and runs of Chinese, Japanese, Korean and
 * Thai, over indexes holding meetings of a generated set of languages, under both match modes);
 * and {@link Readings#byReading}, which sorts a page's hits by their meetings' language doc
 * values, against the language each generated meeting was written with (no hits, some, all; one
 * segment or many, some of one document).
 */
@StoreIndependent
class ReadingsTest {
  private static final List<String> LANGUAGES = List.of("en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no",
      "fi", "ru", "pl", "zh", "ja", "ko", "th", "und", "tr");
  /** Words every reading reads differently or alike: function words of several languages, forms, numbers. */
  private static final List<String> ODD = List.of("the", "and", "of", "der", "und", "le", "et", "y", "och", "и", "w",
      "budgets", "meetings", "2026", "l'équipe", "it's");

  private static final Map<String, List<String>> WORDS = new LinkedHashMap<>();

  static {
    for (String language : LANGUAGES) {
      try (InputStream in = ReadingsTest.class.getResourceAsStream("/languages/" + language + ".txt")) {
        if (in == null) continue; // und and tr: meetings of the default reading, no fixture of their own
        WORDS.put(language, List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("[\\s\\p{Punct}。、，]+")));
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Test
  void readingsOfEqualScoringsAreThoseOfEqualQueries() {
    int[] apart = {0};
    Property.forAll("readings grouped by scoring as by query", 150, 12, c -> {
      List<String> present = new ArrayList<>();
      for (String language : LANGUAGES) if (c.chance(0.4)) present.add(language);
      StringBuilder text = new StringBuilder();
      for (int w = 0, n = c.between(1, 1 + c.size()); w < n; w++) {
        if (c.chance(0.1)) text.append('"');
        text.append(c.chance(0.2) ? c.pick(ODD) : c.pick(c.pick(List.copyOf(WORDS.values())))).append(' ');
      }
      SearchQuery q;
      try {
        q = SearchQuery.parse(text.toString(), new SearchAnalyzer());
      } catch (SearchQuery.Refused e) {
        return; // too short, say: refused before any reading
      }
      if (q.isEmpty()) return;
      try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
        try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig())) {
          for (String language : present) {
            Document d = new Document();
            d.add(new KeywordField(MeetingDocument.LANGUAGE, language, Field.Store.NO));
            w.addDocument(d);
          }
        }
        try (DirectoryReader reader = DirectoryReader.open(dir)) {
          Readings readings = Readings.of(q, null, reader);
          List<List<Readings.Read>> alike = readings.alike(); // of no match mode: each mode's queries must agree with it
          for (Match match : Match.values()) {
            assertEquals(groupNames(byQuery(readings, match)), groupNames(alike), q.text + " over " + present + ", " + match);
          }
          if (alike.size() > 1) apart[0]++;
        }
      }
    });
    assertTrue(apart[0] >= 20, "queries whose readings score apart: " + apart[0]);
  }

  @Test
  void eachHitGoesToTheReadingOfItsLanguage() {
    int[] groups = {0};
    Property.forAll("hits grouped by their meetings' readings", 100, 40, c -> {
      List<String> languageOf = new ArrayList<>();
      try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
        try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE))) {
          for (int d = 0, n = c.between(1, 1 + 2 * c.size()); d < n; d++) {
            String language = c.chance(0.3) ? "en" : c.pick(LANGUAGES);
            Document doc = new Document();
            doc.add(new KeywordField(MeetingDocument.LANGUAGE, language, Field.Store.NO));
            w.addDocument(doc);
            languageOf.add(language);
            if (c.chance(0.15)) w.commit(); // segments of their own, some with one document
          }
        }
        try (DirectoryReader reader = DirectoryReader.open(dir)) {
          SearchQuery q = SearchQuery.parse(c.pick(List.of("budgets", "Verträge", "contrats meetings", "预算 budget")),
              new SearchAnalyzer());
          Readings readings = Readings.of(q, null, reader);
          List<Integer> hits = new ArrayList<>(); // in document order: none, some, every one
          for (int d = 0; d < languageOf.size(); d++) if (c.size() > 30 || c.chance(0.5)) hits.add(d);
          Map<Readings.Read, Integer[]> found = readings.byReading(reader, hits.toArray(Integer[]::new), h -> h);
          // The simple way: each hit's language, as indexed, names its reading; the default's group last.
          Map<Readings.Read, List<Integer>> expected = new LinkedHashMap<>();
          for (Readings.Read read : readings.all().subList(1, readings.all().size())) expected.put(read, new ArrayList<>());
          expected.put(readings.all().getFirst(), new ArrayList<>());
          for (int h : hits) {
            Readings.Read of = readings.all().getFirst();
            for (Readings.Read read : readings.all().subList(1, readings.all().size())) {
              if (read.languages().contains(new BytesRef(languageOf.get(h)))) of = read;
            }
            expected.get(of).add(h);
          }
          expected.values().removeIf(List::isEmpty);
          Map<Readings.Read, List<Integer>> got = new LinkedHashMap<>();
          found.forEach((read, group) -> got.put(read, List.of(group)));
          assertEquals(names(List.copyOf(expected.keySet())), names(List.copyOf(got.keySet())), languageOf + " " + hits);
          assertEquals(List.copyOf(expected.values()), List.copyOf(got.values()), languageOf + " " + hits);
          if (got.size() > 2 && reader.leaves().size() > 1) groups[0]++;
        }
      }
    });
    assertTrue(groups[0] >= 10, "cases of three readings or more over several segments: " + groups[0]);
  }

  private static List<String> names(List<Readings.Read> reads) {
    return reads.stream().map(r -> r.analyzer().reading().name()).toList();
  }

  /** Each group's readings by name (one reading per group member), for a failure one can read. */
  private static List<List<String>> groupNames(List<List<Readings.Read>> groups) {
    return groups.stream().map(ReadingsTest::names).toList();
  }

  /** The simple way: readings grouped by the scored query each makes, in the order of the readings. */
  private static List<List<Readings.Read>> byQuery(Readings readings, Match match) {
    Map<Query, List<Readings.Read>> groups = new LinkedHashMap<>();
    for (Readings.Read read : readings.all()) {
      groups.computeIfAbsent(MeetingSearch.scored(read.query(), match), k -> new ArrayList<>()).add(read);
    }
    return List.copyOf(groups.values());
  }
}
