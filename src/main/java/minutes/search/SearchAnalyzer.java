package minutes.search;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.de.GermanNormalizationFilter;
import org.apache.lucene.analysis.en.EnglishMinimalStemFilter;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * The one analyzer of the index, used for documents and queries alike (docs/SEARCH.md):
 * Unicode word splitting, possessive 's dropped, lower case, German umlaut/ß normalisation (Müller = Mueller =
 * muller), any other accent folded to ASCII, English plural "s" removed. No stop words and no
 * real stemming, so phrases match as written. Thread-safe.
 */
final class SearchAnalyzer extends Analyzer {
  @Override
  protected TokenStreamComponents createComponents(String fieldName) {
    StandardTokenizer source = new StandardTokenizer();
    // "Müller's" must be found by "muller": drop the possessive before anything else.
    TokenStream t = new EnglishPossessiveFilter(source);
    t = new LowerCaseFilter(t);
    // Before ASCII folding: it needs to see ä/ö/ü to treat "ae"/"oe"/"ue" as their spellings.
    t = new GermanNormalizationFilter(t);
    t = new ASCIIFoldingFilter(t);
    // Only plural s/es/ies: "meetings" finds "meeting"; German words are practically untouched.
    t = new EnglishMinimalStemFilter(t);
    return new TokenStreamComponents(source, t);
  }

  @Override
  protected TokenStream normalize(String fieldName, TokenStream in) {
    return new ASCIIFoldingFilter(new GermanNormalizationFilter(new LowerCaseFilter(in)));
  }
}
