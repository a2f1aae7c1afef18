package minutes.search;

/** Why a search cannot be answered now: {@link SearchApi} answers it with 503 and Retry-After. */
final class SearchUnavailable extends Exception {
  enum Reason {
    /** No usable index yet: a first build or a rebuild is running (see {@link #state}). */
    BUILDING,
    /** The index files could not be read; the sync thread verifies them and rebuilds if damaged. */
    UNREADABLE,
    /** The search ran past search.timeout_ms. */
    TIMED_OUT
  }

  final Reason reason;
  /**
   * With {@link Reason#BUILDING}: what the index is, in the words /healthz uses after "search
   * index: " ("being rebuilt, since it was written by another version of Lucene"); null for a
   * first build.
   */
  final String state;

  SearchUnavailable(Reason reason) {
    this(reason, null);
  }

  SearchUnavailable(Reason reason, String state) {
    super(reason.name(), null, false, false);
    this.reason = reason;
    this.state = state;
  }
}
