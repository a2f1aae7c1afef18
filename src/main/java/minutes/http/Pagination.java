package minutes.http;

import java.util.List;

/** The pagination object of api-spec 2.6. */
public record Pagination(int limit, int offset, long total) {

  /** The usual envelope {@code {data, pagination}}. */
  public record Page<T>(List<T> data, Pagination pagination) {}
}
