package minutes.search.text;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns minutes written in Markdown into the plain text that is indexed and shown in
 * snippets, so that no {@code **}, {@code #} or link syntax ever appears in a snippet.
 * Stateless and thread-safe.
 */
public final class MarkdownText {
  private MarkdownText() {}

  private static final Pattern LINE_PREFIX = Pattern.compile(
      "(?m)^[ \\t]*(?:>[ \\t]?)*(?:#{1,6}[ \\t]+|[-*+][ \\t]+(?:\\[[ xX]\\][ \\t]+)?|\\d{1,9}[.)][ \\t]+)?");
  private static final Pattern RULE_OR_FENCE = Pattern.compile("(?m)^[ \\t]*(?:[-*_][ \\t]*){3,}$|^[ \\t]*(?:```|~~~).*$");
  private static final Pattern TABLE_RULE = Pattern.compile(
      "(?m)^[ \\t]*\\|?[ \\t]*:?-{3,}:?[ \\t]*(?:\\|[ \\t]*:?-{3,}:?[ \\t]*)*\\|?[ \\t]*$");
  private static final Pattern IMAGE_OR_LINK = Pattern.compile("!?\\[([^\\]\\n]*)\\]\\([^)\\n]*\\)");
  private static final Pattern AUTOLINK = Pattern.compile("<((?:https?|mailto):[^>\\s]+)>");
  private static final Pattern STRONG = Pattern.compile("(\\*\\*|__)(?=\\S)(.+?)(?<=\\S)\\1");
  private static final Pattern EMPHASIS = Pattern.compile("(?<![\\w*])([*_])(?=\\S)(.+?)(?<=\\S)\\1(?![\\w*])");
  private static final Pattern STRIKE = Pattern.compile("~~(?=\\S)(.+?)(?<=\\S)~~");
  private static final Pattern CODE = Pattern.compile("`+([^`\\n]*)`+");
  private static final Pattern ESCAPE = Pattern.compile("\\\\([\\\\`*_{}\\[\\]()#+\\-.!|>~])");

  /**
   * Plain text of a Markdown document, whitespace collapsed to single spaces. A pattern runs
   * only if the character it needs occurs: each run scans the whole text.
   */
  public static String plain(String md) {
    if (md == null || md.isEmpty()) return "";
    String s = md;
    if (hasAny(s, "-*_`~")) s = RULE_OR_FENCE.matcher(s).replaceAll("");
    if (hasAny(s, "-")) s = TABLE_RULE.matcher(s).replaceAll("");
    s = LINE_PREFIX.matcher(s).replaceAll("");
    if (hasAny(s, "[")) s = IMAGE_OR_LINK.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(1)));
    if (hasAny(s, "<")) s = AUTOLINK.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(1)));
    if (hasAny(s, "`")) s = CODE.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(1)));
    if (hasAny(s, "*_")) {
      s = STRONG.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(2)));
      s = EMPHASIS.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(2)));
    }
    if (hasAny(s, "~")) s = STRIKE.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(1)));
    if (hasAny(s, "\\")) s = ESCAPE.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(1)));
    StringBuilder out = new StringBuilder(s.length());
    appendCollapsed(out, s.replace('|', ' '));
    return out.toString();
  }

  private static boolean hasAny(String s, String chars) {
    return chars.chars().anyMatch(c -> s.indexOf(c) >= 0);
  }

  /**
   * Appends s with whitespace runs collapsed to one space, separated from what out holds by one
   * space: the snippet break iterator splits at spaces only, and a snippet never shows line
   * structure anyway.
   */
  public static void appendCollapsed(StringBuilder out, CharSequence s) {
    int n = s.length();
    int i = 0;
    while (i < n) {
      while (i < n && isSpace(s.charAt(i))) i++;
      int word = i;
      while (i < n && !isSpace(s.charAt(i))) i++;
      if (i > word) {
        if (out.length() > 0) out.append(' ');
        out.append(s, word, i); // whole runs: this loop runs over every transcript character
      }
    }
  }

  public static boolean isSpace(char c) {
    if (c < 0x80) return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1C && c <= 0x1F);
    return Character.isWhitespace(c) || Character.isSpaceChar(c);
  }
}
