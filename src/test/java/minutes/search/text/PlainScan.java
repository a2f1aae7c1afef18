package minutes.search.text;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

/**
 * The oracle of the search properties: where a query matches a text, found the obvious way.
 * The text's words are analysed as the index analyses them (Unicode word splitting and
 * {@link FoldingFilter}, nothing faster; for a meeting in another language its
 * {@link Reading}'s tokenizer and word rules), and every clause is looked for at every word by
 * comparing word after word; the best window for a snippet is tried from every match.
 * Stateless.
 */
public final class PlainScan {
  private PlainScan() {}

  /**
   * A word of a text as the index holds it, with its position and character offsets; {@code pair}:
   * an overlapping pair of CJK characters ({@link Reading#CJK}).
   */
  public record Word(String term, int position, int start, int end, boolean pair) {}

  /** A query as generated: loose words and phrases, as a user types them. */
  public record Query(List<String> words, List<List<String>> phrases) {
    /** The text of q: loose words, then each phrase in double quotes. */
    public String text() {
      StringBuilder q = new StringBuilder(String.join(" ", words));
      for (List<String> p : phrases) q.append(" \"").append(String.join(" ", p)).append('"');
      return q.toString();
    }

    /** Each loose word's analysed words one by one, each phrase's all together; each clause once. */
    public List<List<String>> clauses() {
      Set<List<String>> out = new LinkedHashSet<>();
      for (String w : words) for (Word t : PlainScan.words(w)) out.add(List.of(t.term()));
      for (List<String> p : phrases) {
        List<String> terms = PlainScan.words(String.join(" ", p)).stream().map(Word::term).toList();
        if (!terms.isEmpty()) out.add(terms);
      }
      return List.copyOf(out);
    }

    /**
     * The clauses as a meeting of {@code reading}'s languages reads q (its tokenizer and word
     * rules): the loose words' words one by one, except that the pairs of one run of CJK
     * characters typed together are one clause, in order; each phrase's words all together. The
     * loose words are read as typed, together: the JDK's Thai word breaker splits a string that is
     * no dictionary word otherwise at the end of a text than before a space.
     */
    public List<List<String>> clauses(Reading reading) {
      if (reading == Reading.DEFAULT) return clauses();
      Set<List<String>> out = new LinkedHashSet<>();
      String typed = text().strip();
      int quote = typed.indexOf('"');
      List<String> run = new ArrayList<>();
      int runEnd = -1;
      for (Word t : PlainScan.words(quote < 0 ? typed : typed.substring(0, quote), reading)) {
        if (!(t.pair() && t.start() < runEnd) && !run.isEmpty()) {
          out.add(List.copyOf(run));
          run.clear();
        }
        run.add(t.term());
        runEnd = t.pair() ? t.end() : -1;
      }
      if (!run.isEmpty()) out.add(List.copyOf(run));
      for (List<String> p : phrases) {
        List<String> terms = PlainScan.words(String.join(" ", p), reading).stream().map(Word::term).toList();
        if (!terms.isEmpty()) out.add(terms);
      }
      return List.copyOf(out);
    }
  }

