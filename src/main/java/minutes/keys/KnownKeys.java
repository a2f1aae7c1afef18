package minutes.keys;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The principals of live keys as the database last answered for them, each trusted only under
 * the keys' epoch it was read in ({@code store.DataWatch}): the epoch grows with every notice
 * that a key or a workspace's domains may have changed, and a new epoch starts from nothing. A
 * key is read while the epoch is the one read before its statement, so an answer that raced
 * with a revoke lands in an epoch the revoke's notice has already ended. Unknown and revoked
 * keys are never kept: each asks the database again. Bounded by the number of live keys.
 * Thread-safe.
 */
public final class KnownKeys {
  /** The keys read in one epoch, by hex SHA-256 of the secret. */
  private record Epoch(long number, ConcurrentHashMap<String, Principal> byHash) {}

  private volatile Epoch current = new Epoch(Long.MIN_VALUE, new ConcurrentHashMap<>());

  /**
   * The principal of a live key under {@code epoch}, read through {@code c} unless it was read
   * in this epoch already; empty for an unknown or revoked key. {@code epoch} must be read
   * before this call.
   */
  public Optional<Principal> resolve(Connection c, String secret, long epoch) throws SQLException {
    Epoch known = current;
    if (known.number() < epoch) {
      known = new Epoch(epoch, new ConcurrentHashMap<>());
      current = known;
    }
    String id = HexFormat.of().formatHex(ApiKeys.hash(secret));
    Principal p = known.number() == epoch ? known.byHash().get(id) : null;
    if (p != null) return Optional.of(p);
    Optional<Principal> read = ApiKeys.resolve(c, secret, false).map(ApiKeys.Resolved::principal);
    // Kept only in the epoch it was read under: a later one (a notice came meanwhile) starts anew.
    if (read.isPresent() && known.number() == epoch) known.byHash().put(id, read.get());
    return read;
  }
}
