package minutes.search.text;

import java.io.IOException;
import org.apache.lucene.analysis.CharArrayMap;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PayloadAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

/**
 * Pairs of very common words indexed as one extra term ("i think" next to "i" and "think"): a
 * pair sits at its first word's position with increment 0, so positions, phrase frequencies
 * and length norms stay as without it. A phrase made only of such words ("I think the") is
 * then matched through the pairs' short postings instead of the positions of "the" in every
 * meeting, which were the whole p99 before (docs/BENCHMARKS.md, "What changed the figures").
 */
public final class CommonPairs {
  private CommonPairs() {}

  /**
   * Joins the two words of a pair term. A space, because the tokenizer never keeps one inside
   * a word; with '_' (which it keeps) the query word "i_will" found every "I will".
   */
  static final char JOIN = ' ';

  /**
   * The most frequent words of meeting talk (the 80 most frequent words of the QMSum
   * transcripts, topic words such as "remote" left out: three fifths of all words), plus
   * German ones, analysed like the index. More words make more phrases fast and cost reindex
   * time and index size in proportion to how often two listed words meet; why 80: BENCHMARKS.md.
   */
  static final CharArraySet WORDS = CharArraySet.unmodifiableSet(new CharArraySet(FoldingFilter.words("""
      the that to it and i a uh yeah you of we so is in have um but for be this on what do are if think
      mm like just with can or there know well okay not hmm one they then as right was about would no at
      all oh don't i'm we're it's
      will some that's our more mean from because very something which how could ok go up get want maybe
      has really
      der die das und ich ist nicht es wir ja zu sie"""), false));

  private static final int PAIR_WORD = 1 << 8;

  /**
   * Pair words and {@link Neighbours} words, each mapped to its code (0: none) plus
   * {@link #PAIR_WORD} if it is a pair word: one lookup per token tells both.
   */
  private static final CharArrayMap<Integer> KINDS = new CharArrayMap<>(512, false);

  static {
    for (Object word : WORDS) KINDS.put((char[]) word, PAIR_WORD);
    for (String word : Neighbours.words()) KINDS.put(word, Neighbours.code(word) | (common(word) ? PAIR_WORD : 0));
  }

  public static boolean common(String word) {
    return WORDS.contains(word);
  }

  public static String pair(String first, String second) {
    return first + JOIN + second;
  }

  /**
   * Adds the pair term after the first of two adjacent common words, and gives every word
   * its {@link Neighbours} payload. One per token stream; not thread-safe. Reads one token
   * ahead, kept in plain fields, not as a captured State (captureState/restoreState on half of
   * all words cost more than the pair terms): each token is copied once when read ahead and
   * restored once when its turn comes.
   */
  static final class Filter extends TokenFilter {
    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private final OffsetAttribute offset = addAttribute(OffsetAttribute.class);
    private final PositionIncrementAttribute increment = addAttribute(PositionIncrementAttribute.class);
    private final TypeAttribute type = addAttribute(TypeAttribute.class);
    private final PayloadAttribute payload = addAttribute(PayloadAttribute.class);
    /** The token read ahead, and a spare to read the next one into. */
    private Held ahead = new Held(), spare = new Held();
    private boolean holdsAhead, ended;
    /** The code of the word returned last; 0 at the start. */
    private int lastCode;
    private final StringBuilder pair = new StringBuilder();
    private int pairStart, pairEnd;
    private boolean pairPending;
    private final Neighbours.Payloads payloads = new Neighbours.Payloads();

    Filter(TokenStream input) {
      super(input);
    }

    /** A token's attributes: all that the tokenizer and FoldingFilter set, and its codes. */
    private final class Held {
      private char[] chars = new char[16];
      private int length, start, end, positionIncrement, code;
      private boolean common;
      private String kind;

      void save() {
        length = term.length();
        if (chars.length < length) chars = new char[Math.max(length, 2 * chars.length)];
        System.arraycopy(term.buffer(), 0, chars, 0, length);
        start = offset.startOffset();
        end = offset.endOffset();
        positionIncrement = increment.getPositionIncrement();
        kind = type.type();
        Integer entry = KINDS.get(chars, 0, length);
        code = entry == null ? 0 : entry & 0xFF;
        common = entry != null && (entry & PAIR_WORD) != 0;
      }

      /**
       * Puts the token back over the one read after it, without clearAttributes() (a visible
       * share of reindex profiles): every attribute not set here (position length, term
       * frequency) holds the tokenizer's default for every token, and the caller sets the payload.
       */
      void restore() {
        term.copyBuffer(chars, 0, length);
        offset.setOffset(start, end);
        increment.setPositionIncrement(positionIncrement);
        type.setType(kind);
      }
    }

    @Override
    public boolean incrementToken() throws IOException {
      if (pairPending) {
        pairPending = false;
        term.setEmpty().append(pair);
        offset.setOffset(pairStart, pairEnd);
        increment.setPositionIncrement(0);
        type.setType(TypeAttribute.DEFAULT_TYPE);
        payload.setPayload(null);
        return true;
      }
      if (!holdsAhead) {
        if (ended || !input.incrementToken()) return false;
        ahead.save();
      }
      Held current = ahead;
      holdsAhead = input.incrementToken();
      ended = !holdsAhead;
      boolean adjacent = false;
      if (holdsAhead) {
        spare.save();
        adjacent = spare.positionIncrement == 1;
        if (adjacent && current.common && spare.common) {
          pair.setLength(0);
          pair.append(current.chars, 0, current.length).append(JOIN).append(spare.chars, 0, spare.length);
          pairStart = current.start;
          pairEnd = spare.end;
          pairPending = true;
        }
        ahead = spare;
        spare = current;
      }
      current.restore();
      int before = current.positionIncrement == 1 && Neighbours.recorded(lastCode, current.code) ? lastCode : 0;
      int after = adjacent && Neighbours.recorded(ahead.code, current.code) ? ahead.code : 0;
      payload.setPayload(payloads.of(before, after));
      lastCode = current.code;
      return true;
    }

    @Override
    public void reset() throws IOException {
      super.reset();
      holdsAhead = ended = false;
      pairPending = false;
      lastCode = 0;
    }
  }
}
