package minutes.search.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import minutes.StoreIndependent;
import minutes.generate.QmsumCorpus;
import minutes.generate.TestCorpus;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.search.SearchData;
import minutes.search.index.MeetingDocument;
import minutes.search.index.MinutesCodec;
import minutes.search.index.RankSimilarity;
import minutes.search.text.SearchAnalyzer;
import minutes.search.text.SearchQuery;
import minutes.search.text.SearchQuery.Match;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;
import org.apache.lucene.search.IndexSearcher.LeafSlice;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopFieldDocs;
import org.apache.lucene.search.Weight;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A search split across cores answers exactly as one pass over the index: the same meetings,
 * ranks and order, ties included, for a workspace key and for a personal key with meetings
 * left out as changed, over real meeting talk in several segments of the production document
 * layout.
 */
@StoreIndependent
class SplitSearchTest {
  static ByteBuffersDirectory dir;
  static DirectoryReader reader;
  static IndexSearcher searcher;
  static final List<List<String>> texts = new ArrayList<>();
  static final List<String> ids = new ArrayList<>();
  static final SearchAnalyzer analyzer = new SearchAnalyzer();
  static final String ANN = "ann@acme.com";
  static final Principal WORKSPACE_KEY = new Principal("w", 1, null, EnumSet.allOf(Scope.class), Set.of());
  static final Principal ANNS_KEY = new Principal("a", 1, ANN, EnumSet.allOf(Scope.class), Set.of());

  @BeforeAll
  static void index() throws Exception {
    dir = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig(analyzer).setCodec(new MinutesCodec())
        .setSimilarity(new RankSimilarity()).setIndexSort(MeetingDocument.INDEX_ORDER);
    config.setMaxBufferedDocs(23); // segments of unequal sizes, as imports leave them
    String[] dates = {"2026-01-05T09:00:00Z", "2026-02-05T09:00:00Z", "2026-03-05T09:00:00Z"};
    try (IndexWriter w = new IndexWriter(dir, config)) {
      int n = 0;
      for (QmsumCorpus.Meeting m : TestCorpus.get().meetings().subList(0, 60)) {
        List<QmsumCorpus.Turn> turns = m.turns();
        // Each meeting twice, in halves: more documents, and many that tie on rank and date.
        for (List<QmsumCorpus.Turn> part : List.of(turns.subList(0, turns.size() / 2), turns.subList(turns.size() / 2, turns.size()))) {
          String transcript = part.stream().map(QmsumCorpus.Turn::text).collect(Collectors.joining(" "));
          String date = dates[n % dates.length];
          List<String> viewers = n % 3 == 0 ? List.of(ANN) : n % 3 == 1 ? List.of(ANN, "bob@acme.com") : List.of();
          ids.add(SearchData.id(m.name() + n));
          w.addDocument(new MeetingDocument(ids.getLast(), n % 7 == 0 ? 2 : 1, viewers, m.name(), "zoom",
              date, date, date, List.of(), m.summary(), transcript, new byte[0], "und").toDocument());
          texts.add(SearchQuery.analyze(analyzer, transcript));
          n++;
        }
      }
    }
    reader = DirectoryReader.open(dir);
    searcher = new IndexSearcher(reader);
    searcher.setSimilarity(new RankSimilarity());
  }

  @AfterAll
  static void close() throws Exception {
    reader.close();
    dir.close();
  }

