package minutes.search;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import minutes.http.ApiError;
import minutes.http.Endpoint;
import minutes.http.Params;
import minutes.http.Request;
import minutes.store.Vocabulary;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.QueryTimeoutImpl;

/**
 * GET /api/v1/search (api-spec 4.6, decisions.md): reads the parameters, asks the index, and
 * is the one place that turns what the index refuses into answers: a refused {@code q} is
 * 400, no usable index, unreadable files and a search past {@code search.timeout_ms} are 503
 * with Retry-After. Thread-safe.
 */
public final class SearchApi implements Endpoint {
  static final int RETRY_AFTER_SECONDS = 5;

  private final SearchIndex index;
  private final int timeoutMillis;
  private final Runnable timedOut;

  /** {@code timedOut}: called once for each search stopped by the time limit (for /metrics). */
  public SearchApi(SearchIndex index, int timeoutMillis, Runnable timedOut) {
    this.index = index;
    this.timeoutMillis = timeoutMillis;
    this.timedOut = timedOut;
  }

  /** A search's parameters, validated; {@code company}: the company id, whose domains the database holds. */
  private record Asked(SearchQuery query, int limit, Instant from, Instant to, String platform, String participant,
      String company) {
    SearchFilters filters(List<String> companyDomains) {
      return new SearchFilters(from, to, platform, participant, companyDomains);
    }
  }

  private Asked asked(Params p) {
    return new Asked(query(p.first("q").orElse(""), index.analyzer()), p.limit(100, 50),
        p.dateOrDateTime("from").map(Instant::parse).orElse(null),
        p.dateOrDateTime("to").map(Instant::parse).orElse(null),
        p.oneOf("platform", Vocabulary.PLATFORMS).orElse(null), p.email("participant").orElse(null),
        p.uuid("company").orElse(null));
  }

  @Override
  public SearchHit.Result answer(Request r) throws SQLException {
    Asked a = asked(r.params());
    List<String> companyDomains = a.company() == null ? null
        : SearchFilters.companyDomains(r.db(), r.principal().workspaceId(), a.company());
    try {
      return new SearchHit.Result(a.query().text, index.search(r.db(), r.versionSeen(), r.principal(), a.query(),
          a.filters(companyDomains), a.limit(), new QueryTimeoutImpl(timeoutMillis)));
    } catch (SearchUnavailable e) {
      throw unavailable(e);
    }
  }

  private ApiError unavailable(SearchUnavailable e) {
    if (e.reason == SearchUnavailable.Reason.TIMED_OUT) timedOut.run();
    return ApiError.unavailable(RETRY_AFTER_SECONDS, switch (e.reason) {
      case BUILDING -> "the search index is being built; try again in a few seconds";
      case UNREADABLE -> "the search index could not be read; it is being checked and rebuilt if damaged; "
          + "try again in a few seconds";
      case TIMED_OUT -> "this search took longer than the server allows (" + timeoutMillis + " ms); try again later, "
          + "or narrow it with more words or a filter";
    });
  }

  /** q of the search within one meeting's transcript, validated as here; a refused one is 400 naming q. */
  public static SegmentSearch segmentSearch(String q) {
    try {
      return SegmentSearch.parse(q);
    } catch (SearchQuery.Refused e) {
      throw ApiError.badParam("q", e.getMessage());
    }
  }

  /** q validated and analysed; a refused one is 400 naming q. */
  static SearchQuery query(String q, Analyzer analyzer) {
    try {
      return SearchQuery.parse(q, analyzer);
    } catch (SearchQuery.Refused e) {
      throw ApiError.badParam("q", e.getMessage());
    }
  }
}
