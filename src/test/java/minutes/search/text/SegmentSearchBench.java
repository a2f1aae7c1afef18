package minutes.search.text;

import java.util.ArrayList;
import java.util.List;
import minutes.generate.QmsumCorpus;
import minutes.search.text.SearchQuery.Match;

/**
 * Transcript search of one 100 KB transcript: QMSum turns as segments, a fixed mix of words and
 * phrases, each searched many times with and without the pre-check; prints the p50 and
 * p95 of one search for each. Not a test: {@code java -cp ... minutes.search.text.SegmentSearchBench}.
 */
public final class SegmentSearchBench {
  private SegmentSearchBench() {}

  static final List<String> QUERIES = List.of("budget", "remote control", "\"I think\"", "the", "\"we need to\"",
      "\"the remote\"", "design", "market research", "yeah", "button", "Müller", "\"so we can\"");

  public static void main(String[] args) throws Exception {
    List<String> segments = new ArrayList<>();
    int chars = 0;
    for (QmsumCorpus.Meeting m : QmsumCorpus.load(QmsumCorpus.DEFAULT_PATH).meetings()) {
      for (QmsumCorpus.Turn t : m.turns()) {
        if (chars >= 100_000) break;
        segments.add(t.text());
        chars += t.text().length();
      }
    }
    List<SegmentSearch> searches = new ArrayList<>();
    for (String q : QUERIES) searches.add(SegmentSearch.parse(q, Match.ALL, false));
    // Each search with and without the pre-check, alternating, so both meet the same load.
    int[] found = new int[2];
    for (int r = 0; r < 300; r++) for (SegmentSearch s : searches) for (int v = 0; v < 2; v++) found[v] += s.find(segments, 100, v == 0).size();
    long[][] nanos = new long[2][500 * searches.size()];
    int i = 0;
    for (int r = 0; r < 500; r++) {
      for (SegmentSearch s : searches) {
        for (int v = 0; v < 2; v++) {
          int variant = (r + v) % 2;
          long t = System.nanoTime();
          found[variant] += s.find(segments, 100, variant == 0).size();
          nanos[variant][i] = System.nanoTime() - t;
        }
        i++;
      }
    }
    for (int v = 0; v < 2; v++) {
      java.util.Arrays.sort(nanos[v]);
      System.out.printf("transcript search %s, %d segments, %d characters, %d queries: p50 %.3f ms, p95 %.3f ms (%d found)%n",
          v == 0 ? "with the pre-check" : "analysing every segment", segments.size(), chars, QUERIES.size(),
          nanos[v][nanos[v].length / 2] / 1e6, nanos[v][nanos[v].length * 95 / 100] / 1e6, found[v]);
    }
  }
}
