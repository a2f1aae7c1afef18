package minutes.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.time.Duration;

/**
 * Counts requests in flight so that shutdown can wait for them. Once draining, a request
 * that still arrives (on a kept-alive connection) gets 503 with the error body and
 * {@code Connection: close}. Thread-safe.
 */
public final class Drain implements HttpHandler {
  private final HttpHandler next;
  private final Object lock = new Object();
  private int active;
  private volatile boolean draining;

  public Drain(HttpHandler next) {
    this.next = next;
  }

  @Override
  public void handleRequest(HttpServerExchange ex) throws Exception {
    if (draining) {
      ex.getResponseHeaders().put(Headers.CONNECTION, "close");
      ErrorMapper.send(ex, ApiError.unavailable(5, "the server is shutting down; try again in a moment"));
      return;
    }
    synchronized (lock) {
      active++;
    }
    ex.addExchangeCompleteListener((done, nextListener) -> {
      synchronized (lock) {
        if (--active == 0) lock.notifyAll();
      }
      nextListener.proceed();
    });
    next.handleRequest(ex);
  }

  /** Refuses new requests, then waits up to {@code timeout} for those in flight; returns how many are left. */
  public int drain(Duration timeout) throws InterruptedException {
    draining = true;
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (active > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) break;
        lock.wait(Math.max(1, left / 1_000_000));
      }
      return active;
    }
  }
}
