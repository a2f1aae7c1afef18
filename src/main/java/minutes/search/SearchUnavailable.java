package minutes.search;

/** Why a search cannot be answered now: {@link SearchApi} answers it with 503 and Retry-After. */
final class SearchUnavailable extends Exception {
  enum Reason {
    /** No usable index yet: a first build (or a rebuild after damage) is running. */
    BUILDING,
    /** The index files could not be read; the sync thread verifies them and rebuilds if damaged. */
    UNREADABLE,
    /** The search ran past search.timeout_ms. */
    TIMED_OUT
  }

  final Reason reason;

  SearchUnavailable(Reason reason) {
    super(reason.name(), null, false, false);
    this.reason = reason;
  }
}
