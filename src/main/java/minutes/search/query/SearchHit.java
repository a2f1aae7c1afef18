package minutes.search.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * One search hit: exactly the fields of api-spec 2.5 ({@code matched_in} is protocol, title or
 * transcript), and {@code moments} with {@code moments_total} only when a request asks for
 * moments (decisions.md, "Search for search-heavy clients").
 */
public record SearchHit(String meetingId, String title, String platform, String startsAt, String createdAt,
    double rank, String snippet, String matchedIn,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<Moment> moments,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer momentsTotal) {

  /** The answer of GET /search: the trimmed query and the hits; {@code total} and {@code facets} only when asked for. */
  public record Result(String query, List<SearchHit> data,
      @JsonInclude(JsonInclude.Include.NON_NULL) Integer total,
      @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, List<?>> facets) {}

  /**
   * A transcript segment that matched, with its times, to jump to the moment: an item of GET
   * /meetings/{id}/transcript/search and of a hit's {@code moments}.
   */
  public record Moment(int index, String speakerName, long startMs, Long endMs, String snippet) {}

  /** A facet value and the number of matching meetings that have it. */
  public record FacetCount(String value, int count) {}

  /** A company of the company facet: its id as the value, its name, and its matching meetings. */
  public record CompanyCount(String value, String name, int count) {}
}
