package minutes.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArrayMap;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;

/**
 * Which segments of one transcript match a search text, by the rules of GET /search
 * (decisions.md, "Transcript windows and in-meeting search"): {@code q} is validated and
 * analysed as a search's is, and every word and phrase of it must occur within the one
 * segment, words folded as the index folds them. A match comes with a snippet rendered as
 * search hits are: HTML-escaped, only {@code <mark>} raw. Immutable and thread-safe.
 */
public final class SegmentSearch {
  private static final Analyzer QUERY = new SearchAnalyzer();
  /**
   * The index's words without its pair terms (those only speed up phrases in the index):
   * analysing a segment is most of the cost of this search.
   */
  private static final Analyzer WORDS = new Analyzer() {
    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
      StandardTokenizer source = new StandardTokenizer();
      return new TokenStreamComponents(source, new FoldingFilter(source));
    }
  };

  private final SearchQuery query;
  /** Each distinct query word, numbered. */
  private final CharArrayMap<Integer> words = new CharArrayMap<>(16, false);
  /** Per clause, the numbers of its words in order. */
  private final int[][] clauses;
  /** Text that the {@link #rough} form of every segment holding all clauses contains; see {@link #mayMatch}. */
  private final List<String> roughKeys = new ArrayList<>();

  private SegmentSearch(SearchQuery query) {
    this.query = query;
    clauses = new int[query.clauses.size()][];
    for (int c = 0; c < clauses.length; c++) {
      List<String> clause = query.clauses.get(c);
      clauses[c] = new int[clause.size()];
      for (int w = 0; w < clause.size(); w++) {
        Integer id = words.get(clause.get(w));
        if (id == null) words.put(clause.get(w), id = words.size());
        clauses[c][w] = id;
      }
    }
    for (Object word : words.keySet()) {
      String key = roughKey(new String((char[]) word));
      if (!key.isEmpty()) roughKeys.add(key);
    }
  }

  /** Validates and analyses q exactly as GET /search does ({@link SearchApi#segmentSearch} answers a refusal). */
  static SegmentSearch parse(String q) throws SearchQuery.Refused {
    return new SegmentSearch(SearchQuery.parse(q, QUERY));
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

  /** {@code rough}: skip the segments {@link #mayMatch} rules out (false only to test that it never errs). */
  List<Found> find(List<String> all, int limit, boolean rough) {
    List<String> segments = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      if (!rough || mayMatch(all.get(i))) {
        segments.add(all.get(i));
        positions.add(i);
      }
    }
    List<Found> found = analysed(segments, limit);
    List<Found> out = new ArrayList<>(found.size());
    for (Found f : found) out.add(new Found(positions.get(f.segment()), f.snippet()));
    return out;
  }

  /** {@link #find} over the segments given, every one of them analysed. */
  private List<Found> analysed(List<String> segments, int limit) {
    List<Found> out = new ArrayList<>();
    if (clauses.length == 0 || segments.isEmpty()) return out;
    int[] starts = new int[segments.size() + 1];
    StringBuilder all = new StringBuilder();
    for (int i = 0; i < segments.size(); i++) {
      starts[i] = all.length();
      all.append(segments.get(i)).append('\n'); // a word boundary: no word spans two segments
    }
    starts[segments.size()] = all.length();
    Occurrences found = new Occurrences();
    int segment = 0;
    try (TokenStream ts = WORDS.tokenStream("", all.toString())) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
      PositionIncrementAttribute increment = ts.addAttribute(PositionIncrementAttribute.class);
      ts.reset();
      int position = -1;
      while (ts.incrementToken()) {
        position += increment.getPositionIncrement();
        Integer id = words.get(term.buffer(), 0, term.length());
        if (id == null) continue;
        int at = offset.startOffset();
        if (at >= starts[segment + 1]) {
          if (found.size > 0 && match(found, segments.get(segment), starts[segment], segment, out) && out.size() == limit) {
            return out;
          }
          found.size = 0;
          while (at >= starts[segment + 1]) segment++;
        }
        found.add(id, position, at, offset.endOffset());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // analysing a String cannot fail on I/O
    }
    if (found.size > 0) match(found, segments.get(segment), starts[segment], segment, out);
    return out;
  }

  /** Adds the segment to out when every clause occurs in it (offsets in {@code found} start at {@code base}). */
  private boolean match(Occurrences found, String text, int base, int segment, List<Found> out) {
    List<Passages.Span> spans = new ArrayList<>();
    for (int c = 0; c < clauses.length; c++) {
      if (!occurs(found, c, base, spans)) return false;
    }
    spans.sort((a, b) -> a.start() != b.start() ? Integer.compare(a.start(), b.start()) : Integer.compare(b.end(), a.end()));
    int[] window = Snippets.window(text.length(), spans.get(0).start(), spans.get(0).end());
    out.add(new Found(segment, Snippets.render(text, 0, text.length(), window[0], window[1], spans)));
    return true;
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
      if (out.length - n < 8) out = java.util.Arrays.copyOf(out, out.length * 2);
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
          // Risk: foldToASCII is @lucene.internal; SegmentSearchTest compares this fold with the analyzer's.
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

  /** A segment's words that are query words, in order: their number, position and offsets. */
  private static final class Occurrences {
    int size;
    int[] word = new int[8], position = new int[8], start = new int[8], end = new int[8];

    void add(int w, int p, int s, int e) {
      if (size == word.length) {
        word = Arrays.copyOf(word, 2 * size);
        position = Arrays.copyOf(position, word.length);
        start = Arrays.copyOf(start, word.length);
        end = Arrays.copyOf(end, word.length);
      }
      word[size] = w;
      position[size] = p;
      start[size] = s;
      end[size++] = e;
    }
  }

  /**
   * Adds clause c's matches to spans; false when it has none. Only query words are in
   * {@code found}, so a phrase's next word, if present, is the next occurrence.
   */
  private boolean occurs(Occurrences found, int c, int base, List<Passages.Span> spans) {
    int[] clause = clauses[c];
    boolean any = false;
    for (int i = 0; i + clause.length <= found.size; i++) {
      int k = 0;
      while (k < clause.length && found.word[i + k] == clause[k] && found.position[i + k] == found.position[i] + k) k++;
      if (k == clause.length) {
        spans.add(new Passages.Span(found.start[i] - base, found.end[i + k - 1] - base, c));
        any = true;
      }
    }
    return any;
  }
}
