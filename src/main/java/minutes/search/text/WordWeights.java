package minutes.search.text;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How much a word of a query tells, from fixed lists shipped with minutes, never from the data
 * (decisions.md, "Finding what people ask"): a function word (the Snowball project's English
 * stop words, BSD-licensed, as lucene-analysis-common ships them: "the", "what", "did", "about",
 * and for English also {@link #ASKING_WORDS}) weighs {@link #FUNCTION_WORD}, every other word 1.
 * So "the" no longer counts as much as "budget", yet a query of function words alone still finds
 * what it says. A phrase weighs 1 unless all its words are function words. Analysed as the index
 * analyses words, so "was" is held as "wa". Each {@link Reading} has its language's Snowball list
 * ("der", "und", "и"...; Polish Carrot2's, as Lucene's Polish module ships it); Chinese,
 * Japanese, Korean and Thai none, so that every word counts.
 * Stateless.
 */
public final class WordWeights {
  private WordWeights() {}

  /** A function word's weight against a word that tells: near nothing, but not nothing. */
  public static final float FUNCTION_WORD = 0.05f;

  /**
   * The words with which a question about a meeting asks rather than names its subject
   * ("Summarize the discussion about", "What did they think of", "What was said about"): agents
   * send such questions, nearly every meeting holds these words somewhere, and counted as words
   * that tell they put a meeting that holds one more of them before the one about the subject.
   * Function words of the default reading besides Snowball's; the nouns a question may also be
   * about ("group", "team", "meeting") are not among them (docs/BENCHMARKS.md, "Relevance").
   */
  static final String ASKING_WORDS = "summarize summarized summarizing summarise summarised summarising summary"
      + " discuss discussed discussing discussion talk talked talking say said saying think thought thinking"
      + " mention mentioned mentioning opinion regarding according";

  /**
   * Each reading's function words, read by that reading when a query first needs them: a server
   * whose meetings are all English never loads Stempel's table or the Thai dictionary for them.
   */
  private static final Map<Reading, Set<String>> FUNCTION_WORDS = new ConcurrentHashMap<>();

  private static Set<String> functionWords(Reading r) {
    return FUNCTION_WORDS.computeIfAbsent(r, reading -> {
      StringBuilder words = new StringBuilder(reading == Reading.DEFAULT ? ASKING_WORDS : "");
      if (reading.stopList != null) for (Object word : reading.stopList.get()) words.append(' ').append((char[]) word);
      return Set.copyOf(SearchQuery.analyze(SearchAnalyzer.of(reading).words(), words.toString()));
    });
  }

  /** The weight of a clause of the default reading: one word, or the words of a phrase. */
  public static float of(List<String> clause) {
    return of(clause, Reading.DEFAULT);
  }

  public static float of(List<String> clause, Reading reading) {
    return isFunctionWords(clause, reading) ? FUNCTION_WORD : 1f;
  }

  /** Whether every word of a clause of the default reading is a function word. */
  public static boolean isFunctionWords(List<String> clause) {
    return isFunctionWords(clause, Reading.DEFAULT);
  }

  public static boolean isFunctionWords(List<String> clause, Reading reading) {
    Set<String> functionWords = functionWords(reading);
    for (String w : clause) if (!functionWords.contains(w)) return false;
    return true;
  }
}
