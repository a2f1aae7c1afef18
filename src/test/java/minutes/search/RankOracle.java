package minutes.search;

import java.util.List;
import minutes.search.SearchOracleTest.Meeting;
import minutes.search.text.PlainScan;
import minutes.search.text.QueryMatches;
import minutes.search.text.SearchQuery.Match;
import minutes.search.text.WordWeights;
import org.apache.lucene.util.SmallFloat;

/**
 * The oracle of a meeting's match, rank and field under either {@code match} mode: docs/SEARCH.md's
 * formula ("Ranks") computed by hand from a plain scan of each clause's occurrences and each
 * field's length as Lucene's norm keeps it. SearchOracleTest asks it for {@code match=all},
 * MatchMostOracleTest for {@code match=most}.
 */
final class RankOracle {
  private RankOracle() {}

  /** What the oracle says of one meeting: the counted clauses it holds, its rank, the field of that rank. */
  record Scored(Meeting meeting, int words, double rank, String field) {}

  /**
   * The oracle's view of m for the clauses; null when no field matches: holds every clause
   * ({@link Match#ALL}) or any ({@link Match#MOST}), and never for no clauses. Its rank: 0.35
   * where the title matches, or where higher the content rank where the minutes or the transcript
   * matches, half the minutes' score and half the transcript's, each the weighted mean over the
   * clauses it holds; its field: the title's where the rank is, else the matching one of the two
   * giving more.
   */
  static Scored scored(Meeting m, List<List<String>> clauses, Match match) {
    if (clauses.isEmpty()) return null;
    long counted = counted(clauses);
    float[] weights = weights(clauses);
    long every = (1L << clauses.size()) - 1;
    long[] held = new long[3];
    String[] texts = {m.title(), m.minutes(), m.transcript()};
    double[] score = new double[3];
    for (int f = 0; f < texts.length; f++) {
      int[] tf = new int[clauses.size()];
      for (QueryMatches.Span s : PlainScan.matches(texts[f], clauses)) tf[s.clause()]++;
      for (int i = 0; i < tf.length; i++) {
        if (tf[i] == 0) continue;
        held[f] |= 1L << i;
        score[f] += f == 0 ? 1 : fieldScore(tf[i], weights[i] / sum(weights), texts[f], f == 1 ? 400f : 10_000f);
      }
    }
    boolean[] matches = new boolean[3];
    for (int f = 0; f < 3; f++) matches[f] = match == Match.ALL ? held[f] == every : held[f] != 0;
    if (!matches[0] && !matches[1] && !matches[2]) return null;
    double minutes = 0.5 * score[1], transcript = 0.5 * score[2];
    double content = matches[1] || matches[2] ? minutes + transcript : 0;
    int words = Long.bitCount((held[0] | held[1] | held[2]) & counted);
    if (matches[0] && 0.35 >= content * (1 - 1e-6)) return new Scored(m, words, 0.35, "title");
    String field = matches[1] && (minutes >= transcript * (1 - 1e-6) || !matches[2]) ? "protocol" : "transcript";
    return new Scored(m, words, content, field);
  }

  /** A clause's score in a field: its weight's share times its saturated, length-normalised count. */
  static double fieldScore(int tf, float share, String text, float typical) {
    int length = SmallFloat.byte4ToInt(SmallFloat.intToByte4(PlainScan.words(text).size())); // as the norm keeps it
    return share * tf / (tf + 4f * (0.25 + 0.75 * length / typical)); // k1 4, b 0.75 (SEARCH.md)
  }

  /** The clauses that count: those not all function words, or all when none is. */
  static long counted(List<List<String>> clauses) {
    long counted = 0;
    for (int i = 0; i < clauses.size(); i++) if (!WordWeights.isFunctionWords(clauses.get(i))) counted |= 1L << i;
    return counted != 0 ? counted : (1L << clauses.size()) - 1;
  }

  static float[] weights(List<List<String>> clauses) {
    float[] w = new float[clauses.size()];
    for (int i = 0; i < w.length; i++) w[i] = WordWeights.isFunctionWords(clauses.get(i)) ? WordWeights.FUNCTION_WORD : 1f;
    return w;
  }

  static float sum(float[] weights) {
    float all = 0;
    for (float w : weights) all += w;
    return all;
  }
}
