package minutes.search.query;

import java.sql.Connection;
import java.util.List;
import java.util.OptionalLong;
import minutes.search.SearchApi;
import minutes.search.SearchData;
import minutes.search.SearchFixture;
import minutes.search.index.IndexDirs;
import minutes.search.index.RankSimilarity;
import minutes.search.index.SearchUnavailable;
import minutes.search.text.SearchAnalyzer;
import minutes.search.text.SearchQuery;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Searches under a time limit: they stop wherever they are and fail as timed out, never answering in part. */
class SearchTimeLimitTest extends SearchFixture {
  /** A time limit that says "stop" from its {@code stopAt}-th look on (1-based), counting every look. */
  static final class CountingLimit implements org.apache.lucene.index.QueryTimeout {
    final int stopAt;
    int looks;

    CountingLimit(int stopAt) {
      this.stopAt = stopAt;
    }

    @Override
    public boolean shouldExit() {
      return ++looks >= stopAt;
    }
  }

  static List<SearchHit> searchWithin(org.apache.lucene.index.QueryTimeout limit, String q) throws Exception {
    try (Connection c = db.read()) {
      c.setAutoCommit(false);
      try {
        return SearchData.answer(index, c, OptionalLong.empty(), acme, SearchData.request(SearchApi.query(q, new SearchAnalyzer()),
            SearchFilters.NONE, 50), limit).data();
      } finally {
        c.rollback();
      }
    }
  }

  /**
   * A search stops at its time limit wherever it is, in matching or in the snippets after it,
   * and then fails as timed out instead of answering with the hits found so far.
   */
  @Test
  void aSearchPastItsTimeLimitFailsWhereverItIsAndNeverAnswersPart() throws Exception {
    String q = "quokka"; // three hits: one title, one minutes, one transcript snippet
    CountingLimit never = new CountingLimit(Integer.MAX_VALUE);
    assertEquals(3, searchWithin(never, q).size());
    int looks = never.looks, matching = looks - 2 * 3; // describe and highlight look once per hit
    assertTrue(matching >= 1, "matching looked at the limit: " + looks);
    for (int stopAt = 1; stopAt <= looks; stopAt++) {
      int at = stopAt;
      SearchUnavailable e = assertThrows(SearchUnavailable.class, () -> searchWithin(new CountingLimit(at), q),
          "stopped at look " + at + " of " + looks + (at <= matching ? " (matching)" : " (best field, snippets)"));
      assertEquals(SearchUnavailable.Reason.TIMED_OUT, e.reason());
    }
    assertEquals(3, searchWithin(new CountingLimit(looks + 1), q).size());
  }

  /** The same when matching runs split across cores: a helper thread's part stops too. */
  @Test
  void aSplitSearchPastItsTimeLimitFailsToo() throws Exception {
    try (SplitSearch split = new SplitSearch(2, 0); Connection c = db.read()) {
      IndexSearcher s = new IndexSearcher(DirectoryReader.open(FSDirectory.open(dir.resolve("index")
          .resolve(IndexDirs.current(dir.resolve("index"))))));
      try {
        s.setSimilarity(new RankSimilarity());
        SearchQuery q = SearchApi.query("\"walrus the tusk\"", new SearchAnalyzer());
        MeetingSearch expired = new MeetingSearch(s, () -> true, split, new Facets());
        SearchRequest r = SearchData.request(q, SearchFilters.NONE, 50);
        SearchUnavailable e = assertThrows(SearchUnavailable.class, () -> expired.find(c, acme, r, List.of()));
        assertEquals(SearchUnavailable.Reason.TIMED_OUT, e.reason());
        assertEquals(1, split.splits(), "the search was split");
        assertEquals(1, new MeetingSearch(s, () -> false, split, new Facets()).find(c, acme, r, List.of())
            .data().size());
      } finally {
        s.getIndexReader().close();
      }
    }
  }
}
