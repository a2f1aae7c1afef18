package minutes.http;

import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import minutes.keys.Principal;

/**
 * The principal each key had at its last admitted request on this node, for answering ahead of
 * the key check ({@link Routes#apiByStatement}): a guess, never an admission, since every request
 * still runs the key's statement and sends an answer only for the principal that found. Keys
 * are remembered by their hash ({@code ApiKeys.hash}, computed once per request), as the
 * database stores them. Thread-safe; at most {@link #MAX}
 * keys, forgotten all at once beyond that (a guess missing costs only the overlap).
 */
final class KnownKeys {
  static final int MAX = 10_000;
  private final ConcurrentHashMap<String, Principal> bySecretHash = new ConcurrentHashMap<>();

  /** The principal the key had when last admitted here, or null. */
  Principal get(byte[] secretHash) {
    return bySecretHash.get(HexFormat.of().formatHex(secretHash));
  }

  /** Remembers an admitted key's principal, or forgets a refused key (null). */
  void put(byte[] secretHash, Principal principal) {
    String hash = HexFormat.of().formatHex(secretHash);
    if (principal == null) {
      bySecretHash.remove(hash);
      return;
    }
    if (bySecretHash.size() >= MAX && !bySecretHash.containsKey(hash)) bySecretHash.clear();
    bySecretHash.put(hash, principal);
  }
}
