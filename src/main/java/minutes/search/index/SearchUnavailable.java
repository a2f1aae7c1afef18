package minutes.search.index;

/** Why a search cannot be answered now: the search API answers it with 503 and Retry-After. */
public final class SearchUnavailable extends Exception {
  public enum Reason {
    /** No usable index yet: a first build or a rebuild is running (see {@link #state}). */
    BUILDING,
    /** The index files could not be read; the sync thread verifies them and rebuilds if damaged. */
    UNREADABLE,
    /** The search ran past search.timeout_ms. */
    TIMED_OUT
  }

  private final Reason reason;
  /**
   * With {@link Reason#BUILDING}: what the index is, in the words /healthz uses after "search
   * index: " ("being rebuilt, since it was written by another version of Lucene"); null for a
   * first build.
   */
  private final String state;

  public SearchUnavailable(Reason reason) {
    this(reason, null);
  }

  public SearchUnavailable(Reason reason, String state) {
    super(reason.name(), null, false, false);
    this.reason = reason;
    this.state = state;
  }

  public Reason reason() {
    return reason;
  }

  public String state() {
    return state;
  }
}
