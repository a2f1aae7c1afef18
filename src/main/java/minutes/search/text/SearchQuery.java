package minutes.search.text;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

/**
 * A user's {@code q} read into clauses without any query syntax: each word is a clause, text in
 * double quotes is one clause (a phrase), and all other characters are just text that the
 * analyzer keeps or drops. Which clauses must match is the search's {@code match} mode, not
 * this. Immutable.
 */
public final class SearchQuery {
  /** Characters (code points) of q after trimming; decisions.md: at least 2. */
  public static final int MIN_CHARS = 2;
  /** Longer input is refused (400): no real query needs it and it bounds the work per request. */
  public static final int MAX_CHARS = 500;
  /** Words and phrases after analysis; more is refused (400) for the same reason. */
  public static final int MAX_CLAUSES = 64;
  /** The trimmed text echoed as {@code query}. */
  public final String text;
  /** Each clause: one analysed word, or the words of a phrase in order. */
  public final List<List<String>> clauses;
  /** The reading the clauses were read by: its function words weigh less ({@link WordWeights}). */
  private final Reading reading;

  private SearchQuery(String text, List<List<String>> clauses, Reading reading) {
    this.text = text;
    this.clauses = clauses;
    this.reading = reading;
  }

  /**
   * Which clauses a meeting (or a segment) must hold to match (decisions.md, "Finding what
   * people ask"): {@link #ALL} of them, or at least one ({@link #MOST}: those holding more of
   * the query's words come first).
   */
  public enum Match {
    ALL("all"), MOST("most");

    /** The value of the {@code match} parameter. */
    public final String value;

    Match(String value) {
      this.value = value;
    }

    public static final List<String> VALUES = List.of(ALL.value, MOST.value);

    public static Match of(String value) {
      for (Match m : values()) if (m.value.equals(value)) return m;
      throw new IllegalArgumentException(value);
    }
  }

  /** Input this service refuses to search for; the message says why, for a 400 naming q. */
  public static final class Refused extends Exception {
    Refused(String message) {
      super(message, null, false, false);
    }
  }

  /** Validates and analyses q. */
  public static SearchQuery parse(String raw, Analyzer analyzer) throws Refused {
    return parse(raw, analyzer, MAX_CLAUSES);
  }

  private static SearchQuery parse(String raw, Analyzer analyzer, int maxClauses) throws Refused {
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
    if (clauses.size() > maxClauses) {
      throw new Refused("q must hold at most " + MAX_CLAUSES + " words and phrases");
    }
    return new SearchQuery(text, List.copyOf(clauses),
        analyzer instanceof SearchAnalyzer a ? a.reading() : Reading.DEFAULT);
  }

  private static boolean isQuote(char c) {
    return c == '"' || c == '\u201C' || c == '\u201D' || c == '\u201E';
  }

  private static void addPart(String part, boolean phrase, Analyzer analyzer, Set<List<String>> out) {
    if (part.isBlank()) return;
    List<List<String>> words = words(analyzer, part);
    if (words.isEmpty()) return;
    if (phrase) {
      out.add(words.stream().flatMap(List::stream).toList());
    } else {
      out.addAll(words);
    }
  }

  /**
   * The same query as another {@link Reading}'s analyzer reads it (it passed this one's checks):
   * at most {@link #MAX_CLAUSES} clauses, the first ones, since character pairs may be more.
   */
  public SearchQuery readAs(Analyzer analyzer) {
    SearchQuery q;
    try {
      q = parse(text, analyzer, Integer.MAX_VALUE);
    } catch (Refused e) {
      throw new IllegalStateException("a query that passed its checks", e);
    }
    return q.clauses.size() <= MAX_CLAUSES ? q : new SearchQuery(text, q.clauses.subList(0, MAX_CLAUSES), q.reading);
  }

  /**
   * The analysed words of a part of the query, each a list of one word, except that the
   * overlapping character pairs of one run of Chinese, Japanese or Korean ({@link Reading#CJK})
   * are one list, a phrase: the run is the word the user typed, and its pairs must follow each
   * other as in the run.
   */
  private static List<List<String>> words(Analyzer analyzer, String text) {
    List<List<String>> words = new ArrayList<>();
    try (TokenStream ts = analyzer.tokenStream("q", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      PositionIncrementAttribute increment = ts.addAttribute(PositionIncrementAttribute.class);
      TypeAttribute type = ts.addAttribute(TypeAttribute.class);
      OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
      ts.reset();
      int runEnd = -1;
      while (ts.incrementToken()) {
        if (increment.getPositionIncrement() == 0) continue;
        boolean pair = type.type().equals(CJKBigramFilter.DOUBLE_TYPE);
        if (pair && offset.startOffset() < runEnd) {
          List<String> run = words.getLast();
          if (run.size() == 1) words.set(words.size() - 1, run = new ArrayList<>(run));
          run.add(term.toString());
        } else {
          words.add(List.of(term.toString()));
        }
        runEnd = pair ? offset.endOffset() : -1;
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // analysing a String cannot fail on I/O
    }
    return words.stream().map(List::copyOf).toList();
  }

  /** The analysed words of text, without the common-word pairs (those are only for phrases). */
  public static List<String> analyze(Analyzer analyzer, String text) {
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
  public static String wellFormed(String s) {
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

  public boolean isEmpty() {
    return clauses.isEmpty();
  }

  /**
   * The clauses that count toward "more of the query's words" in {@link Match#MOST}, as a bit
   * per clause: those that tell ({@link WordWeights}), or all of them when none does. A question
   * ("what did they say about the budget") is then ordered by its words that tell.
   */
  public long counted() {
    long counted = 0;
    for (int c = 0; c < clauses.size(); c++) {
      if (!WordWeights.isFunctionWords(clauses.get(c), reading)) counted |= 1L << c;
    }
    return counted != 0 ? counted : clauses.size() == 64 ? -1L : (1L << clauses.size()) - 1;
  }

  /** Each clause's weight ({@link WordWeights#of}). */
  public float[] weights() {
    float[] w = new float[clauses.size()];
    for (int c = 0; c < w.length; c++) w[c] = WordWeights.of(clauses.get(c), reading);
    return w;
  }

  /** Every analysed word of the query, for marking a title. */
  public Set<String> words() {
    Set<String> all = new LinkedHashSet<>();
    for (List<String> c : clauses) all.addAll(c);
    return all;
  }
}
