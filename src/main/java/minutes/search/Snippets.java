package minutes.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.text.BreakIterator;
import java.util.Arrays;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.search.uhighlight.CustomSeparatorBreakIterator;
import org.apache.lucene.search.uhighlight.LengthGoalBreakIterator;
import org.apache.lucene.search.uhighlight.Passage;
import org.apache.lucene.search.uhighlight.PassageFormatter;

/**
 * Snippet text: at most {@link #MAX_VISIBLE} visible characters around the best passage,
 * HTML-escaped, with only {@code <mark>}/{@code </mark>} as raw HTML (decisions.md, GET
 * /search). Stateless and thread-safe.
 */
final class Snippets {
  private Snippets() {}

  /** Visible characters of a content snippet, ellipses included. */
  static final int MAX_VISIBLE = 240;
  /** What the passage finder aims at; the formatter then trims to {@link #MAX_VISIBLE}. */
  static final int PASSAGE_GOAL = 200;
  private static final String ELLIPSIS = "\u2026";

  /**
   * Passage boundaries at spaces around the match, centred on it. The JDK's sentence
   * iterator rescans long texts and grows quadratically on a 100 KB transcript; this one
   * only looks at the characters near each match (indexed text has single spaces only).
   */
  static BreakIterator breakIterator() {
    return LengthGoalBreakIterator.createClosestToLength(new CustomSeparatorBreakIterator(' '), PASSAGE_GOAL, 0.5f);
  }

  /** Formats the best passage of a protocol or transcript for the highlighter. */
  static final PassageFormatter FORMATTER = new PassageFormatter() {
    @Override
    public Object format(Passage[] passages, String content) {
      if (passages.length == 0) return content(content, 0, Math.min(content.length(), PASSAGE_GOAL), new int[0], new int[0]);
      Passage p = passages[0];
      int n = p.getNumMatches();
      return content(content, p.getStartOffset(), p.getEndOffset(),
          Arrays.copyOf(p.getMatchStarts(), n), Arrays.copyOf(p.getMatchEnds(), n));
    }
  };

  /**
   * The snippet of text[start, end) with the given matches marked. When the passage is
   * longer than allowed, the window is re-centred on the first match and cut at spaces.
   */
  static String content(String text, int start, int end, int[] matchStarts, int[] matchEnds) {
    int budget = MAX_VISIBLE - 2; // room for both ellipses
    if (end - start > budget) {
      int focusStart = matchStarts.length > 0 ? matchStarts[0] : start;
      int focusEnd = matchStarts.length > 0 ? Math.min(matchEnds[0], focusStart + budget) : start;
      int slack = budget - (focusEnd - focusStart);
      int from = Math.max(start, focusStart - slack / 2);
      int to = Math.min(end, from + budget);
      from = Math.max(start, to - budget);
      // Prefer not to cut words, as long as that loses little text and never the match.
      int space = text.indexOf(' ', from);
      if (from > start && space >= 0 && space < focusStart && space - from < 30) from = space + 1;
      space = text.lastIndexOf(' ', to);
      if (to < end && space > focusEnd && to - space < 30) to = space;
      start = from;
      end = to;
    }
    // Never split a surrogate pair: half of one is not valid text (nor valid JSON).
    if (start > 0 && start < text.length() && Character.isLowSurrogate(text.charAt(start))) start++;
    if (end > start && end < text.length() && Character.isLowSurrogate(text.charAt(end))) end--;
    StringBuilder out = new StringBuilder(end - start + 40);
    if (start > 0) out.append(ELLIPSIS);
    int at = start;
    for (int i = 0; i < matchStarts.length; i++) {
      int ms = Math.max(matchStarts[i], at);
      int me = Math.min(matchEnds[i], end);
      if (ms >= me) continue; // outside the window, or inside a match already marked
      escape(out, text, at, ms);
      out.append("<mark>");
      escape(out, text, ms, me);
      out.append("</mark>");
      at = me;
    }
    escape(out, text, at, end);
    if (end < text.length()) out.append(ELLIPSIS);
    return out.toString();
  }

  /** The whole title, with every word that matches a query word marked. */
  static String title(Analyzer analyzer, String title, Set<String> words) {
    StringBuilder out = new StringBuilder(title.length() + 32);
    int at = 0;
    try (TokenStream ts = analyzer.tokenStream(IndexedMeeting.TITLE, title)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        if (!words.contains(term.toString()) || offset.startOffset() < at) continue;
        escape(out, title, at, offset.startOffset());
        out.append("<mark>");
        escape(out, title, offset.startOffset(), offset.endOffset());
        out.append("</mark>");
        at = offset.endOffset();
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // analysing a String cannot fail on I/O
    }
    escape(out, title, at, title.length());
    return out.toString();
  }

  static void escape(StringBuilder out, String s, int from, int to) {
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
  }
}
