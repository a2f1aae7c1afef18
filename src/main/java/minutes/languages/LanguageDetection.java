package minutes.languages;

import com.optimaize.langdetect.DetectedLanguage;
import com.optimaize.langdetect.LanguageDetector;
import com.optimaize.langdetect.LanguageDetectorBuilder;
import com.optimaize.langdetect.i18n.LdLocale;
import com.optimaize.langdetect.ngram.NgramExtractors;
import com.optimaize.langdetect.profiles.LanguageProfileReader;
import com.optimaize.langdetect.text.CommonTextObjectFactories;
import com.optimaize.langdetect.text.TextObjectFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The language of a meeting that names none, from its text (CJK and Thai by script, the rest
 * by English function words when they are frequent, the rest by Optimaize language-detector's
 * n-gram profiles of {@link #PROFILES}): a primary subtag, or {@link Languages#UNDETERMINED}
 * when the text is too short or no language is clearly ahead, so that a doubtful meeting keeps
 * today's (English) reading instead of a wrong language's. Thread-safe; the profiles load once,
 * when a text first needs them (an English import may never).
 */
public final class LanguageDetection {
  /**
   * Only this much of a meeting is read: a short meeting's 300-600 characters are told right in
   * every tested language, and each further character costs import time (docs/SEARCH.md
   * "Languages").
   */
  public static final int SAMPLE_CHARS = 600;
  /**
   * Fewer letters than this tell nothing reliable: a title and a word or two ("Q3 sync", "ok")
   * read as Tagalog with a probability above 0.9 (with every profile loaded).
   */
  static final int MIN_LETTERS = 40;
  /** Chinese, Japanese, Korean or Thai characters that tell the language by their script. */
  static final int MIN_ASIAN_CHARS = 4;
  /**
   * English words that are frequent in any English text and rare or absent in the other
   * languages of {@link #PROFILES} (no "of", "in", "is", "we", "to", "for", "was", "will": Dutch,
   * German or the Nordic languages write them too). Their share decides English before the
   * n-gram detector runs: it is 0.10 to 0.40 in English meetings and 0 in the fixture's other
   * languages, and the detector costs 0.2-0.7 ms a meeting (most of an import's added time,
   * docs/SEARCH.md "Languages") and took a few English meetings for Danish or French.
   */
  static final Set<String> ENGLISH_WORDS = Set.of("the", "and", "that", "you", "with", "this", "are", "have", "our",
      "not", "they", "what", "be", "can", "would", "there", "from", "been", "it", "but", "your", "were", "has", "had",
      "about", "just", "their", "which");
  /** The share of {@link #ENGLISH_WORDS} among at least {@link #MIN_WORDS} words that decides English. */
  static final double ENGLISH_SHARE = 0.10;
  static final int MIN_WORDS = 12;
  /** The detector's probability the best language must reach; below it the meeting is {@code und}. */
  static final double MIN_PROBABILITY = 0.90;

  /**
   * The profiles loaded: the languages of Europe's and the Americas' teams and the largest
   * others written in an alphabet (CJK and Thai are told by script, above). Fewer profiles
   * load faster and detect faster (both grow with their number: all 71 took 1 s to load, these
   * 0.6 s), and rare ones stop catching short English text (Tagalog did).
   */
  static final List<String> PROFILES = List.of("en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "fi",
      "pl", "ru", "uk", "cs", "sk", "hu", "ro", "tr", "el", "bg", "hr", "sl", "sr", "et", "lv", "lt", "ca", "id",
      "vi", "ar", "he", "fa", "hi");

  private LanguageDetection() {}

  private static final class Loaded {
    static final LanguageDetector DETECTOR;
    static final TextObjectFactory TEXT = CommonTextObjectFactories.forDetectingOnLargeText();

    static {
      try {
        DETECTOR = LanguageDetectorBuilder.create(NgramExtractors.standard())
            .withProfiles(new LanguageProfileReader().readBuiltIn(PROFILES.stream().map(LdLocale::fromString).toList()))
            .build();
      } catch (IOException e) {
        throw new UncheckedIOException("the language profiles shipped in the detector's jar cannot be read", e);
      }
    }
  }

  /**
   * The language of {@code text}, of which only the first {@link #SAMPLE_CHARS} characters are
   * read. Chinese, Japanese, Korean and Thai are told by their scripts: a few of their characters
   * suffice, and the n-gram profiles lose them among Latin words (product names, English terms)
   * that such meetings often mix in. English is told by its function words; everything else is
   * the detector's.
   */
  public static String detect(CharSequence text) {
    CharSequence sample = text.length() > SAMPLE_CHARS ? text.subSequence(0, SAMPLE_CHARS) : text;
    int letters = 0, han = 0, kana = 0, hangul = 0, thai = 0;
    for (int i = 0; i < sample.length(); ) {
      int c = Character.codePointAt(sample, i);
      i += Character.charCount(c);
      switch (Character.UnicodeScript.of(c)) { // Thai vowel and tone marks are no letters, but count
        case HAN -> han++;
        case HIRAGANA, KATAKANA -> kana++;
        case HANGUL -> hangul++;
        case THAI -> thai++;
        default -> letters += Character.isLetter(c) ? 1 : 0;
      }
    }
    int asian = han + kana + hangul + thai;
    // One of these characters says about as much as a Latin word: weighed so, they decide when
    // they are the larger part of the words.
    if (asian >= MIN_ASIAN_CHARS && asian * 4 >= letters) {
      if (hangul * 2 >= asian) return "ko";
      if (thai * 2 >= asian) return "th";
      if (kana * 10 >= han + kana) return "ja"; // Japanese writes kana between its kanji
      return "zh";
    }
    if (letters < MIN_LETTERS) return Languages.UNDETERMINED;
    if (readsAsEnglish(sample)) return "en";
    List<DetectedLanguage> found;
    synchronized (Loaded.DETECTOR) { // not documented as thread-safe; an import detects on one thread
      found = Loaded.DETECTOR.getProbabilities(Loaded.TEXT.forText(sample));
    }
    if (found.isEmpty() || found.get(0).getProbability() < MIN_PROBABILITY) return Languages.UNDETERMINED;
    String language = found.get(0).getLocale().getLanguage();
    return Languages.isSubtag(language) ? language : Languages.UNDETERMINED;
  }

  /**
   * A meeting's title alone: as {@link #detect}, except that a title written in Latin letters
   * alone is English or {@code und}, never another language. A title is a few words, most often
   * names and terms, on which the profiles name another language with a probability above 0.997
   * ("Planning: Language training data for cell phones" as Indonesian, "Ironbridge Insurance
   * Ltd: Functional requirements" as French), and read by that language's rules an English title
   * would no longer answer as it did before languages; {@code und} reads as English does. Other
   * scripts (Cyrillic, Greek, CJK, Thai ...) cannot be English and keep what {@link #detect} says.
   */
  public static String detectTitle(CharSequence title) {
    String language = detect(title);
    return language.equals("en") || !latinLettersOnly(title) ? language : Languages.UNDETERMINED;
  }

  private static boolean latinLettersOnly(CharSequence text) {
    return text.codePoints().filter(Character::isLetter)
        .allMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.LATIN);
  }

  static boolean readsAsEnglish(CharSequence sample) {
    int words = 0, english = 0;
    for (int i = 0, n = sample.length(); i < n; ) {
      if (!Character.isLetter(sample.charAt(i))) {
        i++;
        continue;
      }
      int start = i;
      while (i < n && Character.isLetter(sample.charAt(i))) i++;
      words++;
      String word = i - start <= 5 ? sample.subSequence(start, i).toString().toLowerCase(Locale.ROOT) : "";
      if (ENGLISH_WORDS.contains(word)) english++;
    }
    return words >= MIN_WORDS && english >= words * ENGLISH_SHARE;
  }
}
