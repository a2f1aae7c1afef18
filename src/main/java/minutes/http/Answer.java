package minutes.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;

/**
 * An endpoint's answer that sends itself instead of being sent as JSON: a long-poll held until
 * there is something to say, an event stream. It is sent after the request's connection went
 * back to the pool, on the request's worker thread.
 */
public interface Answer {
  /**
   * Sends (or holds) the answer on {@code ex}. {@code again} answers the request anew from its
   * route, as on arrival (its key read again, not counted against the rate limit twice): call
   * it, from any thread, as {@code ex.dispatch(again)}, after {@code ex} was
   * {@linkplain HttpServerExchange#dispatch(java.util.concurrent.Executor, Runnable) dispatched}.
   */
  void send(HttpServerExchange ex, HttpHandler again) throws Exception;
}
