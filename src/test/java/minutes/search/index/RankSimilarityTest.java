package minutes.search.index;

import minutes.StoreIndependent;
import minutes.search.text.SearchAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ranks follow the formula SEARCH.md promises, computed from the field length that Lucene's
 * norm encoding stores: this pins the one Lucene internal the ranks rely on (SmallFloat
 * decoding what Similarity.computeNorm encodes).
 */
@StoreIndependent
class RankSimilarityTest {
  /** The rank of "zebra" occurring {@code freq} times in a transcript of {@code length} words. */
  static float rank(int freq, int length) throws Exception {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < length; i++) text.append(i < freq ? "zebra " : "horse ");
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new SearchAnalyzer()).setSimilarity(Generation.SIMILARITY))) {
        Document d = new Document();
        d.add(new Field(MeetingDocument.TRANSCRIPT, text.toString(), MeetingDocument.TEXT_TYPE));
        w.addDocument(d);
      }
      try (DirectoryReader r = DirectoryReader.open(dir)) {
        IndexSearcher s = new IndexSearcher(r);
        s.setSimilarity(Generation.SIMILARITY);
        return s.search(new TermQuery(new Term(MeetingDocument.TRANSCRIPT, "zebra")), 1).scoreDocs[0].score;
      }
    }
  }

  static double expected(int freq, int length) {
    return freq / (freq + RankSimilarity.K1 * (0.25 + 0.75 * length / 10_000.0));
  }

  @Test
  void aWordFourTimesInATranscriptOfTypicalLengthRanksOneHalf() throws Exception {
    assertEquals(0.5, rank(4, 10_000), 0.02); // 0.515: the norm stores 10,000 a little short
  }

  @Test
  void ranksFollowTheFormulaOverLengthsThatTheNormStoresApproximately() throws Exception {
    float previous = Float.MAX_VALUE;
    for (int length : new int[] {20, 300, 2_000, 10_000, 40_000}) {
      float r = rank(3, length);
      // The norm keeps a length to within about 1/8 of it; the rank moves far less than that.
      assertEquals(expected(3, length), r, 0.02, "length " + length);
      assertTrue(r < previous, "longer text, lower rank: " + length);
      previous = r;
    }
  }
}
