package minutes.store;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Values derived from the data as one version of it stands (a data version or an import
 * count, read in the request's own transaction), kept by that version and a key that tells
 * them apart: such a value can never be one of another snapshot. Bounded, since keys come from
 * users' filters and keys: when full, everything is dropped and counted again. Thread-safe.
 */
public final class KeptByVersion<V> {
  private final int maxEntries;
  private final ConcurrentHashMap<String, V> values = new ConcurrentHashMap<>();

  public KeptByVersion(int maxEntries) {
    this.maxEntries = maxEntries;
  }

  public Optional<V> get(long version, String key) {
    return Optional.ofNullable(values.get(version + " " + key));
  }

  public void put(long version, String key, V value) {
    if (values.size() >= maxEntries) values.clear();
    values.put(version + " " + key, value);
  }
}
