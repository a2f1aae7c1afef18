package minutes.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import minutes.json.Jackson;

/**
 * Answers in JSON, written by the one JSON configuration ({@link Jackson}), and answers in
 * other formats, with ETags and 304s. Thread-safe.
 */
public final class Json {
  public static final String CONTENT_TYPE = "application/json; charset=utf-8";

  private Json() {}

  public static byte[] bytes(Object value) {
    try {
      return Jackson.MAPPER.writeValueAsBytes(value);
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
      onIoThread(ex, HttpServerExchange::endExchange);
      return;
    }
    ex.getResponseHeaders().put(Headers.CONTENT_LENGTH, bytes.length);
    ByteBuffer body = ByteBuffer.wrap(bytes);
    onIoThread(ex, e -> e.getResponseSender().send(body));
  }

  /**
   * Writes and completes the answer on the connection's I/O thread. Completed on a worker,
   * an exchange makes Undertow (2.3) resume reads from that worker, and the I/O thread, woken
   * at once, spins until the worker has finished its bookkeeping; on 2 cores busy with other
   * requests that worker is often preempted meanwhile, and the spinning cost about a quarter
   * of all CPU under load (perf, 2026-11-22). The non-blocking sender never blocks the I/O thread.
   */
  private static void onIoThread(HttpServerExchange ex, Consumer<HttpServerExchange> finish) {
    if (ex.isInIoThread()) {
      finish.accept(ex);
    } else {
      ex.dispatch(ex.getIoThread(), (HttpHandler) finish::accept);
    }
  }

  /** A 200 answer: {@code body} as JSON, or a {@link Body} as it is. */
  public static void ok(HttpServerExchange ex, Object body) {
    if (body instanceof Body b) sendBytes(ex, 200, b.contentType(), b.bytes());
    else send(ex, 200, body);
  }

  /** An endpoint's answer in another format than JSON (a transcript as WebVTT, say): sent as it is. */
  public record Body(String contentType, byte[] bytes) {}
}
