package minutes.search;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;

/**
 * Which segments of one transcript match a search text, by the rules of GET /search
 * (decisions.md, "Transcript windows and in-meeting search"): {@code q} is validated and
 * analysed as a search's is, and every word and phrase of it must occur within the one
 * segment, words folded as the index folds them. A match comes with a snippet rendered as
 * search hits are: HTML-escaped, only {@code <mark>} raw. Immutable and thread-safe.
 */
public final class SegmentSearch {
  private static final Analyzer QUERY = new SearchAnalyzer();

  private final SearchQuery query;
  /** Text that the {@link #rough} form of every segment holding all clauses contains; see {@link #mayMatch}. */
  private final List<String> roughKeys = new ArrayList<>();

  private SegmentSearch(SearchQuery query) {
    this.query = query;
    for (String word : query.words()) {
      String key = roughKey(word);
      if (!key.isEmpty()) roughKeys.add(key);
    }
  }

  /** Validates and analyses q exactly as GET /search does ({@link SearchApi#segmentSearch} answers a refusal). */
  static SegmentSearch parse(String q) throws SearchQuery.Refused {
    return of(SearchQuery.parse(q, QUERY));
  }

  /** The search for a query GET /search analysed, for the moments of its hits. */
  static SegmentSearch of(SearchQuery q) {
    return new SegmentSearch(q);
  }

  /** The trimmed text, echoed as {@code query}. */
  public String query() {
    return query.text;
  }

  /** A matching segment: its position in the list searched, and its marked snippet. */
  public record Found(int segment, String snippet) {}

  /**
   * The first {@code limit} segments, in list order, in which every word and phrase of the
   * query occurs; none for a query left without words (only punctuation, say), as search
   * finds nothing for it. A segment longer than a snippet shows the window around its first
   * match. The segments are analysed as one text, one token stream: a stream per segment
   * cost a 100 KB transcript a third more.
   */
  public List<Found> find(List<String> segments, int limit) {
    return find(segments, limit, true);
  }

  /**
   * {@code rough}: skip the segments {@link #mayMatch} rules out (false only to test that it
   * never errs). The others are joined, a line break apart so that no word spans two, and
   * matched as the index's matches are found ({@link Passages#inText}); a segment matches when
   * each clause has a match wholly inside it.
   */
  List<Found> find(List<String> all, int limit, boolean rough) {
    List<Found> out = new ArrayList<>();
    if (query.isEmpty()) return out;
    List<Integer> kept = new ArrayList<>();
    StringBuilder joined = new StringBuilder();
    int[] ranges = new int[2 * all.size()];
    int n = 0;
    for (int i = 0; i < all.size(); i++) {
      if (rough && !mayMatch(all.get(i))) continue;
      ranges[n++] = joined.length();
      ranges[n++] = joined.length() + all.get(i).length();
      kept.add(i);
      joined.append(all.get(i)).append('\n');
    }
    Passages matches = Passages.inText(joined.toString(), query.clauses);
    if (matches.count() == 0) return out;
    Moments.Found found = Moments.inRanges(matches, new Moments.SegmentTable(Arrays.copyOf(ranges, n)), limit);
    for (Moments.Shown shown : found.shown()) {
      int segment = kept.get(shown.index());
      out.add(new Found(segment, Snippets.segment(all.get(segment), shown.spans())));
    }
    return out;
  }

  /**
   * Whether a segment may hold every query word, decided without analysing it: analysis
   * (Unicode word splitting, then folding) was nearly all of the time of a search in a 100 KB
   * transcript (p50 3.3 ms), and most segments hold none of the words. Never false for a
   * segment that matches: {@link #rough} keeps every letter the index's folding keeps, in
   * order, and drops a superset of what it drops inside a word, so the rough form of a word
   * as the index holds it, less the ends that folding may change, stands in the rough form of
   * any text with a token that folds to it. It may be true for a segment that does not match;
   * analysis decides those.
   */
  private boolean mayMatch(String segment) {
    String text = rough(segment);
    for (String key : roughKeys) if (!text.contains(key)) return false;
    return true;
  }

  /**
   * A word's rough form, less the ends that may differ in a text holding it: a leading "e"
   * (the text may drop it after a word ending in a, o or u) and a trailing "y" (the index
   * holds "companies" as "company").
   */
  static String roughKey(String word) {
    String r = rough(word);
    int from = 0, to = r.length();
    while (from < to && r.charAt(from) == 'e') from++;
    if (to > from && r.charAt(to - 1) == 'y') to--;
    return r.substring(from, to);
  }

  /**
   * Text folded character by character as {@link FoldingFilter} folds a word (lower case;
   * ä, ö, ü, ß; any other accent to ASCII), then every "e" after an a, o or u dropped: the
   * filter drops only some of those ("Mueller" is "muller", "queue" stays), this form all.
   */
  static String rough(String text) {
    char[] out = new char[text.length() + 16];
    int n = 0;
    char[] one = new char[2], folded = new char[8];
    for (int i = 0; i < text.length(); ) {
      char c = text.charAt(i);
      if (out.length - n < 8) out = Arrays.copyOf(out, out.length * 2);
      if (c < 0x80) { // nearly every character: no code point, no table
        i++;
        n = append(out, n, c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
        continue;
      }
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      cp = Character.toLowerCase(cp);
      switch (cp) {
        case '\u00E4' -> n = append(out, n, 'a');
        case '\u00F6' -> n = append(out, n, 'o');
        case '\u00FC' -> n = append(out, n, 'u');
        case '\u00DF' -> n = append(out, append(out, n, 's'), 's');
        default -> {
          // Risk: ASCIIFoldingFilter.foldToASCII is @lucene.internal; SegmentSearchTest compares this
          // fold with the analyzer's.
          int m = ASCIIFoldingFilter.foldToASCII(one, 0, folded, 0, Character.toChars(cp, one, 0));
          for (int k = 0; k < m; k++) n = append(out, n, folded[k]);
        }
      }
    }
    return new String(out, 0, n);
  }

  /** Appends c at n unless it is an "e" after a, o or u; returns the new length. */
  private static int append(char[] out, int n, char c) {
    if (c == 'e' && n > 0 && (out[n - 1] == 'a' || out[n - 1] == 'o' || out[n - 1] == 'u')) return n;
    out[n] = c;
    return n + 1;
  }
}
