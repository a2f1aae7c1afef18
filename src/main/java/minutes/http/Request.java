package minutes.http;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import minutes.keys.Principal;
import minutes.store.Db;

/**
 * One authenticated API request: the caller, its parameters, the route's path parameters and
 * a read connection that is inside one read transaction, so a count and its page see the same
 * snapshot even while an import commits (except on a route that reads statement by statement,
 * {@link Routes#apiByStatement}). Carries no HTTP exchange, so that an endpoint answers
 * a REST request and an MCP tool call alike. {@code versionSeen}: the data version the key's
 * statement read, when it read one ({@link minutes.keys.ApiKeys#resolve}).
 * Not thread-safe; lives for one request.
 */
public record Request(Principal principal, Params params, Map<String, String> pathParams, Connection db,
    OptionalLong versionSeen) {

  /** A path parameter of the route template, never a query parameter of the same name. */
  public String path(String name) {
    return pathParams.get(name);
  }

  /** {@link Db#dataVersion} of this request's transaction, without a statement when the key's read it. */
  public long dataVersion() throws SQLException {
    return versionSeen.isPresent() ? versionSeen.getAsLong() : Db.dataVersion(db);
  }

  /** {@link Db#knownDataVersion} of this request's transaction, without a statement when the key's read it. */
  public Optional<Long> knownDataVersion() throws SQLException {
    return versionSeen.isPresent() ? Optional.of(versionSeen.getAsLong()) : Db.knownDataVersion(db);
  }
}
