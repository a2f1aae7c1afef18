package minutes.relevance;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

/**
 * The forms in which the benchmark sends a query: as asked, its content words, or its first three
 * content words, the way a person turns a question into what they type into a search box.
 *
 * <p>Content words: the query's words (letters and digits, an inner apostrophe kept, so
 * "remote's" stays one word; a hyphen or other punctuation splits), in order, without Lucene's 33
 * English stop words ({@link EnglishAnalyzer#ENGLISH_STOP_WORDS_SET}) and without {@link #FRAMING}:
 * the words that ask rather than name the subject ("What did the group discuss about the
 * remote's buttons?" gives "remote's buttons"). A repeated word is kept once.
 */
enum QueryForms {
  ASKED("as asked"),
  CONTENT("content words"),
  FIRST_THREE("first 3 content words");

  final String label;

  QueryForms(String label) {
    this.label = label;
  }

  /**
   * Question words, auxiliaries, pronouns and the verbs and nouns with which QMSum's questions
   * ask for a part of a meeting ("Summarize the discussion about", "What did the group think
   * of", "What was said about"): nobody types them to find a meeting, and every meeting holds them.
   */
  static final Set<String> FRAMING = Set.of(
      "what", "what's", "which", "who", "whom", "whose", "when", "where", "why", "how",
      "do", "does", "did", "am", "were", "been", "has", "have", "had", "can", "could", "would", "should",
      "i", "we", "you", "he", "she", "his", "her", "our", "your", "them", "its",
      "summarize", "summarise", "summary", "discuss", "discussed", "discussing", "discussion", "discussions",
      "talk", "talked", "talking", "say", "said", "think", "thought", "thoughts", "opinion", "opinions",
      "about", "regarding", "according", "group", "team", "meeting");

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:['’][\\p{L}\\p{N}]+)*");

  /** This form of {@code query}; blank when it has no content word. */
  String of(String query) {
    return switch (this) {
      case ASKED -> query.strip();
      case CONTENT -> String.join(" ", contentWords(query));
      case FIRST_THREE -> String.join(" ", contentWords(query).stream().limit(3).toList());
    };
  }

  /** The query's words, in order, repeats included. */
  static List<String> words(String query) {
    List<String> words = new ArrayList<>();
    Matcher m = WORD.matcher(query);
    while (m.find()) words.add(m.group());
    return words;
  }

  static List<String> contentWords(String query) {
    List<String> words = new ArrayList<>();
    for (String word : words(query)) {
      String lower = word.toLowerCase(Locale.ROOT).replace('’', '\'');
      if (!EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.contains(lower) && !FRAMING.contains(lower)
          && words.stream().noneMatch(w -> w.equalsIgnoreCase(word))) {
        words.add(word);
      }
    }
    return words;
  }
}
