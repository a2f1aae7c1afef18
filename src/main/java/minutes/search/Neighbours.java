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
 * Codes 1-255 for the most frequent words, stored with each word of a text as a payload of
 * two bytes: the code of the word just before it and of the word just after it, when that
 * word is at least as frequent ({@link #recorded}; 0: not recorded). A phrase such as "the needs" then reads only the positions of
 * "needs" and keeps those whose payload says "the" stands before: at 20,000 meetings, reading
 * the positions of "the" in every meeting that says "needs" took 45-60 ms. Pair terms
 * ({@link CommonPairs}) did the same for pairs of two very common words, but pairs of a
 * common word with any other word cost a reindex 70% more CPU (four times the distinct
 * terms); a payload adds no term at all.
 *
 * <p>The list is part of the index format: changing it needs a new
 * {@link Generation#CURRENT_FORMAT}. Codes follow frequency, so a higher code is a rarer
 * word ({@link SearchQuery#layout} keeps the rarer of two words).
 */
final class Neighbours {
  private Neighbours() {}

  /**
   * The most frequent words of the QMSum transcripts in order (markup, one-letter fragments
   * and the corpus's topic words such as "minister" left out), then frequent German words;
   * analysed like the index, so words that analyse alike share the code of the first.
   */
  private static final CharArrayMap<Integer> CODES = codes("""
      the that to and it i a of you uh yeah we so is in have um for but this be on are what if with think
      like just can mm do there know or not well one hmm they okay as right then was about thing at would
      don't no will some all mean our more from because very oh an something which how could we're people
      i'm ok get want button remote go up need make maybe has really time now also say these use when good
      them should your other see two work out those my look actually gonna going by their control here yes
      where been sort were different who way kind much meeting got you're he had point we've question any
      thank put me sure than lot take into they're us only idea did first we'll doing little new three
      might bit number five come does back too said let important why still system same through guess next
      over give term working year probably being part even better data many case support done stuff course
      down yep able again user problem doesn't change quite may looking already member i've most didn't
      i'll huh used four another last before off start cost alright can't try wanna find end having using
      talking around screen help issue minute thought made
      der die das und ich ist nicht es wir ja zu sie den dem ein eine mit auf von fuer sich auch dass wie
      was aber noch nur im mal also dann""");

  private static CharArrayMap<Integer> codes(String words) {
    CharArrayMap<Integer> codes = new CharArrayMap<>(512, false);
    try (StandardTokenizer t = new StandardTokenizer(); TokenStream ts = new FoldingFilter(t)) {
      t.setReader(new StringReader(words));
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        if (!codes.containsKey(term.buffer(), 0, term.length())) codes.put(term.toString(), codes.size() + 1);
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // analysing a String cannot fail on I/O
    }
    if (codes.size() > 255) throw new IllegalStateException("more neighbour words than one byte can code");
    return CharArrayMap.unmodifiableMap(codes);
  }

  /** The code of an analysed word; 0 when it has none. */
  static int code(char[] word, int length) {
    Integer code = CODES.get(word, 0, length);
    return code == null ? 0 : code;
  }

  static int code(String word) {
    Integer code = CODES.get(word);
    return code == null ? 0 : code;
  }

  /**
   * Whether a word with code {@code own} records a neighbour with code {@code neighbour}: only
   * a neighbour at least as frequent is recorded (a word without a code counts as the rarest).
   * A phrase is read through its rarer words, so only they need to know their neighbours, and
   * the most frequent words, most of all words, carry no payload.
   */
  static boolean recorded(int neighbour, int own) {
    return neighbour != 0 && (own == 0 || neighbour <= own);
  }

  /** Whether a word's payload ({@code null}: no coded neighbour) says these neighbours; 0 asks nothing. */
  static boolean around(BytesRef payload, int before, int after) {
    if (payload == null || payload.length != 2) return before == 0 && after == 0;
    return (before == 0 || (payload.bytes[payload.offset] & 0xFF) == before)
        && (after == 0 || (payload.bytes[payload.offset + 1] & 0xFF) == after);
  }
}
