package minutes.formats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * WebVTT (W3C, "WebVTT: The Web Video Text Tracks Format"): reads the cues of a file as the
 * spec's file parsing algorithm does, block by block, and writes segments as a file. What that
 * algorithm keeps is kept with the same times and text; a block it drops (a timing line that
 * does not parse, text without a timing line) is reported to {@link Skips}, and so is a cue
 * that ends before it starts (kept, its end set to its start). Timings may also be written as
 * Microsoft Teams writes them ({@link Timestamps}). A file without the {@code WEBVTT} signature
 * is refused. Stateless.
 */
final class WebVtt {
  static final String EXAMPLE = "00:01:02.000 --> 00:01:05.500";

  private WebVtt() {}

  static List<RawCue> read(String file, String[] lines, Skips skips) {
    if (!isHeader(lines[0])) {
      throw new FormatError(file, 1, null, "expected the WebVTT header line 'WEBVTT', found " + FormatError.quote(lines[0])
          + (lines[0].strip().matches("\\d+") ? " (a SubRip file? use --format srt)" : ""));
    }
    List<RawCue> cues = new ArrayList<>();
    // The header: lines up to an empty one; a line with "-->" ends it and is read as a cue's.
    int i = 1;
    while (i < lines.length && !lines[i].isEmpty() && !lines[i].contains("-->")) i++;
    while (i < lines.length) {
      if (lines[i].isEmpty()) {
        i++;
        continue;
      }
      i = block(file, lines, i, skips, cues);
    }
    return cues;
  }

  /**
   * "Collect a WebVTT block" from line {@code from}: a line with "-->" as its first line, or as
   * its second after an identifier, is its timing line; the block ends at an empty line or at a
   * later line with "-->", which starts the next block. Adds its cue, if any; returns where the
   * next block starts.
   */
  private static int block(String file, String[] lines, int from, Skips skips, List<RawCue> cues) {
    int i = from, next = from, timing = -1;
    long[] times = null;
    while (i < lines.length) {
      String line = lines[i++];
      if (line.contains("-->")) {
        int count = i - from;
        if (count > 2 || count == 2 && timing >= 0) break; // the next block's timing line
        timing = i - 1;
        times = timing(line, false);
      } else if (line.isEmpty()) {
        break;
      }
      next = i;
    }
    if (times != null) {
      cues.add(RawCue.of(file, lines, timing, next, times, skips));
    } else if (timing >= 0) {
      skips.skip(file, timing + 1, "expected a cue timing such as '" + EXAMPLE + "', found " + FormatError.quote(lines[timing]));
    } else if (!isComment(lines[from]) && !Arrays.asList(lines).subList(from, next).stream().allMatch(String::isBlank)) {
      skips.skip(file, from + 1, "expected a cue timing line such as '" + EXAMPLE + "', found text outside any cue: "
          + FormatError.quote(lines[from]) + " (an empty line ends a cue)");
    }
    return next;
  }

  /**
   * The start and end of a timing line {@code start --> end [settings]}, as the W3C's "collect
   * WebVTT cue timings and settings" reads them (whitespace around the arrow optional, the
   * settings not read), or null when it does not parse. SubRip's are read alike.
   */
  static long[] timing(String line, boolean subRip) {
    int[] at = {skipWhitespace(line, 0)};
    long start = Timestamps.read(line, at, subRip);
    if (start < 0) return null;
    at[0] = skipWhitespace(line, at[0]);
    if (!line.startsWith("-->", at[0])) return null;
    at[0] = skipWhitespace(line, at[0] + 3);
    long end = Timestamps.read(line, at, subRip);
    return end < 0 ? null : new long[] {start, end};
  }

  /** Past the WebVTT whitespace (space, tab, form feed; the line ends are gone) at {@code i}. */
  private static int skipWhitespace(String s, int i) {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\f')) i++;
    return i;
  }

  /** "WEBVTT" alone or followed by a space or tab and any text. */
  private static boolean isHeader(String line) {
    return line.startsWith("WEBVTT") && (line.length() == 6 || line.charAt(6) == ' ' || line.charAt(6) == '\t');
  }

  /** A NOTE, STYLE or REGION block, which holds no cue by design: dropped without a word. */
  private static boolean isComment(String line) {
    for (String keyword : new String[] {"NOTE", "STYLE", "REGION"}) {
      if (line.startsWith(keyword) && (line.length() == keyword.length() || line.charAt(keyword.length()) == ' '
          || line.charAt(keyword.length()) == '\t')) {
        return true;
      }
    }
    return false;
  }

  /** A cue per segment, the speaker in a voice span, text escaped so that it reads back the same. */
  static String write(List<Cue> cues) {
    StringBuilder out = new StringBuilder(64 + cues.size() * 96);
    out.append("WEBVTT\n");
    for (Cue c : cues) {
      out.append('\n');
      Timestamps.format(c.startMs(), '.', out);
      out.append(" --> ");
      Timestamps.format(c.endMs(), '.', out);
      out.append("\n<v ");
      escape(CueFormat.oneLine(c.speaker()), out);
      out.append('>');
      CueFormat.appendLines(c.text(), out, WebVtt::escape);
      out.append('\n');
    }
    return out.toString();
  }

  /** WebVTT text escapes &, < and >, which also keeps "-->" out of a cue's text. */
  private static void escape(String s, StringBuilder out) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        default -> out.append(c);
      }
    }
  }
}
