package minutes.search;

import java.util.ArrayList;
import java.util.List;
import minutes.generate.QmsumCorpus;

/**
 * Transcript search of one 100 KB transcript (issue 31 item 4: before and after one matcher):
 * QMSum turns as segments, a fixed mix of words and phrases, each searched many times; prints
 * the p50 and p95 of one search. Not a test: {@code java -cp ... minutes.search.SegmentSearchBench}.
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
    for (String q : QUERIES) searches.add(SegmentSearch.parse(q));
    int found = 0;
    for (int r = 0; r < 300; r++) for (SegmentSearch s : searches) found += s.find(segments, 100).size();
    long[] nanos = new long[500 * searches.size()];
    int i = 0;
    for (int r = 0; r < 500; r++) {
      for (SegmentSearch s : searches) {
        long t = System.nanoTime();
        found += s.find(segments, 100).size();
        nanos[i++] = System.nanoTime() - t;
      }
    }
    java.util.Arrays.sort(nanos);
    System.out.printf("transcript search, %d segments, %d characters, %d queries: p50 %.3f ms, p95 %.3f ms (%d found)%n",
        segments.size(), chars, QUERIES.size(), nanos[nanos.length / 2] / 1e6, nanos[nanos.length * 95 / 100] / 1e6, found);
  }
}
