package minutes.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.nio.ByteBuffer;

/**
 * The one JSON configuration: snake_case names, nulls always written (a {@code T | null}
 * field is never omitted). Thread-safe.
 */
public final class Json {
  public static final ObjectMapper MAPPER = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .setSerializationInclusion(JsonInclude.Include.ALWAYS)
      .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
      .registerModule(new com.fasterxml.jackson.module.blackbird.BlackbirdModule());

  public static final String CONTENT_TYPE = "application/json; charset=utf-8";

  private Json() {}

  public static byte[] bytes(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
    }
  }

  public static void send(HttpServerExchange ex, int status, Object body) {
    sendBytes(ex, status, CONTENT_TYPE, bytes(body));
  }

  /** Sends a body; a 200 to GET or HEAD carries an ETag and becomes a bodiless 304 when the client has it. */
  public static void sendBytes(HttpServerExchange ex, int status, String contentType, byte[] bytes) {
    ex.setStatusCode(status);
    // Even a bodiless 304 names the type its 200 would have (decisions.md: every answer is JSON).
    ex.getResponseHeaders().put(Headers.CONTENT_TYPE, contentType);
    if (status == 200 && Conditional.notModified(ex, bytes)) {
      ex.endExchange();
      return;
    }
    ex.getResponseHeaders().put(Headers.CONTENT_LENGTH, bytes.length);
    ex.getResponseSender().send(ByteBuffer.wrap(bytes));
  }

  public static void ok(HttpServerExchange ex, Object body) {
    send(ex, 200, body);
  }
}
