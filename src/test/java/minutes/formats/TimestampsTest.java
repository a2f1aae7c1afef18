package minutes.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.Property;
import minutes.StoreIndependent;
import org.junit.jupiter.api.Test;

/**
 * The hand-written cue time reader against regular expressions that state the two grammars of
 * decisions.md "Transcript files as written": WebVTT's {@code [H:]MM:SS.mmm} as the W3C parser
 * reads it, widened to Teams' {@code H:M:S.f}; SubRip's {@code H:M:S} with an optional fraction
 * after {@code ,} or {@code .}.
 */
@StoreIndependent
class TimestampsTest {
  private static final Pattern VTT_HOURS = Pattern.compile("(\\d{1,9}):(\\d{1,2}):(\\d{1,2})\\.(\\d{1,3})");
  private static final Pattern VTT_MINUTES = Pattern.compile("()(\\d{2}):(\\d{2})\\.(\\d{3})");
  private static final Pattern SRT = Pattern.compile("(\\d{1,9}):(\\d{1,2}):(\\d{1,2})(?:[.,](\\d{1,3}))?");

  /** The oracle: the time of {@code s} by the patterns, or -1 (hours of 1 to 9 digits here). */
  private static long oracle(String s, boolean subRip) {
    for (Pattern p : subRip ? List.of(SRT) : List.of(VTT_HOURS, VTT_MINUTES)) {
      Matcher m = p.matcher(s);
      if (m.matches()) return time(m);
    }
    return -1;
  }

  private static long time(Matcher m) {
    long hours = m.group(1).isEmpty() ? 0 : Long.parseLong(m.group(1));
    long minutes = Long.parseLong(m.group(2)), seconds = Long.parseLong(m.group(3));
    if (minutes > 59 || seconds > 59) return -1;
    long ms = m.group(4) == null ? 0 : Long.parseLong((m.group(4) + "00").substring(0, 3));
    return ((hours * 60 + minutes) * 60 + seconds) * 1000 + ms;
  }

  // 3000 strings; the first are the shortest (size 0: empty fields and noise, separators alone).
  @Test
  void readsWhatTheOracleReads() {
    Property.forAll("Timestamps.parse reads what the oracle reads", 3000, 16, c -> {
      String s = nearlyTime(c);
      for (boolean subRip : new boolean[] {false, true}) {
        assertEquals(oracle(s, subRip), Timestamps.parse(s, subRip), "'" + s + "' " + (subRip ? "srt" : "vtt"));
      }
    });
  }

  /** The largest time of at most three hour digits: 999:59:59.999. */
  private static final long MAX_MS = 999L * 3_600_000 + 3_599_999;

  // The corners of [0, MAX_MS] in every run, then 1000 times of every magnitude.
  @Test
  void readsBackWhatItWrites() {
    for (long ms : List.of(0L, 1L, 2L, MAX_MS)) readsBack(ms);
    Property.forAll("Timestamps.parse reads back what Timestamps.format writes", 1000, 0, c -> readsBack(ms(c)));
  }

  private static void readsBack(long ms) {
    StringBuilder vtt = new StringBuilder(), srt = new StringBuilder();
    Timestamps.format(ms, '.', vtt);
    Timestamps.format(ms, ',', srt);
    assertEquals(ms, Timestamps.parse(vtt.toString(), false), vtt.toString());
    assertEquals(ms, Timestamps.parse(srt.toString(), true), srt.toString());
    assertEquals(oracle(vtt.toString(), false), ms, vtt.toString());
  }

  /**
   * A time in [0, MAX_MS] of a magnitude drawn first (below 10 ms, 100 ms, ... 10^10 ms, alike),
   * so that times under a second, a minute and an hour are as common as those of many hours.
   */
  private static long ms(Property.Case c) {
    long below = Math.min(MAX_MS + 1, (long) Math.pow(10, c.between(1, 10)));
    return (long) (c.random().nextDouble() * below);
  }

  /** Wrong ones among the right separators. */
  private static final List<String> SEPARATORS = List.of(":", ".", ",", "", "x");

  /**
   * Well-formed times, fields out of range, hours too long, fields missing, the wrong fraction's
   * length and mark, Teams' short fields, SubRip without milliseconds.
   */
  private static final List<String> EDGES = List.of("", "00:00.000", "59:59.999", "60:00.000", "00:60.000",
      "0:00:00.000", "123456789:00:00.000", "1234567890:00:00.000", ":00:00.000", "00:00:00.00", "00:00:00.0000",
      "00:00:00,000", "0:0:13.540", "0:0:13.5", "1:2:3.04", "00:00:01", "00:00:01,5", "00:00:01.", "1:02.000",
      "0:00.000", "00:0:00.000", "00:000:00.000", "00:60:00.000", "00:00:60.000");

  /**
   * Strings close to times (one in three of each kind): four fields of 0-3 digits with
   * separators between, right or wrong; noise of digits, separators, '-' and blanks; and
   * {@link #EDGES}, so that most branches see both answers. Fields and noise grow with the
   * case's size (at most 3 and 16 characters).
   */
  private static String nearlyTime(Property.Case c) {
    return switch (c.nextInt(3)) {
      case 0 -> field(c) + c.pick(SEPARATORS) + field(c) + c.pick(SEPARATORS) + field(c) + c.pick(SEPARATORS) + field(c);
      case 1 -> chars(c, "0123456789:.,- ", c.between(0, c.size()));
      default -> c.pick(EDGES);
    };
  }

  private static String field(Property.Case c) {
    return chars(c, "0123456789", c.between(0, Math.min(3, c.size())));
  }

  private static String chars(Property.Case c, String from, int length) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < length; i++) s.append(from.charAt(c.nextInt(from.length())));
    return s.toString();
  }
}
