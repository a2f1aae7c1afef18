package minutes.search;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import org.apache.lucene.analysis.CharArrayMap;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.util.BytesRef;

/**
 * Codes 1-15 for the 15 most frequent words of meeting talk, in order of frequency. Each
 * word of a text carries a payload of one byte: the codes of the word just before it and of
 * the word just after it, where that word is coded and at least as frequent
 * ({@link #recorded}). A phrase such as "the needs" then reads only the positions of
 * "needs" and keeps those whose payload says "the" stands before: at 20,000 meetings, reading
 * the positions of "the" in every meeting that says "needs" took 45-60 ms. Pair terms
 * ({@link CommonPairs}) do the same for two very common words side by side, but pairs of a
 * common word with any other word cost a reindex 70% more CPU (four times the distinct
 * terms); a payload adds no term at all.
 *
 * <p>Only 15 words, so that both codes fit in one byte: indexing pays for payloads in
 * proportion to their bytes. Codes for the 255 most frequent words in two bytes cost a
 * reindex 20% more CPU (221 s against 183 s without payloads at 20,000 meetings); reading
 * the positions of the 16th most frequent word costs a phrase far less than those of "the".
 * The words are part of the index format: changing them needs a new
 * {@link Generation#CURRENT_FORMAT}.
 */
final class Neighbours {
  private Neighbours() {}

  /** The 15 most frequent words of the QMSum transcripts, most frequent first, analysed like the index. */
  private static final CharArrayMap<Integer> CODES = codes("the that to and it i a of you uh yeah we so is in");

  private static CharArrayMap<Integer> codes(String words) {
    CharArrayMap<Integer> codes = new CharArrayMap<>(32, false);
    try (StandardTokenizer t = new StandardTokenizer(); TokenStream ts = new FoldingFilter(t)) {
      t.setReader(new StringReader(words));
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) codes.put(term.toString(), codes.size() + 1);
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // analysing a String cannot fail on I/O
    }
    if (codes.size() > 15) throw new IllegalStateException("more neighbour words than half a byte can code");
    return CharArrayMap.unmodifiableMap(codes);
  }

  static int count() {
    return CODES.size();
  }

  /** The code of an analysed word; 0 when it has none. */
  static int code(String word) {
    Integer code = CODES.get(word);
    return code == null ? 0 : code;
  }

  /**
   * Whether a word with code {@code own} records a neighbour with code {@code neighbour}: a
   * coded one at least as frequent as the word itself (a word without a code counts as the
   * rarest). A phrase is read through its rarer words, so only they need to know their
   * neighbours, and the most frequent words, a third of all words, carry no payload.
   */
  static boolean recorded(int neighbour, int own) {
    return neighbour != 0 && (own == 0 || neighbour <= own);
  }

  /** The payload byte of a word with these recorded neighbours' codes (0: none). */
  static byte payload(int before, int after) {
    return (byte) (before << 4 | after);
  }

  /** Whether a word's payload ({@code null}: no recorded neighbour) says these neighbours; 0 asks nothing. */
  static boolean around(BytesRef payload, int before, int after) {
    int codes = payload == null || payload.length != 1 ? 0 : payload.bytes[payload.offset] & 0xFF;
    return (before == 0 || codes >>> 4 == before) && (after == 0 || (codes & 0xF) == after);
  }
}
