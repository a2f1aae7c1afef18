package minutes.changes;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.sse.ServerSentEventConnection;
import io.undertow.server.handlers.sse.ServerSentEventHandler;
import io.undertow.util.AttachmentKey;
import io.undertow.util.HttpString;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import minutes.http.Answer;
import minutes.http.ApiError;
import minutes.http.ErrorMapper;
import minutes.http.Json;
import minutes.http.Request;
import minutes.keys.ApiKeys;
import minutes.keys.Principal;
import minutes.keys.Visibility;
import minutes.store.ChangeHistory;
import minutes.store.Db;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GET /changes/stream (decisions.md "Push"): the change feed as {@code text/event-stream}, one
 * event per change ({@code id:} the cursor after it, {@code event:} upsert or delete, {@code
 * data:} the row of /changes), from the {@code Last-Event-ID} header, else {@code since}, else
 * now. A bad cursor is 400 before the stream starts; an expired one (at the start or later) ends
 * the stream after one {@code cursor_expired} event, whose data is the 410's error body. Between changes the stream waits
 * in the {@link FeedWatch} with no thread and no connection, and Undertow writes a comment line
 * every {@link #KEEP_ALIVE_MILLIS} so that proxies keep it open. Thread-safe.
 */
public final class ChangeStream {
  private static final Logger log = LoggerFactory.getLogger(ChangeStream.class);
  /** decisions.md: a comment line at least every 15 s. */
  static final long KEEP_ALIVE_MILLIS = 10_000;
  /** Changes read (and written out) at a time: the stream's memory stays that of one page. */
  static final int PAGE = 100;
  static final String EXPIRED = "cursor_expired";
  private static final HttpString LAST_EVENT_ID = HttpString.tryFromString("Last-Event-ID");
  private static final AttachmentKey<Session> SESSION = AttachmentKey.create(Session.class);

  private final Db db;
  private final FeedWatch watch;
  private final AtomicInteger open = new AtomicInteger();
  private final ServerSentEventHandler events = new ServerSentEventHandler(this::connected);

  public ChangeStream(Db db, FeedWatch watch) {
    this.db = db;
    this.watch = watch;
  }

  /** A stream's response has started: its first page follows. */
  private void connected(ServerSentEventConnection connection, String lastEventId) {
    Session s = connection.getAttachment(SESSION);
    s.connection = connection;
    connection.setKeepAliveTime(KEEP_ALIVE_MILLIS);
    open.incrementAndGet();
    connection.addCloseTask(closed -> {
      open.decrementAndGet();
      s.closed = true;
      if (s.waiter != null) watch.leave(s.waiter);
    });
    s.next();
  }

  /** Ends every stream (the server is stopping): a client reconnects elsewhere with its last event's id. */
  public void close() {
    events.getConnections().forEach(ServerSentEventConnection::shutdown);
  }

  /** Streams open now. */
  public int open() {
    return open.get();
  }

  /** The endpoint: checks the key and {@code since} on the request's connection, then the stream starts as its {@link Answer}. */
  public Object start(Request r) throws SQLException {
    ChangeHistory.State state = ChangeHistory.state(r.db());
    Cursors cursors = new Cursors(state.cursorKey());
    Optional<Long> since = ChangesApi.since(r.params(), cursors);
    return (Answer) (ex, again) -> begin(ex, r.principal(), cursors, state, since);
  }

  /** Reads Last-Event-ID (which a reconnecting client sends, and which wins over since), then opens the stream. */
  private void begin(HttpServerExchange ex, Principal principal, Cursors cursors, ChangeHistory.State state,
      Optional<Long> since) throws Exception {
    String header = ex.getRequestHeaders().getFirst(LAST_EVENT_ID);
    long from = since.orElse(state.newest());
    if (header != null) {
      Optional<Long> last = cursors.decode(header.trim());
      if (last.isEmpty()) {
        ErrorMapper.send(ex, ApiError.badParam("Last-Event-ID",
            "Last-Event-ID must be the id of an event of this stream (or leave it out and give since)"));
        return;
      }
      from = last.get();
    }
    ex.putAttachment(SESSION, new Session(principal, cursors, from, ex.getConnection().getWorker()));
    events.handleRequest(ex);
  }

  /** One open stream: where it is in the feed, and its wait in the watch between pages. Its pages follow one another. */
  private final class Session {
    final Principal principal;
    final Cursors cursors;
    final Visibility.Rule audience;
    final Executor workers;
    long after;
    ServerSentEventConnection connection;
    volatile FeedWatch.Waiter waiter;
    volatile boolean closed;

    Session(Principal principal, Cursors cursors, long after, Executor workers) {
      this.principal = principal;
      this.workers = workers;
      this.cursors = cursors;
      this.audience = Visibility.of(principal);
      this.after = after;
    }

    /** Reads the next page on a worker thread (never the I/O thread: it reads the database). */
    void next() {
      if (!closed) workers.execute(this::page);
    }

    private void page() {
      ChangesApi.Rows read;
      try (Connection c = db.readForRequest()) {
        c.setAutoCommit(false);
        try {
          // A key revoked meanwhile hears nothing more: the stream ends, and the reconnect is 401.
          read = ApiKeys.live(c, principal.keyId()).isEmpty() ? null
              : ChangesApi.after(c, ChangeHistory.state(c), principal, after, PAGE);
        } finally {
          c.rollback();
        }
      } catch (ApiError expired) {
        connection.send(new String(Json.bytes(expired.body()), StandardCharsets.UTF_8), EXPIRED, null, ended());
        return;
      } catch (Exception e) {
        // The database is away or the statement took too long: the client reconnects with its last id.
        log.warn("change stream: ending a stream, its next page could not be read: {}", e.toString());
        connection.shutdown();
        return;
      }
      if (read == null) {
        connection.shutdown();
        return;
      }
      List<ChangesApi.Row> rows = read.rows();
      if (rows.isEmpty()) {
        after = read.newest();
        waiter = new FeedWatch.Waiter(audience, after, FeedWatch.NEVER, this::next);
        if (closed || !watch.park(waiter)) connection.shutdown();
        return;
      }
      after = read.more() ? rows.get(rows.size() - 1).seq() : read.newest();
      ServerSentEventConnection.EventCallback sent = new ServerSentEventConnection.EventCallback() {
        @Override
        public void done(ServerSentEventConnection c, String data, String event, String id) {
          if (id.equals(last(rows))) next(); // the page is written: read the next one
        }

        @Override
        public void failed(ServerSentEventConnection c, String data, String event, String id, IOException e) {
          // The client went away: the close task takes the stream out.
        }
      };
      for (ChangesApi.Row row : rows) {
        connection.send(new String(row.json().utf8(), StandardCharsets.UTF_8), row.change(), cursors.encode(row.seq()), sent);
      }
    }

    private String last(List<ChangesApi.Row> rows) {
      return cursors.encode(rows.get(rows.size() - 1).seq());
    }

    private ServerSentEventConnection.EventCallback ended() {
      return new ServerSentEventConnection.EventCallback() {
        @Override
        public void done(ServerSentEventConnection c, String data, String event, String id) {
          c.shutdown();
        }

        @Override
        public void failed(ServerSentEventConnection c, String data, String event, String id, IOException e) {}
      };
    }
  }
}
