package minutes.search.index;

import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;

/**
 * Lucene's default codec with {@link DirectStoredFields}, so that a snippet reading one 2 KB
 * chunk of a transcript reads only that chunk. Registered for SPI in META-INF/services (each
 * segment records its codec by name). Thread-safe.
 *
 * <p>The name never changes, neither with Lucene's codec nor with this one's formats: which
 * Lucene and which layout wrote an index is recorded in its {@link IndexFormat}, checked
 * before Lucene looks the name up, and any other one is rebuilt, never read.
 *
 * <p>Risk: FilterCodec and Lucene104Codec are @lucene.experimental; a Lucene release without
 * Lucene104Codec fails to compile here (the default codec cannot be asked for while codecs load).
 * A codec that wraps Lucene's under a name of its own would read an older Lucene's files with
 * the newer one's formats; the format check keeps that from happening (DamagedIndexTest,
 * SearchSyncTest: another Lucene version is rebuilt, never opened).
 */
public final class MinutesCodec extends FilterCodec {
  static final String NAME = "Minutes";

  private final StoredFieldsFormat storedFields = new DirectStoredFields();

  public MinutesCodec() {
    super(NAME, new Lucene104Codec());
  }

  @Override
  public StoredFieldsFormat storedFieldsFormat() {
    return storedFields;
  }
}
