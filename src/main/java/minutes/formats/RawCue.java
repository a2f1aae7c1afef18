package minutes.formats;

import java.util.Arrays;

/** A cue as a file holds it: its times, and its text lines as written. */
record RawCue(long startMs, long endMs, String payload) {

  /**
   * The cue of the timing line {@code lines[timing]}, read as {@code times}, and the text lines
   * after it up to {@code to}. An end before the start is reported and set to the start; a NUL
   * reads as U+FFFD, as WebVTT's parser reads it (and PostgreSQL could not store it).
   */
  static RawCue of(String file, String[] lines, int timing, int to, long[] times, Skips skips) {
    if (times[1] < times[0]) skips.endBeforeStart(file, timing + 1, lines[timing]);
    String payload = String.join("\n", Arrays.asList(lines).subList(timing + 1, to));
    return new RawCue(times[0], Math.max(times[0], times[1]),
        payload.indexOf('\0') < 0 ? payload : payload.replace('\0', '\uFFFD'));
  }
}
