package minutes.search.text;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import minutes.Property;

/**
 * Generated meeting talk for the search properties: mostly the very common words that phrases
 * are matched through ({@link Neighbours}, {@link CommonPairs}), often repeated, with spellings
 * that fold alike (Müller, MUELLER, muller's; Straße, STRASSE; full-width letters; plurals),
 * rare words, punctuation, HTML and emoji. Stateless.
 */
public final class GeneratedTalk {
  private GeneratedTalk() {}

  /** Every coded and every pair word, as the index holds it. */
  public static final List<String> COMMON;

  static {
    Set<String> common = new LinkedHashSet<>(Neighbours.words());
    for (Object w : CommonPairs.WORDS) common.add(new String((char[]) w));
    COMMON = List.copyOf(common);
  }

  /** Spellings of common words as people write them: case, apostrophes, contractions. */
  public static final List<String> COMMON_SPELLINGS = List.of("The", "THE", "I", "I'm", "It's", "it’s", "don't", "Don’t",
      "We're", "that's", "This", "was", "Was", "Der", "DIE", "nicht", "ja", "OK", "Okay", "Yeah", "um", "uh");

  /** Groups of spellings that the index folds to one word (a plural or possessive to its stem). */
  public static final List<List<String>> FOLDED = List.of(
      List.of("Müller", "MUELLER", "muller", "Mueller", "Müller's", "Müller’s", "MÜLLERS", "müllers"),
      List.of("Straße", "STRASSE", "strasse", "Strasse"),
      List.of("café", "CAFÉ", "cafe", "Café's", "cafés"),
      List.of("budget", "BUDGET", "ＢＵＤＧＥＴ", "Budgets", "budget's"),
      List.of("company", "companies", "Company's", "COMPANIES"),
      List.of("meeting", "meetings", "Meeting", "MEETINGS"),
      List.of("naïve", "naive", "NAÏVE"),
      List.of("Zoë", "zoe", "ZOE"),
      List.of("Über", "uber", "UEBER", "über"),
      List.of("queue", "queues", "QUEUE"));

  /** Words that are in no list: each reads its own positions; runs of emoji, where a cut must not halve one. */
  public static final List<String> RARE = List.of("zeppelin", "quokka", "walrus", "forecast", "roadmap", "e-mail", "v2.1",
      "needs", "work", "together", "remote", "control", "launch", "beta", "tusk", "boxes", "status", "ﬁnance",
      "İstanbul", "Æsir", "x", "e", "\uD83D\uDE42".repeat(40), "x" + "\uD83D\uDE00".repeat(12));

  /** What stands between two words. */
  private static final List<String> BETWEEN = List.of(" ", " ", " ", " ", " ", " ", ". ", ", ", "\n", " - ", "? ",
      " & ", " <b> ", " \"", "' ", " 🙂 ", "  ", ": ", "… ");

  /** One word: common most of the time, the same as the last one now and then. */
  public static String word(Property.Case c, String last) {
    if (last != null && c.chance(0.12)) return last;
    double p = c.random().nextDouble();
    if (p < 0.55) return c.pick(COMMON);
    if (p < 0.65) return c.pick(COMMON_SPELLINGS);
    if (p < 0.85) return c.pick(c.pick(FOLDED));
    return c.pick(RARE);
  }

  /** {@code words} words with what stands between them; may be empty. */
  public static String text(Property.Case c, int words) {
    StringBuilder s = new StringBuilder();
    String last = null;
    for (int i = 0; i < words; i++) {
      if (i > 0) s.append(c.pick(BETWEEN));
      last = word(c, last);
      s.append(last);
    }
    return s.toString();
  }

  /** Up to {@code max} words drawn as {@link #word} draws them, for queries. */
  public static List<String> words(Property.Case c, int max) {
    List<String> out = new ArrayList<>();
    String last = null;
    for (int n = c.between(1, max); n > 0; n--) out.add(last = word(c, last));
    return out;
  }

  /** A query of words and phrases that texts hold (as written, or in capitals), drawn words, and words no text holds. */
  public static PlainScan.Query query(Property.Case c, List<String> texts) {
    List<String> loose = new ArrayList<>();
    List<List<String>> phrases = new ArrayList<>();
    String text = c.pick(texts); // mostly one text for all clauses, so that a query often matches
    for (int n = c.between(1, 3); n > 0; n--) {
      if (c.chance(0.3)) text = c.pick(texts);
      List<PlainScan.Word> words = PlainScan.words(text);
      double p = c.random().nextDouble();
      if (p < 0.1) {
        loose.add("zzabsentword");
      } else if (p < 0.3 || words.isEmpty()) {
        loose.addAll(GeneratedTalk.words(c, 2));
      } else {
        int length = Math.min(words.size(), c.between(1, 4)), at = c.nextInt(words.size() - length + 1);
        // As written in the text, punctuation and all, but without quotes of its own; or in capitals.
        String written = text.substring(words.get(at).start(), words.get(at + length - 1).end()).replace('"', ' ');
        if (c.chance(0.2)) written = written.toUpperCase(Locale.ROOT);
        if (length > 1 && c.chance(0.7)) phrases.add(List.of(written.split(" +")));
        else loose.addAll(List.of(written.split(" +")));
      }
    }
    return new PlainScan.Query(loose, phrases);
  }
}
