package minutes.webhooks;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * When a failed delivery is tried again (decisions.md "Push"): after 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h, 14 h, 20 h and 24 h, each up to 10 % later at random so that receivers coming back
 * are not hit by every sender at once, or after the receiver's {@code Retry-After} when that is
 * longer (at most a day: a receiver cannot park a webhook for good that way). Stateless.
 */
final class Retries {
  static final long[] SCHEDULE = {5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400};
  private static final long MAX_RETRY_AFTER_MS = Duration.ofDays(1).toMillis();

  private Retries() {}

  /** The wait in ms after the {@code failures}-th failed attempt (1-based); {@code random} in [0, 1). */
  static long delayMs(int failures, long retryAfterMs, double random) {
    long base = SCHEDULE[failures - 1] * 1000;
    long jittered = base + (long) (base * 0.1 * random);
    return Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
  }

  /** A Retry-After header (seconds, or an HTTP date) in ms from {@code now}; 0 when absent or unreadable. */
  static long retryAfterMs(String header, Instant now) {
    if (header == null || header.isBlank()) return 0;
    String h = header.trim();
    try {
      if (h.chars().allMatch(Character::isDigit)) return Math.multiplyExact(Long.parseLong(h), 1000L);
      return Math.max(0, Duration.between(now, ZonedDateTime.parse(h, DateTimeFormatter.RFC_1123_DATE_TIME)).toMillis());
    } catch (NumberFormatException | ArithmeticException | DateTimeParseException unreadable) {
      return h.chars().allMatch(Character::isDigit) ? MAX_RETRY_AFTER_MS : 0; // digits too many to hold: "very long"
    }
  }
}
