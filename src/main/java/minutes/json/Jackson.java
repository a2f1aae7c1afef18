package minutes.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;

/**
 * The one JSON configuration, for every package that reads or writes JSON (the API's answers,
 * the import, the format converters, the generators): snake_case names, nulls always written (a
 * {@code T | null} field is never omitted). It sits below every other package so that each
 * layer can use it. Thread-safe.
 */
public final class Jackson {
  /** Record components' names as JSON keys: {@code startsAt} is {@code starts_at}. */
  public static final PropertyNamingStrategies.NamingBase NAMES = new PropertyNamingStrategies.SnakeCaseStrategy();

  public static final ObjectMapper MAPPER = new ObjectMapper()
      .setPropertyNamingStrategy(NAMES)
      .setSerializationInclusion(JsonInclude.Include.ALWAYS)
      .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
      .registerModule(new BlackbirdModule());

  private Jackson() {}
}
