package minutes.search.text;

import java.util.ArrayList;
import java.util.List;

/**
 * How the words of one clause are read from the index: two adjacent common words through their
 * pair term ({@link CommonPairs}), a word beside a coded neighbour through its neighbour's
 * payload ({@link Neighbours}), every other word as itself. The phrase queries that rank a
 * clause and the matcher that finds its places ({@link QueryMatches}) both read it this way.
 * Stateless.
 */
public final class PhraseLayout {
  private PhraseLayout() {}

  /**
   * A term of a clause as the index holds it; its position relative to the clause's first
   * word; and the {@link Neighbours} codes of the words that must stand just before and just
   * after it (0: any word).
   */
  public record Placed(String term, int position, int before, int after) {
    /** Whether the term must have neighbours, standing for words the layout leaves out. */
    public boolean linked() {
      return before != 0 || after != 0;
    }
  }

  /**
   * The words of a clause as the index holds them: two adjacent common words as their pair
   * term (see {@link CommonPairs}), every other word as itself, each at its position.
   * Matching these is matching the words, since a pair term exists exactly where both words
   * stand next to each other; the last term always ends with the last word.
   */
  public static List<Placed> layout(List<String> words) {
    List<Placed> out = new ArrayList<>(words.size());
    boolean[] covered = new boolean[words.size()];
    for (int i = 0; i < words.size(); i++) {
      if (paired(words, i)) {
        out.add(new Placed(CommonPairs.pair(words.get(i), words.get(i + 1)), i, 0, 0));
        covered[i] = covered[i + 1] = true;
      } else if (!covered[i]) {
        out.add(new Placed(words.get(i), i, 0, 0));
      }
    }
    return out;
  }

  private static boolean paired(List<String> words, int i) {
    return i + 1 < words.size() && CommonPairs.common(words.get(i)) && CommonPairs.common(words.get(i + 1));
  }

  /**
   * The terms that match a clause fastest: as {@link #layout}, but a word with a
   * {@link Neighbours} code is left out where a neighbour kept as a term records it, and
   * that term requires its code instead. Words without a code are kept; coded words are
   * taken from the most frequent down, and one without a kept neighbour that records it
   * makes its rarer neighbour a term rather than itself. So "the needs" reads only "need",
   * "to work together" reads "work" (with "to" before it) and "together", never "to".
   */
  public static List<Placed> linkedLayout(List<String> words) {
    int n = words.size();
    boolean[] covered = new boolean[n];
    for (int i = 0; i + 1 < n; i++) {
      if (paired(words, i)) covered[i] = covered[i + 1] = true;
    }
    int[] code = new int[n], before = new int[n], after = new int[n];
    boolean[] kept = new boolean[n], left = new boolean[n];
    List<Integer> coded = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      code[i] = Neighbours.code(words.get(i));
      if (covered[i]) continue;
      if (code[i] == 0) kept[i] = true;
      else coded.add(i);
    }
    coded.sort((a, b) -> Integer.compare(code[a], code[b]));
    for (int i : coded) {
      if (kept[i]) continue;
      int by = -1; // the neighbour that will record word i
      for (int k : new int[] {i + 1, i - 1}) {
        if (k < 0 || k >= n || covered[k] || left[k] || !Neighbours.recorded(code[i], code[k])) continue;
        if (kept[k]) {
          by = k;
          break;
        }
        if (by == -1 || rarity(code[k]) > rarity(code[by])) by = k;
      }
      if (by == -1) {
        kept[i] = true;
        continue;
      }
      kept[by] = true;
      left[i] = true;
      if (by == i + 1) before[by] = code[i];
      else after[by] = code[i];
    }
    List<Placed> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      if (paired(words, i)) {
        out.add(new Placed(CommonPairs.pair(words.get(i), words.get(i + 1)), i, 0, 0));
      } else if (kept[i]) {
        out.add(new Placed(words.get(i), i, before[i], after[i]));
      }
    }
    return out;
  }

  /** Higher is rarer: codes follow frequency, and a word without a code is rarer than all. */
  private static int rarity(int code) {
    return code == 0 ? Integer.MAX_VALUE : code;
  }
}
