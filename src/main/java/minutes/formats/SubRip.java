package minutes.formats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * SubRip (.srt): blocks of a cue number, a timing line {@code 00:01:02,000 --> 00:01:05,500}
 * (display coordinates after it are ignored) and text lines, separated by blank lines. A block
 * without its number is read too (some recorders leave it out); anything else is refused by
 * line. Stateless.
 */
final class SubRip {
  private static final String EXAMPLE = "00:01:02,000 --> 00:01:05,500";

  private SubRip() {}

  static List<RawCue> read(String file, String[] lines) {
    List<RawCue> cues = new ArrayList<>();
    int i = 0;
    while (i < lines.length) {
      if (lines[i].isBlank()) {
        i++;
        continue;
      }
      String first = lines[i];
      if (!first.contains("-->")) {
        if (!first.strip().chars().allMatch(Character::isDigit)) {
          throw new FormatError(file, i + 1, null, "expected a cue number or a timing line such as '" + EXAMPLE
              + "', found '" + WebVtt.shorten(first) + "'"
              + (first.startsWith("WEBVTT") ? " (a WebVTT file? use --format vtt)" : ""));
        }
        i++;
        if (i == lines.length || !lines[i].contains("-->")) {
          throw new FormatError(file, i == lines.length ? i : i + 1, null,
              "expected a timing line such as '" + EXAMPLE + "' after the cue number " + first.strip());
        }
      }
      int timing = i++;
      long[] times = WebVtt.timing(file, timing + 1, lines[timing], ',', false, EXAMPLE);
      while (i < lines.length && !lines[i].isBlank()) i++;
      cues.add(new RawCue(times[0], times[1], String.join("\n", Arrays.asList(lines).subList(timing + 1, i))));
    }
    return cues;
  }

  /**
   * Cues numbered from 1, the speaker as a {@code Name: } prefix (SubRip has no voice spans;
   * the import reads the prefix back).
   */
  static String write(List<Cue> cues) {
    StringBuilder out = new StringBuilder(cues.size() * 96);
    int n = 1;
    for (Cue c : cues) {
      if (n > 1) out.append('\n');
      out.append(n++).append('\n');
      Timestamps.format(c.startMs(), ',', out);
      out.append(" --> ");
      Timestamps.format(c.endMs(), ',', out);
      out.append('\n').append(CueFormat.oneLine(c.speaker())).append(": ");
      CueFormat.appendLines(c.text(), out, (s, o) -> o.append(s));
      out.append('\n');
    }
    return out.toString();
  }
}