  /** The texts analysed last: the properties ask about the same texts many times. */
  private static final Map<String, List<Word>> RECENT = Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, List<Word>> eldest) {
      return size() > 2000;
    }
  });

  /** The words of text as the index holds them (for an English meeting), in order. */
  public static List<Word> words(String text) {
    List<Word> words = RECENT.get(text);
    if (words == null) {
      StandardTokenizer t = new StandardTokenizer();
      RECENT.put(text, words = analysed(t, new FoldingFilter(t), text));
    }
    return words;
  }

  /**
   * The words of text as a meeting of {@code reading}'s languages holds them: the reading's
   * tokenizer and word rules, without the pair terms of common words (only for fast phrases).
   */
  public static List<Word> words(String text, Reading reading) {
    if (reading == Reading.DEFAULT) return words(text);
    String key = reading + "\u0000" + text;
    List<Word> words = RECENT.get(key);
    if (words == null) {
      Tokenizer t = reading.tokenizer();
      RECENT.put(key, words = analysed(t, reading.words(t), text));
    }
    return words;
  }

  private static List<Word> analysed(Tokenizer t, TokenStream words, String text) {
    List<Word> out = new ArrayList<>();
    try (TokenStream ts = words) {
      t.setReader(new StringReader(text));
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
      PositionIncrementAttribute increment = ts.addAttribute(PositionIncrementAttribute.class);
      TypeAttribute type = ts.addAttribute(TypeAttribute.class);
      ts.reset();
      int position = -1;
      while (ts.incrementToken()) {
        position += increment.getPositionIncrement();
        out.add(new Word(term.toString(), position, offset.startOffset(), offset.endOffset(),
            type.type().equals(CJKBigramFilter.DOUBLE_TYPE)));
      }
      ts.end();
    } catch (IOException e) {
      throw new AssertionError(e); // a String reader does not fail
    }
    return List.copyOf(out);
  }

  /** Every occurrence of every clause in text, by start, the longer first where two start together. */
  public static List<QueryMatches.Span> matches(String text, List<List<String>> clauses) {
    return matches(words(text), clauses);
  }

  /** Every occurrence of every clause in a text's words, by start, the longer first where two start together. */
  public static List<QueryMatches.Span> matches(List<Word> words, List<List<String>> clauses) {
    List<QueryMatches.Span> out = new ArrayList<>();
    for (int c = 0; c < clauses.size(); c++) {
      List<String> clause = clauses.get(c);
      for (int i = 0; i + clause.size() <= words.size(); i++) {
        boolean all = true;
        for (int k = 0; k < clause.size() && all; k++) {
          Word w = words.get(i + k);
          all = w.term().equals(clause.get(k)) && w.position() == words.get(i).position() + k;
        }
        if (all) out.add(new QueryMatches.Span(words.get(i).start(), words.get(i + clause.size() - 1).end(), c));
      }
    }
    out.sort(Comparator.comparingInt(QueryMatches.Span::start).thenComparing(QueryMatches.Span::end, Comparator.reverseOrder()));
    return out;
  }

  /** Whether every clause occurs in text. */
  public static boolean holdsAll(String text, List<List<String>> clauses) {
    return !clauses.isEmpty() && matches(text, clauses).stream().map(QueryMatches.Span::clause).distinct().count() == clauses.size();
  }

  /**
   * The window of at most {@code width} characters, starting where a match starts, that holds
   * the most different clauses, then the most matches, the earliest on a tie; a match longer
   * than the window alone where nothing fits.
   */
  public static QueryMatches.Best best(List<QueryMatches.Span> matches, int width) {
    QueryMatches.Best best = new QueryMatches.Best(0, 0, List.of());
    long bestScore = -1;
    for (QueryMatches.Span from : matches) {
      List<QueryMatches.Span> held = matches.stream()
          .filter(m -> m.start() >= from.start() && m.end() <= from.start() + width).toList();
      if (held.isEmpty()) held = List.of(from);
      long score = held.stream().map(QueryMatches.Span::clause).distinct().count() * 1_000_000L + held.size();
      if (score > bestScore) {
        bestScore = score;
        best = new QueryMatches.Best(from.start(), held.stream().mapToInt(QueryMatches.Span::end).max().orElseThrow(), held);
      }
    }
    return best;
  }

  /** The snippet a search shows for text: its best window, rendered as every snippet is. */
  public static String snippet(String text, List<List<String>> clauses) {
    QueryMatches.Best b = best(matches(text, clauses), SnippetText.PASSAGE_WIDTH);
    int[] window = SnippetText.window(text.length(), b.start(), b.end());
    return SnippetText.render(text, 0, text.length(), window[0], window[1], b.spans());
  }

  /**
   * The snippet transcript search shows for a segment that holds every clause: around its
   * first match, all its matches marked; null for a segment that does not.
   */
  public static String segmentSnippet(String text, List<List<String>> clauses) {
    if (!holdsAll(text, clauses)) return null;
    List<QueryMatches.Span> spans = matches(text, clauses);
    int[] window = SnippetText.window(text.length(), spans.get(0).start(), spans.get(0).end());
    return SnippetText.render(text, 0, text.length(), window[0], window[1], spans);
  }
}
