package minutes.search;

/** One search hit, exactly the fields of api-spec 2.5; {@code matched_in} is protocol, title or transcript. */
public record SearchHit(String meetingId, String title, String platform, String startsAt, String createdAt,
    double rank, String snippet, String matchedIn) {

  /** The answer of GET /search: the trimmed query and the hits, best first. */
  public record Result(String query, java.util.List<SearchHit> data) {}
}
