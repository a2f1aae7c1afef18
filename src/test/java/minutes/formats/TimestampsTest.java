package minutes.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;

/** The hand-written cue time reader against a regular expression that states the two formats. */
class TimestampsTest {

  /** The oracle: WebVTT/SubRip times as the formats describe them (hours of 1 to 9 digits here). */
  private static long oracle(String s, char fraction, boolean hoursOptional) {
    Matcher m = Pattern.compile("(?:(\\d{1,9}):)?(\\d{2}):(\\d{2})" + Pattern.quote(String.valueOf(fraction)) + "(\\d{3})")
        .matcher(s);
    if (!m.matches() || m.group(1) == null && !hoursOptional) return -1;
    long hours = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
    long minutes = Long.parseLong(m.group(2)), seconds = Long.parseLong(m.group(3));
    if (minutes > 59 || seconds > 59) return -1;
    return ((hours * 60 + minutes) * 60 + seconds) * 1000 + Long.parseLong(m.group(4));
  }

  @Property(tries = 3000)
  void readsWhatTheOracleReads(@ForAll("nearlyTimes") String s) {
    for (char fraction : new char[] {'.', ','}) {
      for (boolean hoursOptional : new boolean[] {true, false}) {
        assertEquals(oracle(s, fraction, hoursOptional), Timestamps.parse(s, fraction, hoursOptional),
            "'" + s + "' " + fraction + " " + hoursOptional);
      }
    }
  }

  @Property
  void readsBackWhatItWrites(@ForAll @LongRange(min = 0, max = 999L * 3_600_000 + 3_599_999) long ms) {
    StringBuilder vtt = new StringBuilder(), srt = new StringBuilder();
    Timestamps.format(ms, '.', vtt);
    Timestamps.format(ms, ',', srt);
    assertEquals(ms, Timestamps.parse(vtt.toString(), '.', true));
    assertEquals(ms, Timestamps.parse(srt.toString(), ',', false));
    assertEquals(oracle(vtt.toString(), '.', true), ms);
  }

  /**
   * Strings close to times: well-formed ones with fields out of range or missing, the wrong
   * separators and lengths, and the empty string, so that most branches see both answers.
   */
  @Provide
  Arbitrary<String> nearlyTimes() {
    Arbitrary<String> field = Arbitraries.strings().withChars("0123456789").ofMinLength(0).ofMaxLength(3);
    Arbitrary<String> separator = Arbitraries.of(":", ".", ",", "", "x");
    Arbitrary<String> shaped = Combinators.combine(field, separator, field, separator, field, separator, field)
        .as((a, s1, b, s2, c, s3, d) -> a + s1 + b + s2 + c + s3 + d);
    Arbitrary<String> noise = Arbitraries.strings().withChars("0123456789:.,- ").ofMaxLength(16);
    Arbitrary<String> edges = Arbitraries.of("", "00:00.000", "59:59.999", "60:00.000", "00:60.000", "0:00:00.000",
        "123456789:00:00.000", "1234567890:00:00.000", ":00:00.000", "00:00:00.00", "00:00:00.0000", "00:00:00,000");
    return Arbitraries.oneOf(shaped, noise, edges);
  }
}
