import java.io.IOException;
import java.io.StringReader;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import minutes.search.text.SearchAnalyzer;
import morfologik.stemming.DictionaryIterator;
import morfologik.stemming.WordData;
import morfologik.stemming.polish.PolishStemmer;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Issue 46: how minutes reads Polish words, measured against PoliMorf, the Polish dictionary of
 * forms and lemmas that Morfologik ships (used here as the answer key only; minutes does not ship
 * it). For a sample of the dictionary's lemmas (one in 128, by hash; letters only, at least 3),
 * a query of the lemma as typed: which of the lemma's other forms it finds (the same term), and
 * whether it also finds some form of another lemma anywhere in the dictionary (a word that is
 * not an inflection of it). Once with the default reading (what Polish had before: the word as
 * written, folded), once with the Polish reading (Lucene's Stempel). Run by
 * bench/polish-stemming.sh.
 */
public class PolishStemming {
  public static void main(String[] args) throws IOException {
    var dictionary = new PolishStemmer().getDictionary();
    Map<String, Set<String>> lemmasOfForm = new HashMap<>();
    Map<String, Set<String>> formsOfSampled = new HashMap<>();
    for (Iterator<WordData> it = new DictionaryIterator(dictionary, dictionary.metadata.getDecoder(), true); it.hasNext(); ) {
      WordData w = it.next();
      String lemma = w.getStem().toString().toLowerCase(), form = w.getWord().toString().toLowerCase();
      lemmasOfForm.computeIfAbsent(form, k -> new HashSet<>()).add(lemma);
      if (lemma.length() >= 3 && lemma.chars().allMatch(Character::isLetter) && (lemma.hashCode() & 127) == 0) {
        formsOfSampled.computeIfAbsent(lemma, k -> new HashSet<>()).add(form);
      }
    }
    System.out.printf("PoliMorf: %,d forms; sampled %,d lemmas with %,d other forms%n", lemmasOfForm.size(),
        formsOfSampled.size(), formsOfSampled.entrySet().stream().mapToLong(e -> e.getValue().size()
            - (e.getValue().contains(e.getKey()) ? 1 : 0)).sum());
    System.out.println("| reading | other forms of a lemma its query finds | lemmas whose query also finds another word's form |");
    System.out.println("|---|---|---|");
    for (String language : new String[] {"und", "pl"}) measure(language, lemmasOfForm, formsOfSampled);
  }

  static void measure(String language, Map<String, Set<String>> lemmasOfForm, Map<String, Set<String>> formsOfSampled)
      throws IOException {
    Analyzer reading = SearchAnalyzer.of(language);
    Map<String, Set<String>> lemmasOfTerm = new HashMap<>();
    for (var e : lemmasOfForm.entrySet()) {
      lemmasOfTerm.computeIfAbsent(term(reading, e.getKey()), k -> new HashSet<>()).addAll(e.getValue());
    }
    long forms = 0, found = 0, lemmas = 0, foreign = 0;
    for (var e : formsOfSampled.entrySet()) {
      String query = term(reading, e.getKey());
      for (String form : e.getValue()) {
        if (form.equals(e.getKey())) continue;
        forms++;
        if (term(reading, form).equals(query)) found++;
      }
      lemmas++;
      Set<String> reached = new HashSet<>(lemmasOfTerm.getOrDefault(query, Set.of()));
      reached.remove(e.getKey());
      if (!reached.isEmpty()) foreign++;
    }
    System.out.printf("| %s | %.1f %% (%,d of %,d) | %.1f %% (%,d of %,d) |%n",
        language.equals("pl") ? "Polish (Stempel)" : "default (before)", 100.0 * found / forms, found, forms,
        100.0 * foreign / lemmas, foreign, lemmas);
  }

  /** The word's one term under the reading (a lone word makes no pair term). */
  static String term(Analyzer reading, String word) throws IOException {
    try (TokenStream s = reading.tokenStream("transcript", new StringReader(word))) {
      CharTermAttribute term = s.addAttribute(CharTermAttribute.class);
      s.reset();
      StringBuilder out = new StringBuilder();
      while (s.incrementToken()) out.append(out.isEmpty() ? "" : " ").append(term);
      s.end();
      return out.toString();
    }
  }
}
