package minutes.mcp;

import static minutes.Fixtures.M1;
import static minutes.Fixtures.M2;

import java.util.List;
import java.util.Map;

/**
 * Tool calls and the REST requests that must answer the same, over fixtures.ndjson: every tool
 * at least once, with several of its arguments, for the MCP client tests.
 */
final class TwinCases {
  private TwinCases() {}

  record Case(String tool, Map<String, Object> arguments, String rest) {}

  static final List<Case> CASES = List.of(
      new Case("search", Map.of("q", "budget"), "/api/v1/search?q=budget"),
      new Case("search", Map.of("q", "\"revised forecast\"", "limit", 1), "/api/v1/search?q=%22revised+forecast%22&limit=1"),
      new Case("search", Map.of("q", "budget", "facets", "platform,company,participant,month", "facet_limit", 2),
          "/api/v1/search?q=budget&facets=platform,company,participant,month&facet_limit=2"),
      new Case("search", Map.of("q", "budget", "order", "-starts_at", "offset", 1, "limit", 1, "moments", 2),
          "/api/v1/search?q=budget&order=-starts_at&offset=1&limit=1&moments=2"),
      new Case("search", Map.of("q", "budget", "order", "oldest"), "/api/v1/search?q=budget&order=oldest"),
      new Case("fetch", Map.of("id", M1), "/api/v1/meetings/" + M1),
      new Case("fetch", Map.of("id", M2.toUpperCase()), "/api/v1/meetings/" + M2.toUpperCase()),
      new Case("list_meetings", Map.of(), "/api/v1/meetings"),
      new Case("list_meetings", Map.of("order", "title", "limit", 2, "offset", 1, "from", "2026-03-01"),
          "/api/v1/meetings?order=title&limit=2&offset=1&from=2026-03-01"),
      new Case("list_action_items", Map.of("status", "open", "limit", 3), "/api/v1/action-items?status=open&limit=3"),
      new Case("list_action_items", Map.of("meeting_id", M1, "due_from", "2026-03-12"),
          "/api/v1/action-items?meeting_id=" + M1 + "&due_from=2026-03-12"),
      new Case("get_transcript", Map.of("id", M1), "/api/v1/meetings/" + M1 + "/transcript"),
      new Case("get_transcript", Map.of("id", M1, "from_ms", 4000, "to_ms", 9500, "limit", 1, "offset", 1),
          "/api/v1/meetings/" + M1 + "/transcript?from_ms=4000&to_ms=9500&limit=1&offset=1"),
      new Case("search_transcript", Map.of("id", M1, "q", "budget"), "/api/v1/meetings/" + M1 + "/transcript/search?q=budget"),
      new Case("search_transcript", Map.of("id", M1, "q", "forecast tomorrow", "limit", 5),
          "/api/v1/meetings/" + M1 + "/transcript/search?q=forecast+tomorrow&limit=5"));
}
