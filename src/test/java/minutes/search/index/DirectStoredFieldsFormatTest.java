package minutes.search.index;

import org.apache.lucene.codecs.Codec;
import org.apache.lucene.tests.index.BaseStoredFieldsFormatTestCase;

/**
 * {@link DirectStoredFields}, in {@link MinutesCodec}, through the tests Lucene runs on each of
 * its own stored fields formats: every value type, random documents, merges, index sorting,
 * many fields, large values, concurrent reads, damaged files. JUnit 4 on Lucene's randomized
 * runner; a failure prints the seed to replay with {@code -Dtests.seed=...}. In a file of its
 * own, so that it goes with the format if the format goes.
 */
public class DirectStoredFieldsFormatTest extends BaseStoredFieldsFormatTestCase {
  @Override
  protected Codec getCodec() {
    return new MinutesCodec();
  }
}
