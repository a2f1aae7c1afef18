package minutes.search;

import minutes.http.Request;

/** GET /api/v1/search (api-spec 4.6, decisions.md): parameters, then the index. Thread-safe. */
public final class SearchApi {
  private final SearchIndex index;

  public SearchApi(SearchIndex index) {
    this.index = index;
  }

  public SearchHit.Result search(Request r) throws Exception {
    String q = r.params().first("q").orElse("");
    SearchQuery query = SearchQuery.parse(q, index.analyzer());
    int limit = r.params().limit(100, 50);
    return new SearchHit.Result(query.text, index.search(r.db(), r.principal(), query, limit));
  }
}
