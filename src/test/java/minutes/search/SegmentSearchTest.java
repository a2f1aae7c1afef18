package minutes.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import minutes.generate.QmsumCorpus;
import org.junit.jupiter.api.Test;

/**
 * The rough pre-check of transcript search ({@link SegmentSearch#find}) never drops a segment
 * that analysis would match: every answer equals the one found by analysing every segment,
 * over real transcripts and over words that folding changes.
 */
class SegmentSearchTest {
  /** Words whose folded form differs from their spelling, each in a segment of its own. */
  private static final List<String> TRICKY = List.of(
      "Müller said so.", "MUELLER agreed.", "muller's notes", "Müller’s plan", "The MÜLLERS came.",
      "Two companies merged.", "one company", "the queue is long", "QUEUES everywhere", "Straße und Strasse",
      "Goethe, Göthe, Gothe", "Æsir and aesir", "a naïve café", "ﬁnance", "Zoë's idea", "Ouaue eats",
      "idea everyone", "Über uber UEBER", "boxes and box", "status classes", "İstanbul", "Ærø island",
      "video audio radio", "Boaeing", "Tuesday's agenda", "the ﬂoor's plan");

  private static void assertSame(SegmentSearch s, List<String> segments, String q) {
    assertEquals(s.find(segments, 10_000, false), s.find(segments, 10_000, true), q);
  }

  @Test
  void theRoughCheckKeepsEverySegmentThatMatchesFoldedWords() throws Exception {
    List<String> queries = new ArrayList<>();
    for (String segment : TRICKY) {
      for (String word : segment.split("[\\s,.]+")) if (word.length() >= 2) queries.add(word);
    }
    queries.addAll(List.of("muller", "mueller", "company", "companies", "queue", "strasse", "goethe", "aesir",
        "naive cafe", "finance", "zoe", "uber", "box", "class", "istanbul", "aero", "tuesday", "floor", "eats",
        "\"idea everyone\"", "\"muller said\""));
    int matched = 0;
    for (String q : queries) {
      SegmentSearch s = SegmentSearch.parse(q);
      assertSame(s, TRICKY, q);
      matched += s.find(TRICKY, 100).size();
    }
    assertTrue(matched > queries.size(), "the queries find their segments: " + matched);
    assertEquals(5, SegmentSearch.parse("muller").find(TRICKY, 100).size());
  }

  @Test
  void theRoughCheckKeepsEverySegmentThatMatchesInRealTranscripts() throws Exception {
    List<QmsumCorpus.Meeting> meetings = QmsumCorpus.load(QmsumCorpus.DEFAULT_PATH).meetings().subList(0, 4);
    Random random = new Random(14);
    for (QmsumCorpus.Meeting m : meetings) {
      List<String> segments = new ArrayList<>();
      for (QmsumCorpus.Turn t : m.turns()) segments.add(t.text());
      Set<String> queries = new LinkedHashSet<>();
      while (queries.size() < 25) {
        String[] words = segments.get(random.nextInt(segments.size())).split("\\s+");
        if (words.length < 3) continue;
        int at = random.nextInt(words.length - 1);
        queries.add(random.nextBoolean() ? words[at] + " " + words[at + 1] : "\"" + words[at] + " " + words[at + 1] + "\"");
      }
      for (String q : queries) {
        if (q.strip().codePointCount(0, q.strip().length()) < 2) continue;
        assertSame(SegmentSearch.parse(q), segments, q);
      }
    }
  }

  @Test
  void roughFormsFoldAsTheIndexDoes() {
    assertEquals("muller muller muller's strasse ansir", SegmentSearch.rough("Müller MUELLER muller's Straße Aensir"));
    assertEquals("muller", SegmentSearch.roughKey("muller"));
    assertEquals("compan", SegmentSearch.roughKey("company"), "companies is held as company");
    assertEquals("ating", SegmentSearch.roughKey("eating"), "a leading e may follow an a, o or u in the text");
    assertEquals("", SegmentSearch.roughKey("e"));
  }
}
