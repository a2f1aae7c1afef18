package minutes.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.function.Supplier;
import minutes.store.Db;
import minutes.store.Sql;

/**
 * GET /healthz, without a key: 200 when the database and the search index answer, else 503
 * saying what is not usable. It asks on a request connection, as the requests it vouches for
 * do: background work (the list orders, the index sync) may hold all of its own connections for
 * seconds, e.g. right after a start, and a health check that waits for them says nothing true.
 */
public final class Health implements HttpHandler {
  private final Db db;
  /** Null while search can be answered, else what is not usable ("search index: not built yet"). */
  private final Supplier<String> searchUnavailable;

  public Health(Db db, Supplier<String> searchUnavailable) {
    this.db = db;
    this.searchUnavailable = searchUnavailable;
  }

  @Override
  public void handleRequest(HttpServerExchange ex) {
    try (Connection c = db.readForRequest()) {
      new Sql("SELECT 1 FROM meeting LIMIT 1").count(c);
    } catch (SQLException e) {
      throw ApiError.unavailable(5, db.store().unusable(e));
    }
    String search = searchUnavailable.get();
    if (search != null) throw ApiError.unavailable(5, search);
    Json.ok(ex, Map.of("status", "ok"));
  }
}
