package minutes.search.text;

import java.util.LinkedHashSet;
import java.util.List;
import org.apache.lucene.analysis.CharArrayMap;
import org.apache.lucene.util.BytesRef;

/**
 * Codes 1-127 for the most frequent words of meeting talk, in order of frequency. Each word
 * of a text carries a payload naming its neighbours, the word just before it and the word
 * just after it, where that word is coded and at least as frequent ({@link #recorded}): one
 * byte for one neighbour, two for both. A phrase such as "the needs" then reads only the
 * positions of "needs" and keeps those whose payload says "the" stands before, instead of the
 * positions of "the" in every meeting that says "needs". Stateless.
 *
 * <p>Why payloads and not more pair terms ({@link CommonPairs}): a payload adds no term, while
 * pairs of a common word with any other word would multiply the distinct terms. Why 75 words
 * in one byte each: the trade-off between reindex CPU and the phrases left slow, measured in
 * docs/BENCHMARKS.md ("neighbour codes"). The words are part of the index format: changing
 * them needs a new {@link SearchAnalyzer#VERSION}.
 */
public final class Neighbours {
  private Neighbours() {}

  /**
   * 63 of the most frequent words of the QMSum transcripts, most frequent first, then 12
   * frequent German words: 75 codes. Analysed like the index ("was" is held as "wa", "this"
   * as "thi"), so words that analyse alike share one code.
   */
  private static final List<String> WORDS = List.copyOf(new LinkedHashSet<>(FoldingFilter.words("""
      the that to and it i a of you uh yeah we so is in have um for but this be on are what if with think
      like just can mm do there know or not well one hmm they okay as right then was about thing at would
      don't no will some all mean our more from because very oh an something
      der die das und ich ist nicht es wir ja zu sie""")));

  private static final CharArrayMap<Integer> CODES = new CharArrayMap<>(256, false);

  static {
    if (WORDS.size() > 127) throw new IllegalStateException("more neighbour words than 7 bits can code");
    for (String w : WORDS) CODES.put(w, CODES.size() + 1);
  }

  /** The coded words, analysed, in order of their codes (1, 2, ...). */
  public static List<String> words() {
    return WORDS;
  }

  /** The code of an analysed word; 0 when it has none. */
  public static int code(String word) {
    Integer code = CODES.get(word);
    return code == null ? 0 : code;
  }

  /**
   * Whether a word with code {@code own} records a neighbour with code {@code neighbour}: a
   * coded one at least as frequent as the word itself (a word without a code counts as the
   * rarest). A phrase is read through its rarer words, so only they need to know their
   * neighbours, and the most frequent words carry no payload.
   */
  public static boolean recorded(int neighbour, int own) {
    return neighbour != 0 && (own == 0 || neighbour <= own);
  }

  /**
   * Payloads for recorded neighbours' codes, in two reused refs: the indexer copies a payload
   * before it asks for the next token, and a new array per word would be an object for every
   * word of every text. One per token stream; not thread-safe.
   */
  static final class Payloads {
    private final BytesRef one = new BytesRef(new byte[1]), two = new BytesRef(new byte[2]);

    /** One byte (the high bit set for the word after) for one neighbour, two for both; null for none. */
    BytesRef of(int before, int after) {
      if (before != 0 && after != 0) {
        two.bytes[0] = (byte) before;
        two.bytes[1] = (byte) after;
        return two;
      }
      if (before == 0 && after == 0) return null;
      one.bytes[0] = (byte) (before != 0 ? before : 0x80 | after);
      return one;
    }
  }

  /** Whether a word's payload ({@code null}: no recorded neighbour) says these neighbours; 0 asks nothing. */
  public static boolean around(BytesRef payload, int before, int after) {
    int b = 0, a = 0;
    if (payload != null && payload.length == 2) {
      b = payload.bytes[payload.offset] & 0xFF;
      a = payload.bytes[payload.offset + 1] & 0xFF;
    } else if (payload != null && payload.length == 1) {
      int v = payload.bytes[payload.offset] & 0xFF;
      if (v >= 0x80) a = v & 0x7F;
      else b = v;
    }
    return (before == 0 || b == before) && (after == 0 || a == after);
  }
}
