package minutes.search.text;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
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
import org.apache.lucene.analysis.pl.PolishAnalyzer;
import org.apache.lucene.analysis.pt.PortugueseLightStemFilter;
import org.apache.lucene.analysis.ru.RussianLightStemFilter;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.stempel.StempelFilter;
import org.apache.lucene.analysis.stempel.StempelStemmer;
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
 * stemmers do; Polish, which has none, by Lucene's Polish module (Stempel: it finds about three
 * in five inflected forms of a word and merges some other words; docs/BENCHMARKS.md, "Polish:
 * Stempel against the word as written"); Chinese, Japanese and Korean are read as overlapping
 * character pairs, Thai split into words by the JDK's dictionary (ThaiTokenizer).
 */
public enum Reading {
  DEFAULT(List.of(), snowball("english_stop.txt"), null),
  GERMAN(List.of("de"), snowball("german_stop.txt"), GermanLightStemFilter::new),
  FRENCH(List.of("fr"), snowball("french_stop.txt"), s -> new FrenchLightStemFilter(s)),
  SPANISH(List.of("es"), snowball("spanish_stop.txt"), SpanishLightStemFilter::new),
  ITALIAN(List.of("it"), snowball("italian_stop.txt"), ItalianLightStemFilter::new),
  PORTUGUESE(List.of("pt"), snowball("portuguese_stop.txt"), PortugueseLightStemFilter::new),
  DUTCH(List.of("nl"), snowball("dutch_stop.txt"), s -> new SnowballFilter(s, new DutchStemmer())),
  SWEDISH(List.of("sv"), snowball("swedish_stop.txt"), SwedishLightStemFilter::new),
  DANISH(List.of("da"), snowball("danish_stop.txt"), s -> new SnowballFilter(s, new DanishStemmer())),
  NORWEGIAN(List.of("no", "nb", "nn"), snowball("norwegian_stop.txt"), NorwegianLightStemFilter::new),
  FINNISH(List.of("fi"), snowball("finnish_stop.txt"), FinnishLightStemFilter::new),
  RUSSIAN(List.of("ru"), snowball("russian_stop.txt"), RussianLightStemFilter::new),
  POLISH(List.of("pl"), PolishAnalyzer::getDefaultStopSet,
      s -> new StempelFilter(s, new StempelStemmer(PolishAnalyzer.getDefaultTable()))),
  CJK(List.of("zh", "ja", "ko"), null, CJKBigramFilter::new),
  THAI(List.of("th"), null, null);

  /** French and Italian articles elided before a word (l'équipe, dell'anno): dropped before the word is read. */
  private static final CharArraySet ITALIAN_ARTICLES = new CharArraySet(List.of("c", "l", "all", "dall", "dell", "nell",
      "sull", "coll", "pell", "gl", "agl", "dagl", "degl", "negl", "sugl", "un", "m", "t", "s", "v", "d"), true);

  /** The languages (primary subtags) read so. */
  public final List<String> languages;
  /**
   * The language's function words as Lucene ships them ({@link WordWeights}): Snowball's list in
   * lucene-analysis-common, Carrot2's for Polish; null: none.
   */
  final Supplier<CharArraySet> stopList;
  private final UnaryOperator<TokenStream> words;

  Reading(List<String> languages, Supplier<CharArraySet> stopList, UnaryOperator<TokenStream> words) {
    this.languages = languages;
    this.stopList = stopList;
    this.words = words;
  }

  /**
   * A Snowball stop list of lucene-analysis-common: a word per line, "|" starts a comment. Read
   * here, not by Lucene's WordlistLoader, which is @lucene.internal.
   */
  private static Supplier<CharArraySet> snowball(String file) {
    return () -> {
      try (InputStream in = SnowballFilter.class.getResourceAsStream(file)) {
        if (in == null) throw new IllegalStateException("lucene-analysis-common lacks " + file);
        return new CharArraySet(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
            .map(line -> line.replaceAll("\\|.*", "").strip()).filter(w -> !w.isEmpty()).toList(), false);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
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
