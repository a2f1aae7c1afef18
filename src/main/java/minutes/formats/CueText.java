package minutes.formats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The text of one cue as segments: who spoke (from a WebVTT voice span, else unknown here) and
 * what was said, with markup removed, entities decoded and lines joined by a space. One pass
 * over the characters, no copies of tags: it runs on every cue of every file. Stateless.
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
    Said said = new Said(payload.length());
    String speaker = null;
    int n = payload.length();
    for (int i = 0; i < n; i++) {
      char c = payload.charAt(i);
      if (c == '<' && i + 1 < n && isTagStart(payload.charAt(i + 1))) {
        int close = payload.indexOf('>', i);
        int end = close < 0 ? n : close;
        if (isTag(payload, i + 1, end, "v")) {
          add(parts, speaker, said);
          speaker = voiceName(payload, i + 2, end);
        } else if (isTag(payload, i + 1, end, "/v")) {
          add(parts, speaker, said);
          speaker = null;
        }
        i = end;
      } else if (c == '&') {
        i = decodeReference(payload, i, said);
      } else {
        said.append(c);
      }
    }
    add(parts, speaker, said);
    return parts;
  }

  /**
   * SubRip cue text: plain text, but its formatting tags ({@code <i>}, {@code <b>}, {@code <u>},
   * {@code <font ...>}) and {@code {\an8}}-style placement codes are dropped. Other text in angle
   * brackets is text (SubRip has no escapes), so that {@code <script>} reads back as written.
   */
  static List<Part> subRip(String payload) {
    Said said = new Said(payload.length());
    int n = payload.length();
    for (int i = 0; i < n; i++) {
      char c = payload.charAt(i);
      int close = -1;
      if (c == '<') close = isFormatting(payload, i) ? payload.indexOf('>', i) : -1;
      else if (c == '{' && i + 1 < n && payload.charAt(i + 1) == '\\') close = payload.indexOf('}', i);
      if (close > 0) i = close;
      else said.append(c);
    }
    List<Part> parts = new ArrayList<>(1);
    add(parts, null, said);
    return parts;
  }

  private static boolean isFormatting(String s, int lt) {
    int close = s.indexOf('>', lt);
    if (close < 0) return false;
    String tag = s.substring(s.startsWith("/", lt + 1) ? lt + 2 : lt + 1, close).toLowerCase(Locale.ROOT);
    return tag.equals("i") || tag.equals("b") || tag.equals("u") || tag.equals("font") || tag.startsWith("font ");
  }

  private static boolean isTagStart(char c) {
    return Character.isLetterOrDigit(c) || c == '/';
  }

  /** Whether the tag in {@code s[from, end)} is {@code name}, alone or followed by classes ({@code v.loud}) or an annotation. */
  private static boolean isTag(String s, int from, int end, String name) {
    int after = from + name.length();
    return after <= end && s.startsWith(name, from)
        && (after == end || s.charAt(after) == '.' || Character.isWhitespace(s.charAt(after)));
  }

  /** The annotation of the voice tag {@code v[.classes] Name} in {@code s[from, end)}, decoded; null when there is none. */
  private static String voiceName(String s, int from, int end) {
    int i = from;
    while (i < end && !Character.isWhitespace(s.charAt(i))) i++; // the classes
    Said name = new Said(end - i);
    for (; i < end; i++) {
      char c = s.charAt(i);
      if (c == '&') i = Math.min(decodeReference(s, i, name), end - 1);
      else name.append(c);
    }
    String n = name.take();
    return n.isEmpty() ? null : n;
  }

  /** Ends the running part; what one voice says across spans in a row stays one part. */
  private static void add(List<Part> parts, String speaker, Said said) {
    String s = said.take();
    if (s.isEmpty()) return;
    Part last = parts.isEmpty() ? null : parts.getLast();
    if (last != null && Objects.equals(last.speaker(), speaker)) {
      parts.set(parts.size() - 1, new Part(speaker, last.text() + " " + s));
    } else {
      parts.add(new Part(speaker, s));
    }
  }

  /**
   * Decodes the character reference at {@code at} ({@code &amp;}, {@code &#233;}, {@code &#xE9;}, and
   * the named ones cue text uses) into {@code out}; returns the index of its last character. An
   * ampersand that starts no known reference stays as it is.
   */
  private static int decodeReference(String s, int at, Said out) {
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

  /** What is being said: runs of spaces, tabs and line ends become one space, none at either end. */
  private static final class Said {
    private final StringBuilder text;
    private boolean space;

    Said(int capacity) {
      text = new StringBuilder(capacity);
    }

    void append(char c) {
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        space = !text.isEmpty();
      } else {
        if (space) text.append(' ');
        space = false;
        text.append(c);
      }
    }

    void appendCodePoint(int cp) {
      if (Character.isBmpCodePoint(cp)) append((char) cp);
      else {
        append(Character.highSurrogate(cp));
        text.append(Character.lowSurrogate(cp));
      }
    }

    /** The text said so far, and a fresh start. */
    String take() {
      String s = text.toString();
      text.setLength(0);
      space = false;
      return s;
    }
  }
}
