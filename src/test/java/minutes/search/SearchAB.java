package minutes.search;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.keys.Visibility;
import minutes.search.index.IndexDirs;
import minutes.search.index.MeetingDocument;
import minutes.search.index.RankSimilarity;
import minutes.search.index.SearchIndex;
import minutes.search.query.MeetingQueries;
import minutes.search.query.MeetingSearch;
import minutes.search.query.SearchFilters;
import minutes.search.query.SplitSearch;
import minutes.search.text.QueryMatches;
import minutes.search.text.SearchAnalyzer;
import minutes.search.text.SearchQuery;
import minutes.search.text.SearchQuery.Match;
import minutes.store.Db;
import minutes.store.Sql;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.QueryTimeoutImpl;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.IndexSearcher.LeafSlice;
import org.apache.lucene.search.Matches;
import org.apache.lucene.search.MatchesIterator;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Weight;
import org.apache.lucene.store.FSDirectory;

/**
 * In-process A/B measurements for issue 16 item 3 and the search filters; not a test. Each
 * comparison runs its variants interleaved, query by query, in one JVM over one index, so
 * that load on a shared machine hits both alike:
 * {@code SearchAB DB INDEX QUERIES WORKSPACE_SLUG ROUNDS}. Prints one table row per variant
 * (p50, p99 in ms, samples) and checks that the variants answer alike.
 */
public final class SearchAB {
  private SearchAB() {}

  private static final int WARM_UP_ROUNDS = 5;

  public static void main(String[] args) throws Exception {
    Path dbPath = Path.of(args[0]), root = Path.of(args[1]);
    List<String> queries = Files.readAllLines(Path.of(args[2]));
    int rounds = Integer.parseInt(args[4]);
    try (Db db = Db.open(minutes.store.Store.sqlite(dbPath), 2)) {
      Principal p;
      try (Connection c = db.read()) {
        p = new Principal("bench", Db.workspaceId(c, args[3]).orElseThrow(), null, EnumSet.allOf(Scope.class), Set.of());
      }
      filters(db, root, p, queries, rounds);
    }
    try (FSDirectory dir = FSDirectory.open(root.resolve(IndexDirs.current(root)));
        DirectoryReader reader = DirectoryReader.open(dir)) {
      IndexSearcher s = new IndexSearcher(reader);
      s.setSimilarity(new RankSimilarity());
      Principal p = new Principal("bench", 1, null, EnumSet.allOf(Scope.class), Set.of());
      System.out.printf("index: %d meetings in %d segments %s%n", reader.maxDoc(), reader.leaves().size(),
          reader.leaves().stream().map(l -> l.reader().maxDoc()).toList());
      timeLimit(s, p, queries, rounds);
      slices(s, p, queries, rounds);
      snippets(s, p, queries, rounds);
    }
  }

  /** Runs each variant on each query, interleaved, the order of variants rotating per query. */
  interface Variant {
    Object run(String q) throws Exception;
  }

  static Map<String, long[]> interleaved(List<String> queries, int rounds, Map<String, Variant> variants) throws Exception {
    List<String> names = new ArrayList<>(variants.keySet());
    Map<String, long[]> nanos = new LinkedHashMap<>();
    for (String n : names) nanos.put(n, new long[queries.size() * rounds]);
    for (int r = -WARM_UP_ROUNDS; r < rounds; r++) {
      for (int k = 0; k < queries.size(); k++) {
        for (int v = 0; v < names.size(); v++) {
          String name = names.get((v + k + Math.max(r, 0)) % names.size());
          long t = System.nanoTime();
          variants.get(name).run(queries.get(k));
          long took = System.nanoTime() - t;
          if (r >= 0) nanos.get(name)[r * queries.size() + k] = took;
        }
      }
    }
    return nanos;
  }

