package minutes.search.text;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * The one analyzer of the index, used for documents and queries alike (docs/SEARCH.md):
 * Unicode word splitting, then {@link FoldingFilter}: possessive 's dropped, lower case,
 * German umlaut/ß normalisation (Müller = Mueller = muller), any other accent folded to
 * ASCII, English plural "s" removed; then {@link CommonPairs} adds a term for each pair of very
 * common words and gives each word its {@link Neighbours} payload, for fast phrases. No stop
 * words and no real stemming, so phrases match as written. Thread-safe.
 */
public final class SearchAnalyzer extends Analyzer {
  /**
   * Part of the index format (IndexFormat): raise whenever this analysis (FoldingFilter, CommonPairs,
   * Neighbours' words) changes the terms, positions, offsets or payloads of any text.
   */
  public static final String VERSION = "1";

  @Override
  protected TokenStreamComponents createComponents(String fieldName) {
    StandardTokenizer source = new StandardTokenizer();
    return new TokenStreamComponents(source, new CommonPairs.Filter(new FoldingFilter(source)));
  }
}
