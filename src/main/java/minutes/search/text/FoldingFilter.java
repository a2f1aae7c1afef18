package minutes.search.text;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Normalises a word in one pass: drops a possessive 's, lower-cases, applies the German2
 * umlaut rules (ä = ae, ö = oe, ü = ue, ß = ss), folds other accents to ASCII, and strips an
 * English plural (S-stemmer: ies → y, s → ""), exactly as Lucene's EnglishPossessiveFilter,
 * LowerCaseFilter, GermanNormalizationFilter, ASCIIFoldingFilter and EnglishMinimalStemFilter
 * chained (SearchAnalyzerTest compares them over the whole QMSum corpus). One instance per
 * token stream; not thread-safe. Why one filter: plain ASCII words, nearly all of them, take a
 * shortcut; reindex CPU -9% (docs/BENCHMARKS.md). Without its English rules (the possessive and
 * the plural) it folds the words of the languages with a stemmer of their own ({@link Reading}).
 */
public final class FoldingFilter extends TokenFilter {
  /** The index's analysis of words, without its pair terms: {@link #words}, {@link QueryMatches#inText}. */
  static final Analyzer WORDS = new Analyzer() {
    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
      StandardTokenizer source = new StandardTokenizer();
      return new TokenStreamComponents(source, new FoldingFilter(source));
    }
  };

  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
  private final boolean english;
  private char[] folded = new char[64];

  FoldingFilter(TokenStream input) {
    this(input, true);
  }

  /** {@code english}: whether the possessive and plural rules apply. */
  FoldingFilter(TokenStream input, boolean english) {
    super(input);
    this.english = english;
  }

  /** The words of a fixed list as the index holds them (tokenized and folded, without pair terms), in order. */
  static List<String> words(String text) {
    return SearchQuery.analyze(WORDS, text);
  }

  @Override
  public boolean incrementToken() throws IOException {
    if (!input.incrementToken()) return false;
    char[] b = term.buffer();
    int len = term.length();
    if (english && len >= 2 && (b[len - 1] == 's' || b[len - 1] == 'S')
        && (b[len - 2] == '\'' || b[len - 2] == '\u2019' || b[len - 2] == '\uFF07')) {
      len -= 2;
    }
    boolean ascii = true;
    for (int i = 0; i < len; i++) {
      char c = b[i];
      if (c >= 0x80) {
        ascii = false;
        break;
      }
      if (c >= 'A' && c <= 'Z') b[i] = (char) (c + ('a' - 'A'));
    }
    if (!ascii || mayBeGerman(b, len)) {
      if (folded.length < 4 * len) folded = new char[4 * len];
      len = fold(b, len, folded);
      b = term.resizeBuffer(len);
      System.arraycopy(folded, 0, b, 0, len);
    }
    term.setLength(english ? plural(b, len) : len);
    return true;
  }

  /**
   * Folds {@code in[0, len)} as this filter folds a word, less the possessive and plural rules:
   * lower case, the German2 rules, any other accent to ASCII; one pass into {@code out}, which
   * must hold {@code 4 * len} characters; returns the length written. Over a whole text it gives
   * each of the text's words as this filter holds it before those two rules, since a word's
   * German2 rules look back at most two letters and a word follows a character that is no
   * letter (transcript search's pre-check, {@link SegmentSearch}).
   */
  static int fold(char[] in, int len, char[] out) {
    int n = 0;
    char[] one = null;
    for (int i = 0; i < len; ) {
      int c = in[i];
      if (c < 0x80) { // nearly every character: no code point, no table
        if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
        if (c != 'e' || !spellsUmlaut(in, i)) out[n++] = (char) c;
        i++;
        continue;
      }
      // By code point: a letter outside the BMP has a lower case too.
      int cp = Character.codePointAt(in, i, len);
      i += Character.charCount(cp);
      c = Character.toLowerCase(cp);
      switch (c) {
        case '\u00E4' -> out[n++] = 'a';
        case '\u00F6' -> out[n++] = 'o';
        case '\u00FC' -> out[n++] = 'u';
        case '\u00DF' -> {
          out[n++] = 's';
          out[n++] = 's';
        }
        default -> {
          if (one == null) one = new char[2];
          // Risk: ASCIIFoldingFilter.foldToASCII is @lucene.internal (the class is stable); a change of
          // what it folds fails SearchAnalyzerTest, and would need a new SearchAnalyzer.VERSION.
          n = ASCIIFoldingFilter.foldToASCII(one, 0, out, n, Character.toChars(c, one, 0));
        }
      }
    }
    return n;
  }

  /**
   * Whether the "e" at {@code in[i]} ends a German2 "ae", "oe" or "ue" (ä, ö, ü), which the
   * fold drops: it follows an a or o, or a u that follows no vowel, q or y ("queue" and
   * "blue" keep it; "Mueller" is "muller").
   */
  private static boolean spellsUmlaut(char[] in, int i) {
    if (i == 0) return false;
    char before = lower(in[i - 1]);
    if (before == 'a' || before == 'o') return true;
    if (before != 'u' || i == 1) return before == 'u';
    return switch (lower(in[i - 2])) {
      case 'a', 'e', 'i', 'o', 'q', 'u', 'y', '\u00E4', '\u00F6', '\u00FC' -> false;
      default -> true;
    };
  }

  private static char lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c < 0x80 ? c : Character.toLowerCase(c);
  }

  /**
   * False when {@link #fold} would change nothing in a lower-case ASCII word: no "e" after a, o
   * or u. Most words pass this one comparison per character instead of the fold's switch.
   */
  private static boolean mayBeGerman(char[] b, int len) {
    for (int i = 0; i < len; i++) {
      char c = b[i];
      if (c == 'e' && i > 0 && (b[i - 1] == 'a' || b[i - 1] == 'o' || b[i - 1] == 'u')) return true;
    }
    return false;
  }

  /** Harman's S-stemmer: only the first rule that applies. */
  private static int plural(char[] b, int len) {
    if (len < 3 || b[len - 1] != 's') return len;
    char before = b[len - 2];
    if (before == 'u' || before == 's') return len; // "status", "class"
    if (len > 3 && before == 'e' && b[len - 3] == 'i' && b[len - 4] != 'a' && b[len - 4] != 'e') {
      b[len - 3] = 'y'; // "companies" → "company"
      return len - 2;
    }
    if (before == 'e' && (b[len - 3] == 'a' || b[len - 3] == 'e' || b[len - 3] == 'i' || b[len - 3] == 'o')) return len;
    return len - 1; // "meetings" → "meeting", "boxes" → "boxe"
  }
}
