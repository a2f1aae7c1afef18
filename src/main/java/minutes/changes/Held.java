package minutes.changes;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.AttachmentKey;
import io.undertow.util.SameThreadExecutor;
import minutes.http.Answer;
import minutes.http.Json;
import minutes.keys.Visibility;

/**
 * A long-poll's empty page, held (decisions.md "Push", {@code wait}): the exchange waits in the
 * {@link FeedWatch} with no thread and no connection until a change reaches the key's audience,
 * then its route answers anew (key, scope and page read again, so a key revoked meanwhile gets
 * 401); when the wait is over, or the server stops, it answers with the empty page it has. The
 * wait runs from the request's arrival, however often it was woken for a change it could not see.
 */
final class Held implements Answer {
  /** When the request stops waiting (System.nanoTime), set on its first hold. */
  private static final AttachmentKey<Long> DEADLINE = AttachmentKey.create(Long.class);

  private final ChangesApi.ChangePage empty;
  private final FeedWatch watch;
  private final Visibility.Rule audience;
  private final long after;
  private final int waitSeconds;

  /** {@code after}: the newest change number the empty page's snapshot held. */
  Held(ChangesApi.ChangePage empty, FeedWatch watch, Visibility.Rule audience, long after, int waitSeconds) {
    this.empty = empty;
    this.watch = watch;
    this.audience = audience;
    this.after = after;
    this.waitSeconds = waitSeconds;
  }

  @Override
  public void send(HttpServerExchange ex, HttpHandler again) {
    Long first = ex.getAttachment(DEADLINE);
    long deadline = first != null ? first : System.nanoTime() + waitSeconds * 1_000_000_000L;
    ex.putAttachment(DEADLINE, deadline);
    if (System.nanoTime() - deadline >= 0) {
      Json.ok(ex, empty);
      return;
    }
    // Parked only once this call has returned: a wake-up on another thread must not find the
    // exchange still inside its handler.
    ex.dispatch(SameThreadExecutor.INSTANCE, () -> {
      if (!watch.park(new FeedWatch.Waiter(audience, after, deadline, () -> ex.dispatch(again)))) Json.ok(ex, empty);
    });
  }
}
