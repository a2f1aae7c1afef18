import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import minutes.search.text.SearchAnalyzer;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cn.smart.SmartChineseAnalyzer;
import org.apache.lucene.analysis.icu.segmentation.ICUTokenizer;
import org.apache.lucene.analysis.ja.JapaneseAnalyzer;
import org.apache.lucene.analysis.ko.KoreanAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;

/**
 * Issue 46: minutes reads Chinese, Japanese and Korean as overlapping character pairs; how do
 * Lucene's morphological analysers (kuromoji for Japanese, nori for Korean, smartcn for Chinese)
 * and the ICU tokenizer's dictionary segmentation compare, on the test fixture's sentences
 * (src/test/resources/languages)? For each analyser: of every run of 2-4 letters a user could
 * type from a sentence (no punctuation or space inside), how many find that sentence (the run's
 * tokens, in order, at consecutive positions of the sentence's tokens; a run the analyser reads
 * as nothing finds nothing); of the dictionary words the language's morphological analyser
 * reads in the sentences (2 letters or more; a verb as its base form, as kuromoji and nori give
 * it), how many find a sentence the morphological analyser reads them in; and how fast it reads
 * (MB/s over the fixture repeated to about 4 MB, after a warm-up) and how many tokens a thousand
 * characters give (the index grows with them). Run by bench/cjk-analyzers.sh.
 */
public final class CjkAnalyzers {
  public static void main(String[] args) throws IOException {
    Path fixture = Path.of(args[0]);
    System.out.println("| language | analyser | typed runs found | dictionary words found | MB/s | tokens per 1,000 characters |");
    System.out.println("|---|---|---|---|---|---|");
    for (String language : List.of("zh", "ja", "ko")) {
      List<String> sentences = Files.readAllLines(fixture.resolve(language + ".txt"), StandardCharsets.UTF_8).stream()
          .map(String::strip).filter(s -> !s.isEmpty()).toList();
      Map<String, Analyzer> analyzers = new LinkedHashMap<>();
      analyzers.put("character pairs (minutes)", SearchAnalyzer.of(language));
      Analyzer morphological = switch (language) {
        case "zh" -> new SmartChineseAnalyzer();
        case "ja" -> new JapaneseAnalyzer();
        default -> new KoreanAnalyzer();
      };
      analyzers.put(switch (language) { case "zh" -> "smartcn"; case "ja" -> "kuromoji"; default -> "nori"; }, morphological);
      analyzers.put("ICU tokenizer", icu());
      Set<String> words = new LinkedHashSet<>();
      for (String s : sentences) {
        for (String t : tokens(morphological, s)) if (t.codePointCount(0, t.length()) >= 2) words.add(t);
      }
      for (Map.Entry<String, Analyzer> a : analyzers.entrySet()) {
        int runs = 0, runsFound = 0, wordsFound = 0;
        for (String s : sentences) {
          List<String> text = tokens(a.getValue(), s);
          for (String run : runs(s)) {
            runs++;
            if (finds(text, tokens(a.getValue(), run))) runsFound++;
          }
        }
        for (String w : words) {
          for (String s : sentences) {
            if (tokens(morphological, s).contains(w) && finds(tokens(a.getValue(), s), tokens(a.getValue(), w))) {
              wordsFound++;
              break;
            }
          }
        }
        double[] speed = speed(a.getValue(), String.join("\n", sentences));
        System.out.printf(Locale.ROOT, "| %s | %s | %.1f %% of %d | %.1f %% of %d | %.1f | %.0f |%n", language, a.getKey(),
            100.0 * runsFound / runs, runs, 100.0 * wordsFound / words.size(), words.size(), speed[0], speed[1]);
      }
    }
  }

  private static Analyzer icu() {
    return new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String field) {
        ICUTokenizer tokenizer = new ICUTokenizer();
        return new TokenStreamComponents(tokenizer, new LowerCaseFilter(tokenizer));
      }
    };
  }

  /** Every run of 2-4 letters inside a stretch of letters of the sentence. */
  static List<String> runs(String sentence) {
    List<String> out = new ArrayList<>();
    for (String stretch : sentence.split("[^\\p{L}]+")) {
      int[] cps = stretch.codePoints().toArray();
      for (int width = 2; width <= 4; width++) {
        for (int i = 0; i + width <= cps.length; i++) out.add(new String(cps, i, width));
      }
    }
    return out;
  }

  /** The query's tokens at consecutive positions of the text's (positions as the analyser gives them). */
  static boolean finds(List<String> text, List<String> query) {
    if (query.isEmpty()) return false;
    for (int i = 0; i + query.size() <= text.size(); i++) {
      if (text.subList(i, i + query.size()).equals(query)) return true;
    }
    return false;
  }

  /** The tokens at their positions (a token that shares a position with the one before is skipped: the first reading). */
  static List<String> tokens(Analyzer a, String text) throws IOException {
    List<String> out = new ArrayList<>();
    try (TokenStream ts = a.tokenStream("f", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      PositionIncrementAttribute inc = ts.addAttribute(PositionIncrementAttribute.class);
      ts.reset();
      while (ts.incrementToken()) if (inc.getPositionIncrement() > 0 || out.isEmpty()) out.add(term.toString());
      ts.end();
    }
    return out;
  }

  /** MB/s and tokens per 1,000 characters over the text repeated to about 4 MB, after as much again of warm-up. */
  static double[] speed(Analyzer a, String text) throws IOException {
    String big = (text + "\n").repeat(Math.max(1, 4_000_000 / text.getBytes(StandardCharsets.UTF_8).length));
    long tokens = 0;
    for (int pass = 0; pass < 2; pass++) {
      long start = System.nanoTime();
      tokens = 0;
      try (TokenStream ts = a.tokenStream("f", big)) {
        ts.reset();
        while (ts.incrementToken()) tokens++;
        ts.end();
      }
      if (pass == 1) {
        double seconds = (System.nanoTime() - start) / 1e9;
        return new double[] {big.getBytes(StandardCharsets.UTF_8).length / 1e6 / seconds, 1000.0 * tokens / big.length()};
      }
    }
    throw new AssertionError();
  }
}
