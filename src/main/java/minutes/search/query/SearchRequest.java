package minutes.search.query;

import java.util.List;
import minutes.search.index.MeetingDocument;
import minutes.search.text.SearchQuery;
import minutes.search.text.SearchQuery.Match;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;

/**
 * What one search asks for, validated (decisions.md, GET /search and "Search for search-heavy
 * clients"): the query and filters; the page ({@code offset}, {@code limit}) of hits in
 * {@code order}; {@code facets} (names of {@link Facets#NAMES}, none when not asked) with at most
 * {@code facetLimit} values each; {@code moments} per hit (0: none, and no moment fields), best
 * first ({@code momentsByRank}) or in time order; whether the answer carries {@code total}; and
 * which clauses a meeting must hold ({@code match}). Immutable.
 */
public record SearchRequest(SearchQuery query, SearchFilters filters, int limit, int offset, Order order, List<String> facets,
    int facetLimit, int moments, boolean withTotal, Match match, boolean momentsByRank) {

  /** The orders of hits, each with the sort that collects them; the time is coalesce(starts_at, created_at). */
  public enum Order {
    /** Rank descending, then the time descending (api-spec 4.6). */
    RANK("rank", new Sort(SortField.FIELD_SCORE, new SortField(MeetingDocument.AT, SortField.Type.LONG, true))),
    /** Oldest first, ties by meeting id ascending. */
    STARTS_AT("starts_at", new Sort(new SortField(MeetingDocument.AT, SortField.Type.LONG), IdOrder.SORT)),
    /** Newest first, ties by meeting id ascending. */
    NEWEST("-starts_at", new Sort(new SortField(MeetingDocument.AT, SortField.Type.LONG, true), IdOrder.SORT));

    /** The value of the {@code order} parameter. */
    final String value;
    final Sort sort;

    Order(String value, Sort sort) {
      this.value = value;
      this.sort = sort;
    }

    public static final List<String> VALUES = List.of(RANK.value, STARTS_AT.value, NEWEST.value);

    public static Order of(String value) {
      for (Order o : values()) if (o.value.equals(value)) return o;
      throw new IllegalArgumentException(value);
    }
  }
}
