package minutes.search.text;

import java.util.EnumMap;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.Tokenizer;

/**
 * The analyzer of the index, used for documents and queries alike (docs/SEARCH.md), one per
 * {@link Reading}. The default one, English's: Unicode word splitting, then
 * {@link FoldingFilter}: possessive 's dropped, lower case, German umlaut/ß normalisation
 * (Müller = Mueller = muller), any other accent folded to ASCII, English plural "s" removed;
 * then {@link CommonPairs} adds a term for each pair of very common words and gives each word
 * its {@link Neighbours} payload, for fast phrases. No stop words and no real stemming, so
 * phrases match as written. Other languages' readings put their own word rules after the
 * folding. Thread-safe.
 */
public final class SearchAnalyzer extends Analyzer {
  /**
   * Part of the index format (IndexFormat): raise whenever this analysis (FoldingFilter, CommonPairs,
   * Neighbours' words, a {@link Reading}) changes the terms, positions, offsets or payloads of any text.
   * 2: per-language readings; 3: Polish stemmed (docs/SEARCH.md, "Index format").
   */
  public static final String VERSION = "3";

  private static final Map<Reading, SearchAnalyzer> BY_READING = new EnumMap<>(Reading.class);

  static {
    for (Reading r : Reading.values()) BY_READING.put(r, new SearchAnalyzer(r));
  }

  private final Reading reading;
  /** This reading's words without the pair terms (for matching a text the index does not hold). */
  private final Analyzer words;

  /** The default reading's (English, und, languages without rules of their own). */
  public SearchAnalyzer() {
    this(Reading.DEFAULT);
  }

  private SearchAnalyzer(Reading reading) {
    this.reading = reading;
    this.words = reading == Reading.DEFAULT ? FoldingFilter.WORDS : new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String fieldName) {
        Tokenizer source = reading.tokenizer();
        return new TokenStreamComponents(source, reading.words(source));
      }
    };
  }

  /** The analyzer of a meeting in {@code language} (a primary subtag); one instance per reading. */
  public static SearchAnalyzer of(String language) {
    return of(Reading.of(language));
  }

  public static SearchAnalyzer of(Reading reading) {
    return BY_READING.get(reading);
  }

  public Reading reading() {
    return reading;
  }

  /** This reading's words alone, without the pair terms of common words: {@link QueryMatches#inText}. */
  Analyzer words() {
    return words;
  }

  @Override
  protected TokenStreamComponents createComponents(String fieldName) {
    Tokenizer source = reading.tokenizer();
    return new TokenStreamComponents(source, new CommonPairs.Filter(reading.words(source)));
  }
}
