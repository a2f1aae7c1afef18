package minutes.formats;

import java.util.ArrayList;
import java.util.List;

/**
 * The text of one cue as segments: who spoke (from a WebVTT voice span, else unknown here) and
 * what was said, with markup removed, entities decoded and lines joined by a space. Stateless.
 */
final class CueText {
  private CueText() {}

  /** What one voice (or no voice: {@code speaker} null) said in a cue. */
  record Part(String speaker, String text) {}

  /**
   * WebVTT cue text: {@code <v Name>} starts what Name says, up to {@code </v>}, the next voice
   * span or the end of the cue (the closing tag is often left out); other tags ({@code <i>},
   * {@code <b>}, {@code <c.x>}, timestamps) are dropped; character references are decoded.
   */
  static List<Part> webVtt(String payload) {
    List<Part> parts = new ArrayList<>(1);
    StringBuilder text = new StringBuilder(payload.length());
    String speaker = null;
    int n = payload.length();
    for (int i = 0; i < n; i++) {
      char c = payload.charAt(i);
      if (c == '<' && i + 1 < n && isTagStart(payload.charAt(i + 1))) {
        int close = payload.indexOf('>', i);
        String tag = close < 0 ? payload.substring(i + 1) : payload.substring(i + 1, close);
        i = close < 0 ? n : close;
        if (isVoice(tag, "v")) {
          add(parts, speaker, text);
          speaker = voiceName(tag);
        } else if (isVoice(tag, "/v")) {
          add(parts, speaker, text);
          speaker = null;
        }
      } else if (c == '&') {
        i = decodeReference(payload, i, text);
      } else {
        text.append(c == '\n' ? ' ' : c);
      }
    }
    add(parts, speaker, text);
    return parts;
  }

  /**
   * SubRip cue text: plain text, but its formatting tags ({@code <i>}, {@code <b>}, {@code <u>},
   * {@code <font ...>}) and {@code {\an8}}-style placement codes are dropped. Other text in angle
   * brackets is text (SubRip has no escapes), so that {@code <script>} reads back as written.
   */
  static List<Part> subRip(String payload) {
    StringBuilder text = new StringBuilder(payload.length());
    int n = payload.length();
    for (int i = 0; i < n; i++) {
      char c = payload.charAt(i);
      int close = -1;
      if (c == '<') close = isFormatting(payload, i) ? payload.indexOf('>', i) : -1;
      else if (c == '{' && i + 1 < n && payload.charAt(i + 1) == '\\') close = payload.indexOf('}', i);
      if (close > 0) i = close;
      else text.append(c == '\n' ? ' ' : c);
    }
    List<Part> parts = new ArrayList<>(1);
    add(parts, null, text);
    return parts;
  }

  private static boolean isFormatting(String s, int lt) {
    int close = s.indexOf('>', lt);
    if (close < 0) return false;
    String tag = s.substring(s.startsWith("/", lt + 1) ? lt + 2 : lt + 1, close).toLowerCase(java.util.Locale.ROOT);
    return tag.equals("i") || tag.equals("b") || tag.equals("u") || tag.equals("font") || tag.startsWith("font ");
  }

  private static boolean isTagStart(char c) {
    return Character.isLetterOrDigit(c) || c == '/';
  }

  /** The tag {@code name}, alone or followed by classes ({@code v.loud}) or an annotation. */
  private static boolean isVoice(String tag, String name) {
    return tag.startsWith(name) && (tag.length() == name.length() || tag.charAt(name.length()) == '.'
        || Character.isWhitespace(tag.charAt(name.length())));
  }

  /** The annotation of {@code v[.classes] Name}, decoded; null when there is none. */
  private static String voiceName(String tag) {
    int space = 1;
    while (space < tag.length() && !Character.isWhitespace(tag.charAt(space))) space++;
    StringBuilder name = new StringBuilder();
    String annotation = tag.substring(space);
    for (int i = 0; i < annotation.length(); i++) {
      char c = annotation.charAt(i);
      if (c == '&') i = decodeReference(annotation, i, name);
      else name.append(Character.isWhitespace(c) ? ' ' : c);
    }
    String s = name.toString().strip();
    return s.isEmpty() ? null : s;
  }

  /** Ends the running part; what one voice says across spans in a row stays one part. */
  private static void add(List<Part> parts, String speaker, StringBuilder text) {
    String s = collapse(text);
    text.setLength(0);
    if (s.isEmpty()) return;
    Part last = parts.isEmpty() ? null : parts.getLast();
    if (last != null && java.util.Objects.equals(last.speaker(), speaker)) {
      parts.set(parts.size() - 1, new Part(speaker, last.text() + " " + s));
    } else {
      parts.add(new Part(speaker, s));
    }
  }

  /** Stripped, with the runs of spaces that joined lines, tags and spans made one. */
  private static String collapse(StringBuilder text) {
    StringBuilder out = new StringBuilder(text.length());
    boolean space = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == ' ' || c == '\t') {
        space = !out.isEmpty();
      } else {
        if (space) out.append(' ');
        space = false;
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * Decodes the character reference at {@code at} ({@code &amp;}, {@code &#233;}, {@code &#xE9;}, and
   * the named ones cue text uses) into {@code out}; returns the index of its last character. An
   * ampersand that starts no known reference stays as it is.
   */
  private static int decodeReference(String s, int at, StringBuilder out) {
    int semi = s.indexOf(';', at);
    if (semi > at + 1 && semi - at <= 10) {
      String name = s.substring(at + 1, semi);
      int cp = switch (name) {
        case "amp" -> '&';
        case "lt" -> '<';
        case "gt" -> '>';
        case "quot" -> '"';
        case "apos" -> '\'';
        case "nbsp" -> '\u00a0';
        case "lrm" -> '\u200e';
        case "rlm" -> '\u200f';
        default -> numeric(name);
      };
      if (cp >= 0) {
        out.appendCodePoint(cp);
        return semi;
      }
    }
    out.append('&');
    return at;
  }

  private static int numeric(String name) {
    if (name.length() < 2 || name.charAt(0) != '#') return -1;
    boolean hex = name.charAt(1) == 'x' || name.charAt(1) == 'X';
    try {
      int cp = Integer.parseInt(name.substring(hex ? 2 : 1), hex ? 16 : 10);
      return Character.isValidCodePoint(cp) && cp != 0 ? cp : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
