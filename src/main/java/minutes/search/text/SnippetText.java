package minutes.search.text;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;

/**
 * Snippet text: at most {@link #MAX_VISIBLE} visible characters around the best window of
 * matches (chosen by {@link QueryMatches#best}), HTML-escaped, with only {@code <mark>}/{@code
 * </mark>} as raw HTML (decisions.md, GET /search). A caller hands over only the characters
 * around the window, so that a 100 KB transcript is never read whole. Stateless and thread-safe.
 */
public final class SnippetText {
  private SnippetText() {}

  /** Visible characters of a content snippet, ellipses included. */
  public static final int MAX_VISIBLE = 240;
  /** Width within which the most different query words are looked for (see {@link QueryMatches#best}). */
  public static final int PASSAGE_WIDTH = 160;
  /** How far a window edge may move to avoid cutting a word. */
  private static final int SNAP = 16;
  private static final String ELLIPSIS = "\u2026";

  /**
   * The character range [from, to) of a snippet around the matches [groupStart, groupEnd)
   * in a text of {@code length} characters: centred on them, at most MAX_VISIBLE - 2 long
   * (room for both ellipses), widened to the text's ends when it is short.
   */
  public static int[] window(int length, int groupStart, int groupEnd) {
    int budget = MAX_VISIBLE - 2;
    if (length <= budget) return new int[] {0, length};
    int group = Math.min(groupEnd - groupStart, budget);
    int from = Math.max(0, groupStart - (budget - group) / 2);
    int to = Math.min(length, from + budget);
    from = Math.max(0, to - budget);
    return new int[] {from, to};
  }

  /**
   * Renders text[from, to) with the spans marked and HTML escaped. {@code text} holds the
   * characters [base, base + text.length()) of the field, a little more than [from, to), so
   * that the edges can move inwards to the nearest space instead of cutting a word.
   */
  public static String render(String text, int base, int fullLength, int from, int to, List<QueryMatches.Span> spans) {
    int first = spans.isEmpty() ? to : spans.get(0).start();
    int last = from;
    for (QueryMatches.Span sp : spans) if (sp.start() < to) last = Math.max(last, Math.min(sp.end(), to));
    if (from > 0) {
      int space = text.indexOf(' ', from - base);
      if (space >= 0 && space + base < first && space + base - from < SNAP) from = space + base + 1;
    }
    if (to < fullLength) {
      int space = text.lastIndexOf(' ', to - base);
      if (space >= 0 && space + base > last && to - space - base < SNAP) to = space + base;
    }
    // Never split a surrogate pair: half of one is not valid text (nor valid JSON).
    if (from > 0 && from < fullLength && Character.isLowSurrogate(text.charAt(from - base))) from++;
    if (to > from && to < fullLength && Character.isLowSurrogate(text.charAt(to - base))) to--;
    StringBuilder out = new StringBuilder(to - from + 64);
    if (from > 0) out.append(ELLIPSIS);
    int at = from;
    for (QueryMatches.Span sp : spans) {
      int ms = Math.max(sp.start(), at);
      int me = Math.min(sp.end(), to);
      if (ms >= me) continue; // outside the window, or inside a span already marked
      escape(out, text, at - base, ms - base);
      out.append("<mark>");
      escape(out, text, ms - base, me - base);
      out.append("</mark>");
      at = me;
    }
    escape(out, text, at - base, to - base);
    if (to < fullLength) out.append(ELLIPSIS);
    return out.toString();
  }

  /**
   * A transcript segment's snippet, as the transcript search and a hit's moments show it: the
   * window around its first match (spans by start, then longest first; offsets into text).
   */
  public static String segment(String text, List<QueryMatches.Span> spans) {
    int[] w = window(text.length(), spans.get(0).start(), spans.get(0).end());
    return render(text, 0, text.length(), w[0], w[1], spans);
  }

  /** The whole title, with every word that matches a query word marked. */
  public static String title(Analyzer analyzer, String title, Set<String> words) {
    StringBuilder out = new StringBuilder(title.length() + 32);
    int at = 0;
    try (TokenStream ts = analyzer.tokenStream("title", title)) {
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

  /** Appends s[from, to) HTML-escaped; the text between special characters is copied in runs, not char by char. */
  public static void escape(StringBuilder out, String s, int from, int to) {
    int run = from;
    for (int i = from; i < to; i++) {
      String entity = switch (s.charAt(i)) {
        case '<' -> "&lt;";
        case '>' -> "&gt;";
        case '&' -> "&amp;";
        case '"' -> "&quot;";
        case '\'' -> "&#39;";
        default -> null;
      };
      if (entity == null) continue;
      out.append(s, run, i).append(entity);
      run = i + 1;
    }
    out.append(s, run, to);
  }
}
