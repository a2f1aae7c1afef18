package minutes.formats;

import java.util.ArrayList;
import java.util.List;

/**
 * SubRip (.srt): blocks of a cue number, a timing line {@code 00:01:02,000 --> 00:01:05,500}
 * (display coordinates after it are ignored) and text lines, separated by blank lines. Read
 * as the common SubRip readers read it: a block without its number too (some recorders leave
 * it out), times as {@link Timestamps} reads them; a block that still does not parse is
 * reported to {@link Skips}, and so is a cue that ends before it starts (kept, its end set to
 * its start). A WebVTT file is refused. Stateless.
 */
final class SubRip {
  private static final String EXAMPLE = "00:01:02,000 --> 00:01:05,500";

  private SubRip() {}

  static List<RawCue> read(String file, String[] lines, Skips skips) {
    List<RawCue> cues = new ArrayList<>();
    int i = 0;
    while (i < lines.length) {
      if (lines[i].isBlank()) {
        i++;
        continue;
      }
      int from = i;
      while (i < lines.length && !lines[i].isBlank()) i++;
      if (from == 0 && lines[0].startsWith("WEBVTT")) {
        throw new FormatError(file, 1, null, why(lines[0]) + " (a WebVTT file? use --format vtt)");
      }
      block(file, lines, from, i, skips, cues);
    }
    return cues;
  }

  /** The cue of the block {@code lines[from, to)}, if it has one. */
  private static void block(String file, String[] lines, int from, int to, Skips skips, List<RawCue> cues) {
    String first = lines[from];
    boolean numbered = !first.contains("-->");
    if (numbered && !first.strip().chars().allMatch(Character::isDigit)) {
      skips.skip(file, from + 1, why(first));
      return;
    }
    int timing = numbered ? from + 1 : from;
    if (timing == to || !lines[timing].contains("-->")) {
      skips.skip(file, timing + 1, "expected a timing line such as '" + EXAMPLE + "' after the cue number " + first.strip());
      return;
    }
    long[] times = WebVtt.timing(lines[timing], true);
    if (times == null) {
      skips.skip(file, timing + 1, "expected a cue timing such as '" + EXAMPLE + "', found " + FormatError.quote(lines[timing]));
      return;
    }
    cues.add(RawCue.of(file, lines, timing, to, times, skips));
  }

  private static String why(String first) {
    return "expected a cue number or a timing line such as '" + EXAMPLE + "', found " + FormatError.quote(first);
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
