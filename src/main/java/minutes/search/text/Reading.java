package minutes.search.text;

import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthFilter;
import org.apache.lucene.analysis.de.GermanLightStemFilter;
import org.apache.lucene.analysis.es.SpanishLightStemFilter;
import org.apache.lucene.analysis.fi.FinnishLightStemFilter;
import org.apache.lucene.analysis.fr.FrenchAnalyzer;
import org.apache.lucene.analysis.fr.FrenchLightStemFilter;
import org.apache.lucene.analysis.it.ItalianLightStemFilter;
import org.apache.lucene.analysis.no.NorwegianLightStemFilter;
import org.apache.lucene.analysis.pt.PortugueseLightStemFilter;
import org.apache.lucene.analysis.ru.RussianLightStemFilter;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.sv.SwedishLightStemFilter;
import org.apache.lucene.analysis.th.ThaiTokenizer;
import org.apache.lucene.analysis.util.ElisionFilter;
import org.tartarus.snowball.ext.DanishStemmer;
import org.tartarus.snowball.ext.DutchStemmer;

/**
 * How the words of a meeting in a language are read (decisions.md "Languages", docs/SEARCH.md
 * "What matches what"): each language family's tokenizer and word rules between the folding
 * (case, accents, umlauts; the English possessive and plural only in {@link #DEFAULT}) and the
 * pair terms of common words, which every reading ends with so that phrases work alike.
 * {@link #DEFAULT} is the reading of English, of {@code und} and of every language without
 * rules of its own: exactly the analysis minutes had before languages. The Lucene filters are
 * the light stemmers of lucene-analysis-common (Snowball for Danish and Dutch, which have no
 * light one), since they take inflections off without merging unrelated words as aggressive
 * stemmers do; Chinese, Japanese and Korean are read as overlapping character pairs, Thai
 * split into words by the JDK's dictionary (ThaiTokenizer).
 */
public enum Reading {
  DEFAULT(List.of(), "english_stop.txt", null),
  GERMAN(List.of("de"), "german_stop.txt", GermanLightStemFilter::new),
  FRENCH(List.of("fr"), "french_stop.txt", s -> new FrenchLightStemFilter(s)),
  SPANISH(List.of("es"), "spanish_stop.txt", SpanishLightStemFilter::new),
  ITALIAN(List.of("it"), "italian_stop.txt", ItalianLightStemFilter::new),
  PORTUGUESE(List.of("pt"), "portuguese_stop.txt", PortugueseLightStemFilter::new),
  DUTCH(List.of("nl"), "dutch_stop.txt", s -> new SnowballFilter(s, new DutchStemmer())),
  SWEDISH(List.of("sv"), "swedish_stop.txt", SwedishLightStemFilter::new),
  DANISH(List.of("da"), "danish_stop.txt", s -> new SnowballFilter(s, new DanishStemmer())),
  NORWEGIAN(List.of("no", "nb", "nn"), "norwegian_stop.txt", NorwegianLightStemFilter::new),
  FINNISH(List.of("fi"), "finnish_stop.txt", FinnishLightStemFilter::new),
  RUSSIAN(List.of("ru"), "russian_stop.txt", RussianLightStemFilter::new),
  CJK(List.of("zh", "ja", "ko"), null, CJKBigramFilter::new),
  THAI(List.of("th"), null, null);

  /** French and Italian articles elided before a word (l'équipe, dell'anno): dropped before the word is read. */
  private static final CharArraySet ITALIAN_ARTICLES = new CharArraySet(List.of("c", "l", "all", "dall", "dell", "nell",
      "sull", "coll", "pell", "gl", "agl", "dagl", "degl", "negl", "sugl", "un", "m", "t", "s", "v", "d"), true);

  /** The languages (primary subtags) read so. */
  public final List<String> languages;
  /** The Snowball list of the language's function words in lucene-analysis-common ({@link WordWeights}); null: none. */
  final String stopList;
  private final UnaryOperator<TokenStream> words;

  Reading(List<String> languages, String stopList, UnaryOperator<TokenStream> words) {
    this.languages = languages;
    this.stopList = stopList;
    this.words = words;
  }

  /** The reading of a meeting in {@code language} (a primary subtag): its family's, else {@link #DEFAULT}. */
  public static Reading of(String language) {
    for (Reading r : values()) if (r.languages.contains(language)) return r;
    return DEFAULT;
  }

  Tokenizer tokenizer() {
    return this == THAI ? new ThaiTokenizer() : new StandardTokenizer();
  }

  /**
   * The word rules after the tokenizer, up to the pair terms. A stemmer reads the word lower-cased
   * as written (its suffix rules know the language's letters: Swedish -or, -ör); the folding
   * follows, so that accents still fold ({@code contratación} = {@code contratacion}).
   */
  TokenStream words(TokenStream tokens) {
    return switch (this) {
      case DEFAULT -> new FoldingFilter(tokens);
      case CJK -> words.apply(new FoldingFilter(new CJKWidthFilter(tokens), false)); // half-width kana, as typed
      case THAI -> new FoldingFilter(tokens, false);
      case FRENCH -> stemmed(new ElisionFilter(tokens, FrenchAnalyzer.DEFAULT_ARTICLES));
      case ITALIAN -> stemmed(new ElisionFilter(tokens, ITALIAN_ARTICLES));
      default -> stemmed(tokens);
    };
  }

  private TokenStream stemmed(TokenStream tokens) {
    return new FoldingFilter(words.apply(new LowerCaseFilter(tokens)), false);
  }
}
