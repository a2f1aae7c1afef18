package minutes.store;

import java.util.OptionalLong;

/**
 * Totals of list filters, remembered per data version ({@link KeptByVersion}): the data only
 * changes by import, and counting every entry of an order on every page request cost more than
 * the page itself (see {@link ListOrder}). Thread-safe.
 */
public final class Totals {
  private final KeptByVersion<Long> byQuery = new KeptByVersion<>(10_000);

  /** The total of {@code query} (any text that tells filters apart) at {@code version}, when known. */
  public OptionalLong known(long version, String query) {
    return byQuery.get(version, query).map(OptionalLong::of).orElse(OptionalLong.empty());
  }

  public void remember(long version, String query, long total) {
    byQuery.put(version, query, total);
  }
}
