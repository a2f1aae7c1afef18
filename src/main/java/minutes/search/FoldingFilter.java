package minutes.search;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
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
 * shortcut; reindex CPU -9% (docs/BENCHMARKS.md).
 */
final class FoldingFilter extends TokenFilter {
  private static final int N = 0; // ordinary
  private static final int V = 1; // after a vowel or q: a following "ue" is not an umlaut
  private static final int U = 2; // after a, o or u: a following e is dropped

  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
  private char[] folded = new char[64];

  FoldingFilter(TokenStream input) {
    super(input);
  }

  /** The words of a fixed list as the index holds them (tokenized and folded, without pair terms), in order. */
  static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    try (StandardTokenizer t = new StandardTokenizer(); TokenStream ts = new FoldingFilter(t)) {
      t.setReader(new StringReader(text));
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) out.add(term.toString());
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // analysing a String cannot fail on I/O
    }
    return out;
  }

  @Override
  public boolean incrementToken() throws IOException {
    if (!input.incrementToken()) return false;
    char[] b = term.buffer();
    int len = term.length();
    if (len >= 2 && (b[len - 1] == 's' || b[len - 1] == 'S')
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
    if (!ascii) {
      for (int i = 0; i < len; ) { // by code point: a letter outside the BMP has a lower case too
        i += Character.toChars(Character.toLowerCase(Character.codePointAt(b, i, len)), b, i);
      }
      len = german(len);
      b = term.buffer();
      if (folded.length < 4 * len) folded = new char[4 * len];
      // Risk: ASCIIFoldingFilter.foldToASCII is @lucene.internal (the class is stable); a change of
      // what it folds fails SearchAnalyzerTest, and would need a new SearchAnalyzer.VERSION.
      int n = ASCIIFoldingFilter.foldToASCII(b, 0, folded, 0, len);
      b = term.resizeBuffer(n);
      System.arraycopy(folded, 0, b, 0, n);
      len = n;
    } else {
      len = german(len);
      b = term.buffer();
    }
    term.setLength(plural(b, len));
    return true;
  }

  /** The German2 rules on the lower-cased word in the term buffer; returns the new length. */
  private int german(int len) {
    char[] b = term.buffer();
    if (!mayBeGerman(b, len)) return len;
    int state = N;
    for (int i = 0; i < len; i++) {
      switch (b[i]) {
        case 'a', 'o' -> state = U;
        case 'u' -> state = state == N ? U : V;
        case 'e' -> {
          if (state == U) { // "ae", "oe", "ue" spell ä, ö, ü
            System.arraycopy(b, i + 1, b, i, len - i - 1);
            len--;
            i--;
          }
          state = V;
        }
        case 'i', 'q', 'y' -> state = V;
        case '\u00E4' -> {
          b[i] = 'a';
          state = V;
        }
        case '\u00F6' -> {
          b[i] = 'o';
          state = V;
        }
        case '\u00FC' -> {
          b[i] = 'u';
          state = V;
        }
        case '\u00DF' -> {
          b = term.resizeBuffer(len + 1);
          System.arraycopy(b, i + 1, b, i + 2, len - i - 1);
          b[i] = 's';
          b[++i] = 's';
          len++;
          state = N;
        }
        default -> state = N;
      }
    }
    return len;
  }

  /**
   * False when the rules below change nothing: no umlaut or ß, and no "e" after a, o or u.
   * Most words pass this one comparison per character instead of the rules' switch.
   */
  private static boolean mayBeGerman(char[] b, int len) {
    for (int i = 0; i < len; i++) {
      char c = b[i];
      if (c == 'e' ? i > 0 && (b[i - 1] == 'a' || b[i - 1] == 'o' || b[i - 1] == 'u') : c >= 0xDF) return true;
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
