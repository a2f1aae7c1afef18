package minutes.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import minutes.StoreIndependent;
import org.junit.jupiter.api.Test;

/** The import's SQLite page cache: an eighth of the machine's memory, within 256 MB and 4 GB. */
@StoreIndependent
class ImportCacheTest {
  private static final long GIB = 1L << 30;

  @Test
  void anEighthOfTheMemoryWithinItsBounds() {
    assertEquals(256 * 1024, Dialect.importCacheKib(GIB), "a small machine keeps the old 256 MB");
    assertEquals(3 * 1024 * 1024, Dialect.importCacheKib(24 * GIB));
    assertEquals(4 * 1024 * 1024, Dialect.importCacheKib(256 * GIB), "at most 4 GB");
  }
}
