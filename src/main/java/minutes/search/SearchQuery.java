package minutes.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;

/**
 * A user's {@code q} turned into Lucene queries without any query syntax: every word must
 * occur (AND), text in double quotes must occur as a phrase, and all other characters are
 * just text that the analyzer keeps or drops. Immutable.
 */
final class SearchQuery {
  /** Characters (code points) of q after trimming; decisions.md: at least 2. */
  static final int MIN_CHARS = 2;
  /** Longer input is refused (400): no real query needs it and it bounds the work per request. */
  static final int MAX_CHARS = 500;
  /** Words and phrases after analysis; more is refused (400) for the same reason. */
  static final int MAX_CLAUSES = 64;
  /** The rank of every title hit (api-spec 2.5). */
  static final float TITLE_RANK = 0.35f;

  /** The trimmed text echoed as {@code query}. */
  final String text;
  /** Each clause: one analysed word, or the words of a phrase in order. */
  final List<List<String>> clauses;

  private SearchQuery(String text, List<List<String>> clauses) {
    this.text = text;
    this.clauses = clauses;
  }

  /** Input this service refuses to search for; the message says why, for a 400 naming q. */
  static final class Refused extends Exception {
    Refused(String message) {
      super(message, null, false, false);
    }
  }

  /** Validates and analyses q. */
  static SearchQuery parse(String raw, Analyzer analyzer) throws Refused {
    String text = wellFormed(raw).strip();
    int chars = text.codePointCount(0, text.length());
    if (chars < MIN_CHARS) {
      throw new Refused("q must be a search text of at least " + MIN_CHARS + " characters");
    }
    if (chars > MAX_CHARS) {
      throw new Refused("q must be a search text of at most " + MAX_CHARS + " characters");
    }
    Set<List<String>> clauses = new LinkedHashSet<>(); // a repeated word adds nothing
    StringBuilder part = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (isQuote(c)) {
        addPart(part.toString(), quoted, analyzer, clauses);
        part.setLength(0);
        quoted = !quoted;
      } else {
        part.append(c);
      }
    }
    addPart(part.toString(), quoted, analyzer, clauses); // an unclosed quote still ends a phrase
    if (clauses.size() > MAX_CLAUSES) {
      throw new Refused("q must hold at most " + MAX_CLAUSES + " words and phrases");
    }
    return new SearchQuery(text, List.copyOf(clauses));
  }

  private static boolean isQuote(char c) {
    return c == '"' || c == '\u201C' || c == '\u201D' || c == '\u201E';
  }

  private static void addPart(String part, boolean phrase, Analyzer analyzer, Set<List<String>> out) {
    if (part.isBlank()) return;
    List<String> words = analyze(analyzer, part);
    if (words.isEmpty()) return;
    if (phrase) {
      out.add(List.copyOf(words));
    } else {
      for (String w : words) out.add(List.of(w));
    }
  }

  /** The analysed words of text, without the common-word pairs (those are only for phrases). */
  static List<String> analyze(Analyzer analyzer, String text) {
    List<String> words = new ArrayList<>();
    try (TokenStream ts = analyzer.tokenStream("q", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      PositionIncrementAttribute increment = ts.addAttribute(PositionIncrementAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        if (increment.getPositionIncrement() > 0) words.add(term.toString());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // analysing a String cannot fail on I/O
    }
    return words;
  }

  /** Lone surrogates become U+FFFD, so that nothing downstream (JSON, UTF-8) trips on them. */
  static String wellFormed(String s) {
    StringBuilder out = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok;
      if (Character.isHighSurrogate(c)) {
        ok = i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        if (ok) {
          if (out != null) out.append(c).append(s.charAt(i + 1));
          i++;
          continue;
        }
      } else {
        ok = !Character.isLowSurrogate(c);
      }
      if (!ok && out == null) out = new StringBuilder(s.length()).append(s, 0, i);
      if (out != null) out.append(ok ? c : '\uFFFD');
    }
    return out == null ? s : out.toString();
  }

  boolean isEmpty() {
    return clauses.isEmpty();
  }

  /** Every analysed word of the query, for marking a title. */
  Set<String> words() {
    Set<String> all = new LinkedHashSet<>();
    for (List<String> c : clauses) all.addAll(c);
    return all;
  }

  /**
   * All clauses must match in this one field. Each clause is weighted 1/n, so the score is
   * the mean of the clauses' scores and stays in (0, 1) (see {@link RankSimilarity}).
   */
  Query inField(String field) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    float weight = 1f / clauses.size();
    for (List<String> c : clauses) {
      Query q = c.size() == 1 ? new TermQuery(new Term(field, c.get(0))) : phrase(field, c);
      b.add(new BoostQuery(q, weight), BooleanClause.Occur.MUST);
    }
    return b.build();
  }

  /**
   * A term of a clause as the index holds it; its position relative to the clause's first
   * word; and the {@link Neighbours} codes of the words that must stand just before and just
   * after it (0: any word).
   */
  record Placed(String term, int position, int before, int after) {
    /** Whether the term must have neighbours, standing for words the layout leaves out. */
    boolean linked() {
      return before != 0 || after != 0;
    }
  }

  /**
   * The words of a clause as the index holds them: two adjacent common words as their pair
   * term (see {@link CommonPairs}), every other word as itself, each at its position.
   * Matching these is matching the words, since a pair term exists exactly where both words
   * stand next to each other; the last term always ends with the last word.
   */
  static List<Placed> layout(List<String> words) {
    List<Placed> out = new ArrayList<>(words.size());
    boolean[] covered = new boolean[words.size()];
    for (int i = 0; i < words.size(); i++) {
      if (paired(words, i)) {
        out.add(new Placed(CommonPairs.pair(words.get(i), words.get(i + 1)), i, 0, 0));
        covered[i] = covered[i + 1] = true;
      } else if (!covered[i]) {
        out.add(new Placed(words.get(i), i, 0, 0));
      }
    }
    return out;
  }

  private static boolean paired(List<String> words, int i) {
    return i + 1 < words.size() && CommonPairs.common(words.get(i)) && CommonPairs.common(words.get(i + 1));
  }

  /**
   * The terms that match a clause fastest: as {@link #layout}, but a word with a
   * {@link Neighbours} code is left out where a neighbour kept as a term records it, and
   * that term requires its code instead. Words without a code are kept; coded words are
   * taken from the most frequent down, and one without a kept neighbour that records it
   * makes its rarer neighbour a term rather than itself. So "the needs" reads only "need",
   * "to work together" reads "work" (with "to" before it) and "together", never "to".
   */
  static List<Placed> linkedLayout(List<String> words) {
    int n = words.size();
    boolean[] covered = new boolean[n];
    for (int i = 0; i + 1 < n; i++) {
      if (paired(words, i)) covered[i] = covered[i + 1] = true;
    }
    int[] code = new int[n], before = new int[n], after = new int[n];
    boolean[] kept = new boolean[n], left = new boolean[n];
    List<Integer> coded = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      code[i] = Neighbours.code(words.get(i));
      if (covered[i]) continue;
      if (code[i] == 0) kept[i] = true;
      else coded.add(i);
    }
    coded.sort((a, b) -> Integer.compare(code[a], code[b]));
    for (int i : coded) {
      if (kept[i]) continue;
      int by = -1; // the neighbour that will record word i
      for (int k : new int[] {i + 1, i - 1}) {
        if (k < 0 || k >= n || covered[k] || left[k] || !Neighbours.recorded(code[i], code[k])) continue;
        if (kept[k]) {
          by = k;
          break;
        }
        if (by == -1 || rarity(code[k]) > rarity(code[by])) by = k;
      }
      if (by == -1) {
        kept[i] = true;
        continue;
      }
      kept[by] = true;
      left[i] = true;
      if (by == i + 1) before[by] = code[i];
      else after[by] = code[i];
    }
    List<Placed> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      if (paired(words, i)) {
        out.add(new Placed(CommonPairs.pair(words.get(i), words.get(i + 1)), i, 0, 0));
      } else if (kept[i]) {
        out.add(new Placed(words.get(i), i, before[i], after[i]));
      }
    }
    return out;
  }

  /** Higher is rarer: codes follow frequency, and a word without a code is rarer than all. */
  private static int rarity(int code) {
    return code == 0 ? Integer.MAX_VALUE : code;
  }

  static Query phrase(String field, List<String> words) {
    List<Placed> terms = linkedLayout(words);
    if (terms.stream().anyMatch(Placed::linked)) return new NeighbourPhraseQuery(field, terms);
    PhraseQuery.Builder p = new PhraseQuery.Builder();
    for (Placed t : terms) p.add(new Term(field, t.term()), t.position());
    return p.build();
  }

  /** A title match scores exactly {@link #TITLE_RANK}, whatever the words. */
  Query inTitle() {
    return new BoostQuery(new ConstantScoreQuery(inField(IndexedMeeting.TITLE)), TITLE_RANK);
  }
}
