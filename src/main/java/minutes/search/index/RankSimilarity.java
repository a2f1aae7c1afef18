package minutes.search.index;

import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.util.SmallFloat;

/**
 * Scores a word by how often it occurs in the field, saturated and length-normalised like
 * BM25, but with fixed constants instead of index statistics: idf and average length would
 * let one workspace's ranks reveal how common a word is in other workspaces, and would make
 * ranks drift with every import. Each clause scores in (0, 1). Thread-safe.
 *
 * <p>Risk: Similarity, CollectionStatistics and TermStatistics are @lucene.experimental (the
 * scoring API every custom similarity uses); RankSimilarityTest pins the ranks.
 */
public final class RankSimilarity extends Similarity {
  /** Saturation: a word occurring K1 times in a field of average length scores 0.5. */
  static final float K1 = 4f;
  private static final float B = 0.75f;

  /** Typical lengths in words; they only set where length normalisation is neutral. */
  private static float typicalLength(String field) {
    return switch (field) {
      case MeetingDocument.TRANSCRIPT -> 10_000f;
      case MeetingDocument.PROTOCOL -> 400f;
      default -> 10f;
    };
  }

  private static final float[] LENGTH_TABLE = new float[256];

  // Risk: SmallFloat is @lucene.internal. It is the inverse of the length encoding that the
  // inherited Similarity.computeNorm writes; RankSimilarityTest pins ranks computed from it.
  static {
    for (int i = 0; i < 256; i++) LENGTH_TABLE[i] = SmallFloat.byte4ToInt((byte) i);
  }

  @Override
  public SimScorer scorer(float boost, CollectionStatistics collection, TermStatistics... terms) {
    float typical = typicalLength(collection.field());
    return new SimScorer() {
      @Override
      public float score(float freq, long norm) {
        float length = LENGTH_TABLE[((byte) norm) & 0xFF];
        return boost * freq / (freq + K1 * (1 - B + B * length / typical));
      }
    };
  }
}
