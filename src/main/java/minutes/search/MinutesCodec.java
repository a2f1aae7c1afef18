package minutes.search;

import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;

/**
 * Lucene's default codec with {@link DirectStoredFields}, so that a snippet reading one 2 KB
 * chunk of a transcript reads only that chunk. Registered for SPI in META-INF/services (the
 * index records the codec by name). Thread-safe.
 *
 * <p>The name has stayed the same since the stored fields were Lucene's, uncompressed: which
 * layout an index has is told by its format ({@link Generation#CURRENT_FORMAT}, 14 and later
 * here), and an index of an older format is rebuilt, never read.
 */
public final class MinutesCodec extends FilterCodec {
  static final String NAME = "Minutes104";

  private final StoredFieldsFormat storedFields = new DirectStoredFields();

  public MinutesCodec() {
    super(NAME, new Lucene104Codec());
  }

  @Override
  public StoredFieldsFormat storedFieldsFormat() {
    return storedFields;
  }
}
