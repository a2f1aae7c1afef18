package minutes.search.text;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import minutes.StoreIndependent;
import minutes.generate.QmsumCorpus;
import minutes.generate.TestCorpus;
import minutes.search.text.SearchQuery.Match;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pre-check of transcript search ({@link SegmentSearch#find}: each segment folded whole)
 * never drops a segment that analysis would match: every answer equals the one found by
 * analysing every segment, over real transcripts, over words that folding changes and over
 * words the tokenizer splits.
 */
@StoreIndependent
class SegmentSearchTest {
  /** Words whose folded form differs from their spelling, each in a segment of its own. */
  private static final List<String> TRICKY = List.of(
      "Müller said so.", "MUELLER agreed.", "muller's notes", "Müller’s plan", "The MÜLLERS came.",
      "Two companies merged.", "one company", "the queue is long", "QUEUES everywhere", "Straße und Strasse",
      "Goethe, Göthe, Gothe", "Æsir and aesir", "a naïve café", "ﬁnance", "Zoë's idea", "Ouaue eats",
      "idea everyone", "Über uber UEBER", "boxes and box", "status classes", "İstanbul", "Ærø island",
      "video audio radio", "Boaeing", "Tuesday's agenda", "the ﬂoor's plan",
      // Words over 255 characters, which the tokenizer splits: the text's fold carries the state
      // from a piece ending in a into the next, which drops the e of "eeting" and keeps that of "uer".
      "x".repeat(254) + "aeeting", "x".repeat(254) + "auer");

  private static void assertSame(SegmentSearch s, List<String> segments, String q) {
    assertEquals(s.find(segments, 10_000, false), s.find(segments, 10_000, true), q);
  }

  @Test
  void thePreCheckKeepsEverySegmentThatMatchesFoldedWords() throws Exception {
    List<String> queries = new ArrayList<>();
    for (String segment : TRICKY) {
      for (String word : segment.split("[\\s,.]+")) if (word.length() >= 2) queries.add(word);
    }
    queries.addAll(List.of("muller", "mueller", "company", "companies", "queue", "strasse", "goethe", "aesir",
        "naive cafe", "finance", "zoe", "uber", "box", "class", "istanbul", "aero", "tuesday", "floor", "eats",
        "\"idea everyone\"", "\"muller said\"", "eeting", "uer"));
    int matched = 0;
    for (String q : queries) {
      SegmentSearch s = SegmentSearch.parse(q, Match.ALL, false);
      assertSame(s, TRICKY, q);
      matched += s.find(TRICKY, 100).size();
    }
    assertTrue(matched > queries.size(), "the queries find their segments: " + matched);
    assertEquals(5, SegmentSearch.parse("muller", Match.ALL, false).find(TRICKY, 100).size());
    assertEquals(List.of(TRICKY.size() - 2), SegmentSearch.parse("eeting", Match.ALL, false).find(TRICKY, 100).stream().map(SegmentSearch.Found::segment).toList());
    assertEquals(List.of(TRICKY.size() - 1), SegmentSearch.parse("uer", Match.ALL, false).find(TRICKY, 100).stream().map(SegmentSearch.Found::segment).toList());
  }

  @Test
  void thePreCheckKeepsEverySegmentThatMatchesInRealTranscripts() throws Exception {
    List<QmsumCorpus.Meeting> meetings = TestCorpus.get().meetings().subList(0, 4);
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
        assertSame(SegmentSearch.parse(q, Match.ALL, false), segments, q);
      }
    }
  }

  @Test
  void aFoldedTextHoldsItsWordsAsTheIndexDoesButForTheEndsAKeyLeavesOut() {
    String text = "Müller MUELLER muller's Straße Aensir";
    char[] folded = new char[4 * text.length()];
    assertEquals("muller muller muller's strasse ansir", new String(folded, 0, FoldingFilter.fold(text.toCharArray(), text.length(), folded)));
    assertEquals("muller", SegmentSearch.key("muller"));
    assertEquals("compan", SegmentSearch.key("company"), "companies is held as company");
    assertEquals("ating", SegmentSearch.key("eating"));
    assertEquals("r", SegmentSearch.key("ur"));
    assertEquals("", SegmentSearch.key("e"));
  }
}
