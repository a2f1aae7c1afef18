package minutes.http;

import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import minutes.languages.Languages;
import minutes.store.Emails;
import minutes.store.Ids;
import minutes.store.Times;

/**
 * The one place that reads query parameters. Each method returns a usable value or throws
 * {@link ApiError#badParam} naming the parameter and the expected shape. A parameter given
 * twice uses its first value; unknown parameters are never looked at.
 */
public final class Params {
  private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");

  private final Map<String, Deque<String>> query;

  /** Parameters given by name: a request's query, or the arguments of an MCP tool call turned into text. */
  public Params(Map<String, Deque<String>> query) {
    this.query = query;
  }

  public Optional<String> first(String name) {
    Deque<String> values = query.get(name);
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.peekFirst());
  }

  /** An integer clamped into [min, max]; absent gives the default; a non-integer is 400. */
  public int intClamped(String name, int min, int max, int defaultValue) {
    Optional<String> raw = first(name);
    if (raw.isEmpty()) return defaultValue;
    String s = raw.get().trim();
    if (!INTEGER.matcher(s).matches()) {
      throw ApiError.badParam(name, name + " must be an integer from " + min + " to " + max);
    }
    BigInteger v = new BigInteger(s);
    if (v.compareTo(BigInteger.valueOf(min)) < 0) return min;
    if (v.compareTo(BigInteger.valueOf(max)) > 0) return max;
    return v.intValueExact();
  }

  public int limit(int max, int defaultValue) {
    return intClamped("limit", 1, max, defaultValue);
  }

  public int offset() {
    return intClamped("offset", 0, Integer.MAX_VALUE, 0);
  }

  /** An integer of at least 0, never clamped (a time in milliseconds, say); anything else is 400. */
  public Optional<Long> nonNegativeLong(String name) {
    Optional<String> raw = first(name);
    if (raw.isEmpty()) return Optional.empty();
    String s = raw.get().trim();
    BigInteger v = INTEGER.matcher(s).matches() ? new BigInteger(s) : null;
    if (v == null || v.signum() < 0 || v.bitLength() >= Long.SIZE) {
      throw ApiError.badParam(name, name + " must be an integer of at least 0");
    }
    return Optional.of(v.longValue());
  }

  /** One of the allowed values, or empty when absent. */
  public Optional<String> oneOf(String name, List<String> allowed) {
    Optional<String> raw = first(name);
    if (raw.isPresent() && !allowed.contains(raw.get())) {
      throw ApiError.badParam(name, name + " must be one of " + String.join(", ", allowed));
    }
    return raw;
  }

  /**
   * A comma-separated list of allowed values (spaces around each ignored), in the order given,
   * each once; empty when absent. An empty or unknown item is 400.
   */
  public List<String> listOf(String name, List<String> allowed) {
    Optional<String> raw = first(name);
    if (raw.isEmpty()) return List.of();
    java.util.LinkedHashSet<String> values = new java.util.LinkedHashSet<>();
    for (String item : raw.get().split(",", -1)) {
      if (!allowed.contains(item.strip())) {
        throw ApiError.badParam(name, name + " must be a comma-separated list of " + String.join(", ", allowed));
      }
      values.add(item.strip());
    }
    return List.copyOf(values);
  }

  /** A real calendar date YYYY-MM-DD. */
  public Optional<LocalDate> date(String name) {
    Optional<String> raw = first(name);
    if (raw.isEmpty()) return Optional.empty();
    LocalDate d = Times.parseDate(raw.get());
    if (d == null) throw ApiError.badParam(name, name + " must be a date in the form YYYY-MM-DD");
    return Optional.of(d);
  }

  /** A date (meaning its start, 00:00Z) or an RFC 3339 date-time, in the stored form. */
  public Optional<String> dateOrDateTime(String name) {
    Optional<String> raw = first(name);
    if (raw.isEmpty()) return Optional.empty();
    LocalDate d = Times.parseDate(raw.get());
    if (d != null) return Optional.of(Times.startOfDay(d));
    Instant t = Times.parseDateTime(raw.get());
    if (t == null) {
      throw ApiError.badParam(name, name + " must be a date YYYY-MM-DD or an RFC 3339 date-time such as 2026-03-02T09:30:00Z");
    }
    return Optional.of(Times.format(t));
  }

  /** An email address (something@something, no spaces), as given. */
  public Optional<String> email(String name) {
    Optional<String> raw = first(name);
    if (raw.isPresent() && !Emails.isEmail(raw.get())) {
      throw ApiError.badParam(name, name + " must be an email address such as ann@example.com");
    }
    return raw;
  }

  /**
   * A token this server issued and only it can read (a feed cursor): {@code decode} gives its
   * value, or empty for anything else, which is 400 naming the parameter with {@code expected}.
   */
  public <T> Optional<T> token(String name, Function<String, Optional<T>> decode, String expected) {
    Optional<String> raw = first(name);
    if (raw.isEmpty()) return Optional.empty();
    Optional<T> value = decode.apply(raw.get());
    if (value.isEmpty()) throw ApiError.badParam(name, expected);
    return value;
  }

  /** {@code language}: one BCP 47 primary language subtag (decisions.md "Languages"). */
  public Optional<String> language() {
    Optional<String> value = first("language");
    if (value.isPresent() && !Languages.isSubtag(value.get())) throw ApiError.badParam("language", Languages.expected("language"));
    return value;
  }

  public Optional<String> uuid(String name) {
    Optional<String> raw = first(name);
    if (raw.isPresent() && !Ids.isUuid(raw.get())) {
      throw ApiError.badParam(name, name + " must be a UUID such as 123e4567-e89b-12d3-a456-426614174000");
    }
    return raw.map(Ids::canonical);
  }
}
