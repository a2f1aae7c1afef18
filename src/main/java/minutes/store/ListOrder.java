package minutes.store;

import java.util.Arrays;
import java.util.OptionalLong;

/**
 * Paging through an in-memory list order (see {@link DataSnapshot}): the page of a filter and
 * its total. A filter's total is counted once per data version; later pages stop scanning as
 * soon as they are full, which for the first pages is after a few thousand entries, not all
 * of them. Stateless apart from the totals it is given.
 */
public final class ListOrder {
  private ListOrder() {}

  /**
   * One page: the total ignoring limit and offset, and the page's entries in order, by
   * {@link Entries#id}.
   */
  public record Page(long total, long[] ids) {}

  public static final Page EMPTY = new Page(0, new long[0]);

  /** The entries of an order, by position in it. */
  public interface Entries {
    /** Whether the entry at this position passes the filter. */
    boolean keep(int position);

    /** What the caller finds the entry's row by: a row number in the database, or a slot of its own. */
    long id(int position);
  }

  /**
   * The page at {@code offset} of the {@code size} entries that pass the filter. Without a
   * filter ({@code filterKey} null) every entry passes and the page is a slice, no scan needed;
   * otherwise {@code filterKey} must tell filters apart for the totals remembered per version.
   */
  public static Page page(int size, Entries entries, String filterKey, int offset, int limit, Totals totals,
      long version) {
    if (filterKey == null) {
      int from = Math.min(offset, size);
      int to = (int) Math.min((long) from + limit, size);
      long[] page = new long[to - from];
      for (int i = from; i < to; i++) page[i - from] = entries.id(i);
      return new Page(size, page);
    }
    OptionalLong knownTotal = totals.known(version, filterKey);
    long[] page = new long[limit];
    int filled = 0;
    long total = 0;
    for (int i = 0; i < size; i++) {
      if (!entries.keep(i)) continue;
      if (total >= offset && filled < limit) page[filled++] = entries.id(i);
      total++;
      if (knownTotal.isPresent() && filled == limit) break;
    }
    if (knownTotal.isEmpty()) totals.remember(version, filterKey, total);
    return new Page(knownTotal.orElse(total), Arrays.copyOf(page, filled));
  }
}