  /**
   * The slices a split search matches cover every document of every segment exactly once, one
   * slice per part, each with an equal share of the searched workspace's documents (the last
   * one may have fewer), for either workspace of the index.
   */
  @Test
  void slicesCoverEveryDocumentOnceInEqualSharesOfTheWorkspace() throws Exception {
    List<LeafReaderContext> leaves = reader.leaves();
    assertTrue(leaves.size() > 3, "several segments: " + leaves.size());
    for (long workspace : new long[] {1, 2}) {
      BitSet ofWorkspace = workspaceDocs(workspace);
      for (int cores = 2; cores <= 5; cores++) {
        int parts = Math.min(cores, SplitSearch.MAX_PARTS), share = Math.ceilDiv(ofWorkspace.cardinality(), parts);
        String what = "workspace " + workspace + ", " + cores + " cores";
        try (SplitSearch split = new SplitSearch(cores)) {
          LeafSlice[] slices = split.splitting(searcher, workspace).getSlices();
          assertEquals(parts, slices.length, what);
          java.util.Map<LeafReaderContext, BitSet> covered = new java.util.HashMap<>();
          for (int i = 0; i < slices.length; i++) {
            int inSlice = 0;
            for (LeafReaderContextPartition p : slices[i].partitions) {
              int to = Math.min(p.maxDocId, p.ctx.reader().maxDoc());
              BitSet docs = covered.computeIfAbsent(p.ctx, l -> new BitSet());
              assertTrue(p.minDocId < to, "no empty partition");
              assertTrue(docs.get(p.minDocId, to).isEmpty(), "no document twice");
              docs.set(p.minDocId, to);
              inSlice += ofWorkspace.get(p.ctx.docBase + p.minDocId, p.ctx.docBase + to).cardinality();
            }
            if (i < slices.length - 1) assertEquals(share, inSlice, what + ", slice " + i);
            else assertTrue(inSlice <= share, what + ", the last slice");
          }
          for (LeafReaderContext leaf : leaves) {
            assertEquals(leaf.reader().maxDoc(), covered.get(leaf).cardinality(), what + ", every document of a leaf");
          }
        }
      }
    }
  }

  /** The index's documents (by global id) of a workspace. */
  private static BitSet workspaceDocs(long workspace) throws Exception {
    BitSet docs = new BitSet();
    Weight w = searcher.createWeight(new TermQuery(new Term(MeetingDocument.WORKSPACE, Long.toString(workspace))),
        ScoreMode.COMPLETE_NO_SCORES, 1f);
    for (LeafReaderContext leaf : reader.leaves()) {
      Scorer s = w.scorer(leaf);
      if (s == null) continue;
      for (int d = s.iterator().nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = s.iterator().nextDoc()) docs.set(leaf.docBase + d);
    }
    assertTrue(docs.cardinality() > 10, "workspace " + workspace + " has documents: " + docs.cardinality());
    return docs;
  }

