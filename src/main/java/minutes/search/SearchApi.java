package minutes.search;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import minutes.http.ApiError;
import minutes.http.Endpoint;
import minutes.http.Params;
import minutes.http.Request;
import minutes.keys.Scope;
import minutes.search.index.SearchIndex;
import minutes.search.index.SearchUnavailable;
import minutes.search.query.Facets;
import minutes.search.query.MeetingSearch;
import minutes.search.query.SearchFilters;
import minutes.search.query.SearchHit;
import minutes.search.query.SearchRequest;
import minutes.search.query.SplitSearch;
import minutes.search.text.SearchAnalyzer;
import minutes.search.text.SearchQuery;
import minutes.search.text.SearchQuery.Match;
import minutes.search.text.SegmentSearch;
import minutes.store.Vocabulary;
import minutes.store.WorkspaceCompanies;
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
  /** Hits a search pages through at most: offset + limit (decisions.md). */
  static final int MAX_DEPTH = 1000;
  /** Moments per hit at most, and facet values per facet (decisions.md). */
  static final int MAX_MOMENTS = 10, MAX_FACET_VALUES = 100, DEFAULT_FACET_VALUES = 10;

  private final SearchIndex index;
  private final SplitSearch split;
  private final Facets facets = new Facets();
  private final Analyzer analyzer = new SearchAnalyzer();
  private final int timeoutMillis;
  private final Runnable timedOut;

  /**
   * {@code split}: matches the costliest searches on all cores; {@code timedOut}: called once
   * for each search stopped by the time limit (for /metrics).
   */
  public SearchApi(SearchIndex index, SplitSearch split, int timeoutMillis, Runnable timedOut) {
    this.index = index;
    this.split = split;
    this.timeoutMillis = timeoutMillis;
    this.timedOut = timedOut;
  }

  /**
   * The request's parameters, validated: {@code moments} first, since asking for moments
   * without {@code transcripts:read} is refused (403) before any other parameter is judged, as
   * a missing scope always is. The company filter's domains are read now, so that a company
   * whose domains changed needs no reindex.
   */
  @Override
  public SearchHit.Result answer(Request r) throws SQLException {
    Params p = r.params();
    int moments = p.intClamped("moments", 0, MAX_MOMENTS, 0);
    if (moments > 0 && !r.principal().scopes().contains(Scope.TRANSCRIPTS_READ)) {
      throw ApiError.forbidden(Scope.TRANSCRIPTS_READ);
    }
    SearchQuery q = query(p.first("q").orElse(""), analyzer);
    int limit = p.limit(100, 50);
    int offset = p.offset();
    if ((long) offset + limit > MAX_DEPTH) {
      throw ApiError.badParam("offset", "offset must be an integer from 0 to " + (MAX_DEPTH - limit)
          + ": offset + limit may be at most " + MAX_DEPTH);
    }
    Instant from = p.dateOrDateTime("from").map(Instant::parse).orElse(null);
    Instant to = p.dateOrDateTime("to").map(Instant::parse).orElse(null);
    String platform = p.oneOf("platform", Vocabulary.PLATFORMS).orElse(null);
    String participant = p.email("participant").orElse(null);
    String company = p.uuid("company").orElse(null);
    String language = p.language().orElse(null);
    SearchRequest.Order order = SearchRequest.Order.of(p.oneOf("order", SearchRequest.Order.VALUES).orElse("rank"));
    List<String> facetNames = p.listOf("facets", Facets.NAMES);
    int facetLimit = p.intClamped("facet_limit", 1, MAX_FACET_VALUES, DEFAULT_FACET_VALUES);
    List<String> companyDomains = company == null ? null
        : WorkspaceCompanies.domains(r.db(), r.principal().workspaceId(), company);
    Match match = match(p);
    SearchRequest asked = new SearchRequest(q, new SearchFilters(from, to, platform, participant, companyDomains, language),
        limit, offset, order, facetNames, facetLimit, moments, p.first("offset").isPresent() || !facetNames.isEmpty(),
        match, momentsByRank(p, match));
    try {
      return MeetingSearch.answer(index, r.db(), r.versionSeen(), r.principal(), asked,
          new QueryTimeoutImpl(timeoutMillis), split, facets);
    } catch (SearchUnavailable e) {
      throw unavailable(e);
    }
  }

  private ApiError unavailable(SearchUnavailable e) {
    if (e.reason() == SearchUnavailable.Reason.TIMED_OUT) timedOut.run();
    return ApiError.unavailable(RETRY_AFTER_SECONDS, switch (e.reason()) {
      case BUILDING -> "the search index is " + (e.state() == null ? "being built" : e.state()) + "; try again in a few seconds";
      case UNREADABLE -> "the search index could not be read; it is being checked and rebuilt if damaged; "
          + "try again in a few seconds";
      case TIMED_OUT -> "this search took longer than the server allows (" + timeoutMillis + " ms); try again later, "
          + "or narrow it with more words or a filter";
    });
  }

  /** {@code match}: {@code all} (the default) or {@code most}; anything else is 400 naming it. */
  public static Match match(Params p) {
    return Match.of(p.oneOf("match", Match.VALUES).orElse(Match.ALL.value));
  }

  /**
   * {@code moments_order}: {@code rank} (best first) or {@code time}; by default best first with
   * {@code match=most}, in time order with {@code match=all} (as before the parameter existed).
   */
  public static boolean momentsByRank(Params p, Match match) {
    return p.oneOf("moments_order", MOMENTS_ORDERS).map("rank"::equals).orElse(match == Match.MOST);
  }

  private static final List<String> MOMENTS_ORDERS = List.of("rank", "time");

  /**
   * The search within one meeting's transcript: q, match and moments_order validated as here; a
   * refused q is 400 naming q.
   */
  public static SegmentSearch segmentSearch(Params p) {
    String q = p.first("q").orElse("");
    Match match = match(p);
    try {
      return SegmentSearch.parse(q, match, momentsByRank(p, match));
    } catch (SearchQuery.Refused e) {
      throw ApiError.badParam("q", e.getMessage());
    }
  }

  /** q validated and analysed; a refused one is 400 naming q. */
  public static SearchQuery query(String q, Analyzer analyzer) {
    try {
      return SearchQuery.parse(q, analyzer);
    } catch (SearchQuery.Refused e) {
      throw ApiError.badParam("q", e.getMessage());
    }
  }
}
