package minutes.formats;

/**
 * Cue times of WebVTT ({@code 01:02:03.456}, hours may be left out) and SubRip
 * ({@code 01:02:03,456}), read to and written from milliseconds. Thread-safe.
 */
final class Timestamps {
  private Timestamps() {}

  /**
   * The milliseconds of {@code [hours:]MM:SS<fraction>mmm}, or -1 when {@code s} is not one.
   * Hours may have any number of digits (some writers use one); minutes and seconds are two
   * digits below 60 and the milliseconds three digits, as both formats define them.
   */
  static long parse(String s, char fraction, boolean hoursOptional) {
    int dot = s.length() - 4;
    if (dot < 5 || s.charAt(dot) != fraction) return -1;
    long ms = digits(s, dot + 1, 3), seconds = digits(s, dot - 2, 2);
    if (ms < 0 || seconds < 0 || seconds > 59 || s.charAt(dot - 3) != ':') return -1;
    long minutes = digits(s, dot - 5, 2);
    if (minutes < 0 || minutes > 59) return -1;
    long hours = 0;
    if (dot - 5 > 0) {
      if (s.charAt(dot - 6) != ':' || dot - 6 == 0 || dot - 6 > 9) return -1;
      hours = digits(s, 0, dot - 6);
      if (hours < 0) return -1;
    } else if (!hoursOptional) {
      return -1;
    }
    return ((hours * 60 + minutes) * 60 + seconds) * 1000 + ms;
  }

  /** The value of {@code count} ASCII digits at {@code from}, or -1. */
  private static long digits(String s, int from, int count) {
    if (from < 0) return -1;
    long v = 0;
    for (int i = from; i < from + count; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') return -1;
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /** {@code HH:MM:SS<fraction>mmm}, hours at least two digits. */
  static void format(long ms, char fraction, StringBuilder out) {
    two(ms / 3_600_000, out);
    out.append(':');
    two(ms / 60_000 % 60, out);
    out.append(':');
    two(ms / 1000 % 60, out);
    out.append(fraction);
    long millis = ms % 1000;
    if (millis < 100) out.append('0');
    if (millis < 10) out.append('0');
    out.append(millis);
  }

  private static void two(long v, StringBuilder out) {
    if (v < 10) out.append('0');
    out.append(v);
  }
}
