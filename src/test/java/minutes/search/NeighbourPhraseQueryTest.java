package minutes.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import minutes.generate.QmsumCorpus;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A phrase matched through {@link Neighbours} payloads must find exactly the documents, and
 * give exactly the scores, that a plain phrase of all its words gives: checked on real
 * meeting talk (QMSum) for phrases taken from the texts and for pairs of common words that
 * may or may not stand together.
 */
class NeighbourPhraseQueryTest {
  static final String FIELD = IndexedMeeting.TRANSCRIPT;
  static ByteBuffersDirectory dir;
  static DirectoryReader reader;
  static IndexSearcher searcher;
  static List<List<String>> texts = new ArrayList<>();

  @BeforeAll
  static void index() throws Exception {
    FieldType type = new FieldType();
    type.setTokenized(true);
    type.setIndexOptions(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS);
    type.freeze();
    SearchAnalyzer analyzer = new SearchAnalyzer();
    dir = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig(analyzer).setSimilarity(new RankSimilarity());
    // Small segments: several leaves, as a real index has.
    config.setMaxBufferedDocs(7);
    try (IndexWriter w = new IndexWriter(dir, config)) {
      for (QmsumCorpus.Meeting m : QmsumCorpus.load(QmsumCorpus.DEFAULT_PATH).meetings().subList(0, 40)) {
        String text = m.turns().stream().map(QmsumCorpus.Turn::text).collect(Collectors.joining(" "));
        Document d = new Document();
        d.add(new Field(FIELD, text, type));
        w.addDocument(d);
        texts.add(SearchQuery.analyze(analyzer, text));
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

  static Query allWords(List<String> words) {
    PhraseQuery.Builder b = new PhraseQuery.Builder();
    for (int i = 0; i < words.size(); i++) b.add(new Term(FIELD, words.get(i)), i);
    return b.build();
  }

  /** Every matching document with its score. */
  static Map<Integer, Float> all(Query q) throws Exception {
    Map<Integer, Float> out = new HashMap<>();
    for (ScoreDoc d : searcher.search(q, new TopScoreDocCollectorManager(reader.maxDoc(), Integer.MAX_VALUE)).scoreDocs) {
      out.put(d.doc, d.score);
    }
    return out;
  }

  /** The best 5 scores, collected as search collects: non-competitive documents skipped. */
  static List<Float> top(Query q) throws Exception {
    return Arrays.stream(searcher.search(q, new TopScoreDocCollectorManager(5, 5)).scoreDocs).map(d -> d.score).toList();
  }

  @Test
  void matchesAndScoresExactlyAsThePhraseOfAllItsWords() throws Exception {
    Random random = new Random(20261122);
    Set<List<String>> phrases = new LinkedHashSet<>();
    for (String p : List.of("the needs", "to work well", "remote control", "you made a", "fact you", "meeting i",
        "i can't remember", "the remote control", "a lot of", "and the the", "that the", "to work together",
        "had the", "them as", "work work", "but now you")) {
      phrases.add(SearchQuery.analyze(new SearchAnalyzer(), p));
    }
    while (phrases.size() < 400) {
      List<String> text = texts.get(random.nextInt(texts.size()));
      int n = 2 + random.nextInt(3), at = random.nextInt(text.size() - n);
      phrases.add(List.copyOf(text.subList(at, at + n)));
    }
    // Two words from different places: often no phrase at all, sometimes one.
    while (phrases.size() < 600) {
      List<String> a = texts.get(random.nextInt(texts.size())), b = texts.get(random.nextInt(texts.size()));
      phrases.add(List.of(a.get(random.nextInt(a.size())), b.get(random.nextInt(b.size()))));
    }
    int linked = 0, found = 0;
    for (List<String> words : phrases) {
      Query q = SearchQuery.phrase(FIELD, words);
      if (q instanceof NeighbourPhraseQuery) linked++;
      Map<Integer, Float> expected = all(allWords(words));
      if (!expected.isEmpty()) found++;
      assertEquals(expected, all(q), words + " as " + q);
      assertEquals(top(allWords(words)), top(q), words + " as " + q + ", best five");
    }
    assertTrue(linked > 150, "a third of the phrases go through neighbour codes: " + linked);
    assertTrue(found > 350, "most phrases match somewhere: " + found);
  }
}
