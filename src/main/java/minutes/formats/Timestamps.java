package minutes.formats;

/**
 * Cue times of WebVTT and SubRip, read to and written from milliseconds (decisions.md
 * "Transcript files as written"). WebVTT: {@code [H:]MM:SS.mmm} as the W3C parser reads it
 * (hours of any width, here at most 9 digits), and also {@code H:M:S.f} with one- or two-digit
 * minutes and seconds and one to three fraction digits, as Microsoft Teams writes them. SubRip:
 * {@code H:M:S} with the same widths and a fraction of one to three digits after {@code ,} or
 * {@code .}, or none. Thread-safe.
 */
final class Timestamps {
  private static final int MAX_HOUR_DIGITS = 9;

  private Timestamps() {}

  /** The milliseconds of the whole of {@code s}, or -1 when it is not a time of the format. */
  static long parse(String s, boolean subRip) {
    int[] at = {0};
    long ms = read(s, at, subRip);
    return at[0] == s.length() ? ms : -1;
  }

  /**
   * The time at {@code at[0]} of {@code s}, or -1; on success {@code at[0]} is moved past it. As
   * the W3C parser collects digits, a run of digits is read whole and then checked for width.
   */
  static long read(String s, int[] at, boolean subRip) {
    int first = at[0], i = digits(s, first);
    if (i == first || i == s.length() || s.charAt(i) != ':') return -1;
    int second = i + 1, j = digits(s, second);
    long hours = 0, minutes = value(s, first, i), seconds = value(s, second, j);
    boolean withHours = j < s.length() && s.charAt(j) == ':';
    if (withHours) {
      int third = j + 1, k = digits(s, third);
      if (i - first > MAX_HOUR_DIGITS || !oneOrTwo(second, j) || !oneOrTwo(third, k)) return -1;
      hours = minutes;
      minutes = seconds;
      seconds = value(s, third, k);
      j = k;
    } else if (subRip || i - first != 2 || j - second != 2) {
      return -1; // the W3C form without hours: two digits each
    }
    if (minutes > 59 || seconds > 59) return -1;
    long ms = 0;
    if (j < s.length() && (s.charAt(j) == '.' || subRip && s.charAt(j) == ',')) {
      int f = digits(s, j + 1), width = f - (j + 1);
      if (withHours ? width < 1 || width > 3 : width != 3) return -1;
      ms = value(s, j + 1, f);
      for (int n = width; n < 3; n++) ms *= 10;
      j = f;
    } else if (!subRip) {
      return -1;
    }
    at[0] = j;
    return ((hours * 60 + minutes) * 60 + seconds) * 1000 + ms;
  }

  private static boolean oneOrTwo(int from, int to) {
    return to - from == 1 || to - from == 2;
  }

  /** The end of the run of ASCII digits at {@code from}. */
  private static int digits(String s, int from) {
    int i = from;
    while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
    return i;
  }

  /** The value of the digits {@code s[from, to)}, at most 9 of them (wider runs are refused before use). */
  private static long value(String s, int from, int to) {
    long v = 0;
    for (int i = from; i < Math.min(to, from + 18); i++) v = v * 10 + (s.charAt(i) - '0');
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
