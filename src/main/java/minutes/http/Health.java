package minutes.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import minutes.store.Db;

/** GET /healthz, without a key: 200 when the database answers, else 503 saying what is not usable. */
public final class Health implements HttpHandler {
  private final Db db;

  public Health(Db db) {
    this.db = db;
  }

  @Override
  public void handleRequest(HttpServerExchange ex) {
    try (Connection c = db.read(); var rs = c.createStatement().executeQuery("SELECT count(*) FROM meeting")) {
      rs.next();
    } catch (SQLException e) {
      throw ApiError.unavailable(5, "database: not usable");
    }
    Json.ok(ex, Map.of("status", "ok"));
  }
}