  static void report(String section, Map<String, long[]> nanos) {
    System.out.println();
    System.out.println("| " + section + " | p50 ms | p99 ms | samples |");
    System.out.println("|---|---|---|---|");
    for (Map.Entry<String, long[]> e : nanos.entrySet()) {
      long[] sorted = e.getValue().clone();
      Arrays.sort(sorted);
      System.out.printf("| %s | %.3f | %.3f | %d |%n", e.getKey(), pct(sorted, 50), pct(sorted, 99), sorted.length);
    }
  }

  static double pct(long[] sorted, int p) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1e6;
  }

  // ------------------------------------------------------------------ filters

  /** The whole search path (SearchIndex.search, snippets included) without and with each filter. */
  static void filters(Db db, Path root, Principal p, List<String> queries, int rounds) throws Exception {
    SearchIndex index = SearchIndex.open(root, db);
    try (Connection c = db.read()) {
      c.setAutoCommit(false);
      String middle = new Sql("SELECT sort_at FROM meeting ORDER BY sort_at LIMIT 1 OFFSET (SELECT count(*) / 2 FROM meeting)")
          .one(c, rs -> rs.getString(1)).orElseThrow();
      String participant = new Sql("SELECT lower(email) FROM participant WHERE email IS NOT NULL GROUP BY lower(email) "
          + "ORDER BY count(*) DESC LIMIT 1").one(c, rs -> rs.getString(1)).orElseThrow();
      String company = new Sql("SELECT cd.company_id FROM company_domain cd JOIN participant pa ON pa.domain = cd.domain "
          + "GROUP BY cd.company_id ORDER BY count(DISTINCT pa.meeting_id) DESC LIMIT 1").one(c, rs -> rs.getString(1))
          .orElseThrow();
      List<String> domains = minutes.store.WorkspaceCompanies.domains(c, p.workspaceId(), company);
      Instant at = Instant.parse(middle);
      Map<String, SearchFilters> filters = new LinkedHashMap<>();
      filters.put("no filter", SearchFilters.NONE);
      filters.put("from (the later half of the meetings)", new SearchFilters(at, null, null, null, null, null));
      filters.put("to (the earlier half)", new SearchFilters(null, at, null, null, null, null));
      filters.put("platform=zoom", new SearchFilters(null, null, "zoom", null, null, null));
      filters.put("participant (the most frequent)", new SearchFilters(null, null, null, participant, null, null));
      filters.put("company (the one with most meetings)", new SearchFilters(null, null, null, null, domains, null));
      Map<String, Variant> variants = new LinkedHashMap<>();
      for (Map.Entry<String, SearchFilters> f : filters.entrySet()) {
        variants.put(f.getKey(), q -> SearchData.answer(index, c, OptionalLong.empty(), p,
            SearchData.request(SearchApi.query(q, new SearchAnalyzer()), f.getValue(), 50), new QueryTimeoutImpl(2000)).data().size());
      }
      long meetings = new Sql("SELECT count(*) FROM meeting").count(c);
      for (Map.Entry<String, SearchFilters> f : filters.entrySet()) {
        long passing = SearchData.answer(index, c, OptionalLong.empty(), p,
            SearchData.request(SearchApi.query("the", new SearchAnalyzer()), f.getValue(), (int) meetings), () -> false).data().size();
        System.out.printf("filter %s: %d of the %d meetings saying \"the\" pass%n", f.getKey(), passing,
            SearchData.answer(index, c, OptionalLong.empty(), p,
                SearchData.request(SearchApi.query("the", new SearchAnalyzer()), SearchFilters.NONE, (int) meetings), () -> false)
                .data().size());
      }
      report("whole search (SearchIndex.search, limit 50, snippets)", interleaved(queries, rounds, variants));
      c.rollback();
    } finally {
      index.close();
    }
  }

  // ------------------------------------------------------------------ time limit

  /** Matching (the part the limit watches) on the shared searcher, and on a per-request searcher with the limit. */
  static void timeLimit(IndexSearcher shared, Principal p, List<String> queries, int rounds) throws Exception {
    SearchAnalyzer analyzer = new SearchAnalyzer();
    Map<String, Variant> variants = new LinkedHashMap<>();
    variants.put("shared searcher, no time limit (before)", q -> shared.search(query(q, analyzer, p), MeetingSearch.collector(50))
        .scoreDocs.length);
    variants.put("own searcher per request, 2 s limit (now)", q -> {
      IndexSearcher s = SplitSearch.like(new IndexSearcher(shared.getIndexReader()), shared);
      s.setTimeout(new QueryTimeoutImpl(2000));
      return s.search(query(q, analyzer, p), MeetingSearch.collector(50)).scoreDocs.length;
    });
    report("matching only, top 50, one thread", interleaved(queries, rounds, variants));
  }

  static Query query(String q, SearchAnalyzer analyzer, Principal p) {
    return MeetingSearch.matching(SearchApi.query(q, analyzer), Match.ALL, p, SearchFilters.NONE, List.of());
  }

  // ------------------------------------------------------------------ slices

  /**
   * The phrases of the query set matched on one thread and split in two as SplitSearch splits
   * them. (Until commit 'SplitSearch: Lucene's slices' this compared our own equal shares with
   * IndexSearcher.slices; see docs/BENCHMARKS.md, 2026-11-25.)
   */
  static void slices(IndexSearcher shared, Principal p, List<String> queries, int rounds) throws Exception {
    SearchAnalyzer analyzer = new SearchAnalyzer();
    List<String> phrases = queries.stream().filter(q -> q.startsWith("\"")).toList();
    try (SplitSearch split = new SplitSearch(2)) {
      IndexSearcher splitting = split.splitting(shared, Visibility.of(p).workspaceId());
      System.out.printf("slices of %d documents: %s%n", shared.getIndexReader().maxDoc(), describe(splitting.getSlices()));
      int differ = 0;
      for (String q : phrases) {
        Query query = query(q, analyzer, p);
        if (!Arrays.equals(ids(shared.search(query, MeetingSearch.collector(50)).scoreDocs),
            ids(splitting.search(query, MeetingSearch.collector(50)).scoreDocs))) {
          differ++;
        }
      }
      System.out.printf("phrases answered differently: %d of %d%n", differ, phrases.size());
      Map<String, Variant> variants = new LinkedHashMap<>();
      variants.put("one thread", q -> shared.search(query(q, analyzer, p), MeetingSearch.collector(50)).scoreDocs.length);
      variants.put("split in two (IndexSearcher.slices)",
          q -> splitting.search(query(q, analyzer, p), MeetingSearch.collector(50)).scoreDocs.length);
      report("phrases matched (" + phrases.size() + " phrases)", interleaved(phrases, 5 * rounds, variants));
    }
  }

  static String describe(LeafSlice[] slices) {
    List<String> out = new ArrayList<>();
    for (LeafSlice s : slices) out.add(s.getMaxDocs() + " docs in " + s.partitions.length + " part(s)");
    return out.toString();
  }

  static int[] ids(ScoreDoc[] docs) {
    return Arrays.stream(docs).mapToInt(d -> d.doc).toArray();
  }

  // ------------------------------------------------------------------ snippet offsets

  /**
   * Where each query matched in the transcript of each of its top 50 hits: QueryMatches (our
   * postings walk, best window included) against Weight.matches per clause (Lucene's Matches
   * API; MatchRegionRetriever and OffsetsFromMatchIterator of lucene-highlighter build on it
   * and add loading the field's text, so they cannot be faster). Counts hits where the two
   * find different match offsets.
   */
  static void snippets(IndexSearcher s, Principal p, List<String> queries, int rounds) throws Exception {
    SearchAnalyzer analyzer = new SearchAnalyzer();
    String field = MeetingDocument.TRANSCRIPT;
    Map<String, ScoreDoc[]> top = new LinkedHashMap<>();
    for (String q : queries) top.put(q, s.search(query(q, analyzer, p), MeetingSearch.collector(50)).scoreDocs);
    int[] compared = new int[2];
    for (String q : queries) {
      SearchQuery sq = SearchApi.query(q, analyzer);
      if (sq.isEmpty()) continue;
      List<int[]> a = passages(s, sq, field, top.get(q)), b = matches(s, sq, field, top.get(q));
      compared[0] += a.size();
      for (int i = 0; i < a.size(); i++) {
        if (Arrays.equals(a.get(i), b.get(i))) continue;
        if (compared[1]++ < 3) {
          System.out.printf("differ: %s: ours %s, Lucene's %s%n", q, Arrays.toString(Arrays.copyOf(a.get(i), Math.min(12,
              a.get(i).length))), Arrays.toString(Arrays.copyOf(b.get(i), Math.min(12, b.get(i).length))));
        }
      }
    }
    System.out.printf("hits compared: %d; hits where the two found other offsets: %d%n", compared[0], compared[1]);
    Map<String, Variant> variants = new LinkedHashMap<>();
    variants.put("QueryMatches (ours, best window included)", q -> passages(s, SearchApi.query(q, analyzer), field, top.get(q)));
    variants.put("Weight.matches per clause (Lucene's Matches API, offsets only)",
        q -> matches(s, SearchApi.query(q, analyzer), field, top.get(q)));
    report("match offsets in the transcripts of the top 50 hits (per query)", interleaved(queries, rounds, variants));
  }

  /** Per hit, the sorted start and end offsets of every match QueryMatches finds (in the whole text, window aside). */
  static List<int[]> passages(IndexSearcher s, SearchQuery q, String field, ScoreDoc[] hits) throws Exception {
    List<int[]> out = new ArrayList<>();
    if (q.isEmpty()) return out;
    ScoreDoc[] byDoc = hits.clone();
    Arrays.sort(byDoc, (x, y) -> Integer.compare(x.doc, y.doc));
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    QueryMatches passages = null;
    LeafReaderContext leaf = null;
    for (ScoreDoc h : byDoc) {
      LeafReaderContext l = leaves.get(org.apache.lucene.index.ReaderUtil.subIndex(h.doc, leaves));
      if (l != leaf) {
        leaf = l;
        passages = new QueryMatches(leaf.reader(), field, q.clauses);
      }
      passages.match(h.doc - leaf.docBase);
      QueryMatches.Best best = passages.best(1 << 29); // a window as wide as any text: every match
      out.add(best.spans().stream().flatMapToInt(sp -> java.util.stream.IntStream.of(sp.start(), sp.end())).toArray());
    }
    return out;
  }

  /** The same offsets from Weight.matches, one weight per clause, sorted as QueryMatches sorts them. */
  static List<int[]> matches(IndexSearcher s, SearchQuery q, String field, ScoreDoc[] hits) throws Exception {
    List<int[]> out = new ArrayList<>();
    if (q.isEmpty()) return out;
    List<Weight> weights = new ArrayList<>();
    for (List<String> clause : q.clauses) {
      Query c = clause.size() == 1 ? new org.apache.lucene.search.TermQuery(new org.apache.lucene.index.Term(field,
          clause.get(0))) : MeetingQueries.phrase(field, clause);
      weights.add(s.createWeight(s.rewrite(c), ScoreMode.COMPLETE_NO_SCORES, 1f));
    }
    ScoreDoc[] byDoc = hits.clone();
    Arrays.sort(byDoc, (x, y) -> Integer.compare(x.doc, y.doc));
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    for (ScoreDoc h : byDoc) {
      LeafReaderContext leaf = leaves.get(org.apache.lucene.index.ReaderUtil.subIndex(h.doc, leaves));
      List<long[]> spans = new ArrayList<>();
      for (Weight w : weights) {
        Matches m = w.matches(leaf, h.doc - leaf.docBase);
        MatchesIterator it = m == null ? null : m.getMatches(field);
        if (it == null) continue; // this clause does not stand in this field (the hit matched elsewhere)
        while (it.next()) spans.add(new long[] {it.startOffset(), it.endOffset()});
      }
      spans.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(y[1], x[1]));
      out.add(spans.stream().flatMapToInt(sp -> java.util.stream.IntStream.of((int) sp[0], (int) sp[1])).toArray());
    }
    return out;
  }
}
