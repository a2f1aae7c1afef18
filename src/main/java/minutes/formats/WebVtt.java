package minutes.formats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * WebVTT (W3C, "WebVTT: The Web Video Text Tracks Format"): reads the cues of a file and writes
 * segments as one. Reading follows the spec's parser where real files need it (a BOM, CR/LF,
 * text after {@code WEBVTT}, header lines, NOTE/STYLE/REGION blocks, cue identifiers, cue
 * settings, hours left out) and refuses, by line, what it cannot read as a cue: a block that is
 * none of these, a timing that does not parse, an end before the start. Stateless.
 */
final class WebVtt {
  private WebVtt() {}

  static List<RawCue> read(String file, String[] lines) {
    if (!isHeader(lines[0])) {
      throw new FormatError(file, 1, null, "expected the WebVTT header line 'WEBVTT', found '" + shorten(lines[0]) + "'"
          + (lines[0].strip().matches("\\d+") ? " (a SubRip file? use --format srt)" : ""));
    }
    List<RawCue> cues = new ArrayList<>();
    int i = 1;
    while (i < lines.length && !lines[i].isBlank() && !lines[i].contains("-->")) i++; // header lines
    while (i < lines.length) {
      if (lines[i].isBlank()) {
        i++;
        continue;
      }
      String first = lines[i];
      if (!first.contains("-->") && (isBlock(first, "NOTE") || isBlock(first, "STYLE") || isBlock(first, "REGION"))) {
        while (i < lines.length && !lines[i].isBlank()) i++;
        continue;
      }
      if (!first.contains("-->")) {
        i++; // a cue identifier (Teams: "uuid/12-0", Zoom: a number)
        if (i == lines.length || !lines[i].contains("-->")) {
          throw new FormatError(file, i == lines.length ? i : i + 1, null, "expected a cue timing line such as "
              + "'00:01:02.000 --> 00:01:05.500' after the cue identifier '" + shorten(first) + "'");
        }
      }
      int timing = i++;
      long[] times = timing(file, timing + 1, lines[timing], '.', true, "00:01:02.000 --> 00:01:05.500");
      // A line with "-->" starts the next cue even without a blank line before it (as the spec's parser reads it).
      while (i < lines.length && !lines[i].isBlank() && !lines[i].contains("-->")) i++;
      cues.add(new RawCue(times[0], times[1], String.join("\n", Arrays.asList(lines).subList(timing + 1, i))));
    }
    return cues;
  }

  /** "WEBVTT" alone or followed by a space or tab and any text. */
  private static boolean isHeader(String line) {
    return line.startsWith("WEBVTT") && (line.length() == 6 || line.charAt(6) == ' ' || line.charAt(6) == '\t');
  }

  private static boolean isBlock(String line, String keyword) {
    return line.startsWith(keyword)
        && (line.length() == keyword.length() || Character.isWhitespace(line.charAt(keyword.length())));
  }

  /**
   * Start and end of a timing line {@code start --> end [settings]} of either format: the
   * fraction separator, whether hours may be left out, an example.
   */
  static long[] timing(String file, int lineNo, String line, char fraction, boolean hoursOptional, String example) {
    int arrow = line.indexOf("-->");
    String start = line.substring(0, arrow).strip();
    String rest = line.substring(arrow + 3).stripLeading();
    int space = 0;
    while (space < rest.length() && !Character.isWhitespace(rest.charAt(space))) space++;
    String end = rest.substring(0, space);
    long startMs = Timestamps.parse(start, fraction, hoursOptional), endMs = Timestamps.parse(end, fraction, hoursOptional);
    if (startMs < 0 || endMs < 0) {
      throw new FormatError(file, lineNo, null, "expected a cue timing such as '" + example + "', found '"
          + shorten(line) + "'");
    }
    if (endMs < startMs) {
      throw new FormatError(file, lineNo, null, "the cue ends (" + end + ") before it starts (" + start + ")");
    }
    return new long[] {startMs, endMs};
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

  static String shorten(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }
}