  @Test
  void splitSearchesAnswerAsOnePass() throws Exception {
    Random random = new Random(20261122);
    Set<String> queries = new LinkedHashSet<>(List.of("\"to work together\"", "\"a new remote\"", "\"them as\"",
        "\"but now you\"", "remote control", "the", "budget", "\"remote control\" design"));
    while (queries.size() < 200) {
      List<String> text = texts.get(random.nextInt(texts.size()));
      int n = 1 + random.nextInt(3), at = random.nextInt(text.size() - n);
      String words = String.join(" ", text.subList(at, at + n));
      if (words.length() < SearchQuery.MIN_CHARS) continue;
      queries.add(random.nextBoolean() ? "\"" + words + "\"" : words);
    }
    // Meetings changed since the searcher's seq, left out as the server leaves them out.
    List<BytesRef> pending = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += 5) pending.add(new BytesRef(ids.get(i)));
    try (SplitSearch split = new SplitSearch(2)) {
      int[] hits = new int[2];
      for (String text : queries) {
        SearchQuery q = SearchQuery.parse(text, analyzer);
        List<Query> asKeys = List.of(query(q), MeetingSearch.matching(q, Match.ALL, ANNS_KEY, SearchFilters.NONE, pending));
        for (int key = 0; key < asKeys.size(); key++) {
          for (int limit : new int[] {1, 7, 50}) {
            Query query = asKeys.get(key);
            List<String> expected = ranked(searcher.search(query, MeetingSearch.collector(limit)));
            assertEquals(expected, ranked(split.splitting(searcher, 1).search(query, MeetingSearch.collector(limit))), text + " as " + query + ", limit " + limit);
            hits[key] += expected.size();
          }
        }
      }
      assertTrue(hits[0] > 3000, "the workspace key finds meetings: " + hits[0]);
      assertTrue(hits[1] > 1000 && hits[1] < hits[0], "the personal key finds fewer: " + Arrays.toString(hits));
    }
  }

  @Test
  void onlyPhrasesOfFrequentWordsAreCostly() throws Exception {
    assertEquals(0, positions("remote control the"), "words alone read no positions");
    long rare = positions("\"industrial designer\" remote"), frequent = positions("\"a new remote\""),
        common = positions("\"to work together\"");
    assertTrue(rare > 0, "a rare phrase still reads some: " + rare);
    assertTrue(frequent > rare, frequent + " > " + rare);
    assertTrue(common > rare, common + " > " + rare);
    assertTrue(positions("\"a new remote\" zzzunknownword") == 0, "a clause found nowhere: nothing to read");
    assertEquals(0, positions("\"i think\""), "a phrase matched as one pair term is a word");
    assertTrue(positions("\"the needs\"") > 0, "one word read with its neighbours' codes reads positions");
  }

  @Test
  void splitsOnlyCostlySearchesAndOnlyWhileAHelperIsFree() throws Exception {
    SearchQuery phrase = SearchQuery.parse("\"to work together\"", analyzer);
    SearchQuery words = SearchQuery.parse("remote control", analyzer);
    long cost = SplitSearch.positions(reader, phrase);
    List<String> expected = ranked(searcher.search(query(phrase), MeetingSearch.collector(50)));
    try (SplitSearch split = new SplitSearch(2, cost)) {
      assertEquals(expected, ranked(split.searcher(searcher, phrase, 1).search(query(phrase), MeetingSearch.collector(50))));
      assertEquals(1, split.splits(), "a search reading the threshold's positions is split");
      assertEquals(ranked(searcher.search(query(words), MeetingSearch.collector(50))),
          ranked(split.searcher(searcher, words, 1).search(query(words), MeetingSearch.collector(50))));
      assertEquals(1, split.splits(), "words alone are not");

      CountDownLatch busy = new CountDownLatch(1), release = new CountDownLatch(1);
      split.handOut(() -> {
        busy.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      busy.await();
      assertEquals(expected, ranked(split.searcher(searcher, phrase, 1).search(query(phrase), MeetingSearch.collector(50))));
      assertEquals(1, split.splits(), "not while the only helper is busy");
      release.countDown();
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (split.splits() == 1 && System.nanoTime() < deadline) {
        assertEquals(expected, ranked(split.searcher(searcher, phrase, 1).search(query(phrase), MeetingSearch.collector(50))));
      }
      assertEquals(2, split.splits(), "split again once the helper is free");
    }
    try (SplitSearch cheaper = new SplitSearch(2, cost + 1); SplitSearch oneCore = new SplitSearch(1, 0)) {
      assertEquals(expected, ranked(cheaper.searcher(searcher, phrase, 1).search(query(phrase), MeetingSearch.collector(50))));
      assertEquals(expected, ranked(oneCore.searcher(searcher, phrase, 1).search(query(phrase), MeetingSearch.collector(50))));
      assertEquals(0, cheaper.splits() + oneCore.splits(), "below the threshold, or with one core: never split");
    }
  }

  private static Query query(SearchQuery q) {
    return MeetingSearch.matching(q, Match.ALL, WORKSPACE_KEY, SearchFilters.NONE, List.of());
  }

  private static long positions(String q) throws Exception {
    return SplitSearch.positions(reader, SearchQuery.parse(q, analyzer));
  }

  private static List<String> ranked(TopFieldDocs top) {
    return Arrays.stream(top.scoreDocs).map(SplitSearchTest::describe).toList();
  }

  private static String describe(ScoreDoc d) {
    return d.doc + ":" + Arrays.toString(((FieldDoc) d).fields);
  }
}
