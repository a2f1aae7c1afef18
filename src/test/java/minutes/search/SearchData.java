package minutes.search;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
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
import minutes.store.Importer;

/** Builds small NDJSON imports (decisions.md format) for search tests and loads them through the real import. */
public final class SearchData {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private final List<String> lines = new ArrayList<>();

  public static String id(String name) {
    return UUID.nameUUIDFromBytes(name.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString();
  }

  public SearchData workspace(String slug, String... users) {
    ObjectNode w = MAPPER.createObjectNode().put("kind", "workspace").put("slug", slug).put("name", slug);
    w.putArray("domains").add(slug + ".com");
    lines.add(w.toString());
    for (String u : users) {
      lines.add(MAPPER.createObjectNode().put("kind", "user").put("workspace", slug).put("email", u).put("name", u).toString());
    }
    return this;
  }

  /** A meeting with id {@code id(name)}; startsAt may be null (an upload). */
  public SearchData meeting(String workspace, String name, String title, String startsAt, List<String> visibleTo,
      String protocolMd, String... segments) {
    ObjectNode m = MAPPER.createObjectNode().put("kind", "meeting").put("workspace", workspace).put("id", id(name))
        .put("title", title).put("platform", startsAt == null ? "upload" : "zoom")
        .put("source", startsAt == null ? "upload" : "calendar").put("status", "ready")
        .put("created_at", "2026-01-01T08:00:00Z");
    if (startsAt != null) m.put("starts_at", startsAt);
    ArrayNode v = m.putArray("visible_to");
    visibleTo.forEach(v::add);
    if (protocolMd != null) {
      ObjectNode p = m.putArray("protocols").addObject().put("id", id(name + "/protocol"))
          .put("content_md", protocolMd).put("generated_at", "2026-01-02T08:00:00Z");
      p.putArray("action_items");
    }
    ArrayNode t = m.putArray("transcript");
    for (int i = 0; i < segments.length; i++) {
      t.addObject().put("speaker_name", "Speaker " + (i % 3)).put("start_ms", i * 1000L).put("text", segments[i]);
    }
    lines.add(m.toString());
    return this;
  }

  /** The test's own split searches, as a server's: every core. */
  public static final SplitSearch SPLIT = new SplitSearch(Runtime.getRuntime().availableProcessors());

  /** What {@link SearchApi} asks the index for q, without filters or time limit. */
  public static List<SearchHit> search(SearchIndex index, java.sql.Connection c, minutes.keys.Principal p, String q,
      int limit) throws java.sql.SQLException, SearchUnavailable {
    return answer(index, c, OptionalLong.empty(), p, request(SearchApi.query(q, new SearchAnalyzer()), SearchFilters.NONE,
        limit), () -> false).data();
  }

  /** The answer to r, as {@link SearchApi} finds it, on the test's own split searches and facets. */
  public static SearchHit.Result answer(SearchIndex index, java.sql.Connection c, OptionalLong dataVersion,
      minutes.keys.Principal p, SearchRequest r, org.apache.lucene.index.QueryTimeout timeout)
      throws java.sql.SQLException, SearchUnavailable {
    return MeetingSearch.answer(index, c, dataVersion, p, r, timeout, SPLIT, new Facets());
  }

  /** What GET /search asks for without the parameters of issue 32: the best {@code limit}. */
  public static SearchRequest request(SearchQuery q, SearchFilters filters, int limit) {
    return new SearchRequest(q, filters, limit, 0, SearchRequest.Order.RANK, List.of(), 10, 0, false, Match.ALL,
        false);
  }

  /** Imports what was added so far (and forgets it), as the import command would. */
  public void importInto(minutes.store.Store store, Path dir) throws IOException, java.sql.SQLException {
    Path file = Files.createTempFile(dir, "data-", ".ndjson");
    Files.write(file, lines);
    lines.clear();
    new Importer(store, Importer.Progress.NONE).run(List.of(file));
  }
}
