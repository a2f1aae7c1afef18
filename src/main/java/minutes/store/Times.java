package minutes.store;

import java.text.Normalizer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Parsing and the stored form of dates and times. Date-times are kept as fixed-width UTC
 * text ({@code 2026-03-02T09:30:00Z}, whole seconds) so that SQLite's text order is time
 * order and answers carry them unchanged.
 */
public final class Times {
  private Times() {}

  private static final Pattern DATE_SHAPE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
  private static final DateTimeFormatter STRICT_DATE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd").withResolverStyle(ResolverStyle.STRICT);
  private static final DateTimeFormatter STORED =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
  private static final Pattern DATE_TIME_SHAPE =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})");

  /** A real calendar date in the form YYYY-MM-DD, or null. */
  public static LocalDate parseDate(String s) {
    if (s == null || !DATE_SHAPE.matcher(s).matches()) return null;
    try {
      return LocalDate.parse(s, STRICT_DATE);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** An RFC 3339 date-time (offset required), or null. */
  public static Instant parseDateTime(String s) {
    if (s == null || !DATE_TIME_SHAPE.matcher(s).matches()) return null;
    try {
      return OffsetDateTime.parse(s.toUpperCase(Locale.ROOT)).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** The stored and answered form of an instant. */
  public static String format(Instant t) {
    return STORED.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  public static String startOfDay(LocalDate d) {
    return format(d.atStartOfDay(ZoneOffset.UTC).toInstant());
  }

  /** Lower case without accents: Müller and MULLER both become muller. */
  public static String fold(String s) {
    String decomposed = Normalizer.normalize(s, Normalizer.Form.NFKD);
    StringBuilder out = new StringBuilder(decomposed.length());
    for (int i = 0; i < decomposed.length(); i++) {
      char c = decomposed.charAt(i);
      if (Character.getType(c) != Character.NON_SPACING_MARK) out.append(c);
    }
    return out.toString().toLowerCase(Locale.ROOT).replace("ß", "ss");
  }
}
