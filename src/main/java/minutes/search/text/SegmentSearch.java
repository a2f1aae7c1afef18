package minutes.search.text;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import minutes.search.text.SearchQuery.Match;

/**
 * Which segments of one transcript match a search text, by the rules of GET /search
 * (decisions.md, "Transcript windows and in-meeting search"): {@code q} is validated and
 * analysed as a search's is, and every word and phrase of it must occur within the one
 * segment, words read as the index reads the meeting's language ({@link #in}). A match comes
 * with a snippet rendered as search hits are: HTML-escaped, only {@code <mark>} raw. Immutable
 * and thread-safe.
 */
public final class SegmentSearch {
  private static final SearchAnalyzer QUERY = new SearchAnalyzer();

  private final SearchQuery query;
  private final SegmentMatches.Rule rule;
  private final SearchAnalyzer analyzer;
  /** Text that the fold of every matching segment contains (all of them, or one with match=most); see {@link #mayHold}. */
  private final List<String> keys;
  /** Whether a query word has no {@link #key}: with match=most any segment may hold it. */
  private final boolean unkeyedWord;

  private SegmentSearch(SearchQuery query, SegmentMatches.Rule rule, SearchAnalyzer analyzer) {
    this.query = query;
    this.rule = rule;
    this.analyzer = analyzer;
    List<String> all = query.words().stream().map(SegmentSearch::key).toList();
    this.keys = all.stream().filter(key -> !key.isEmpty()).toList();
    this.unkeyedWord = keys.size() < all.size();
  }

  /**
   * Validates and analyses q exactly as GET /search does (the transcript search answers a
   * refusal with 400); {@code match} and {@code byRank} as the moments of a search hit.
   */
  public static SegmentSearch parse(String q, Match match, boolean byRank) throws SearchQuery.Refused {
    SearchQuery query = SearchQuery.parse(q, QUERY);
    return new SegmentSearch(query, SegmentMatches.Rule.of(query, match, byRank), QUERY);
  }

  /** This search in a meeting of {@code language} (a primary subtag): its query read by that language's rules. */
  public SegmentSearch in(String language) {
    SearchAnalyzer reading = SearchAnalyzer.of(language);
    if (reading == analyzer) return this;
    SearchQuery read = query.readAs(reading);
    return new SegmentSearch(read, SegmentMatches.Rule.of(read, rule.match(), rule.byRank()), reading);
  }

  /** The trimmed text, echoed as {@code query}. */
  public String query() {
    return query.text;
  }

  /** A matching segment: its position in the list searched, and its marked snippet. */
  public record Found(int segment, String snippet) {}

  /**
   * The first {@code limit} matching segments in the rule's order (with match=all, every word and
   * phrase of the query occurs in each); none for a query left without words (only punctuation,
   * say), as search finds nothing for it. A segment longer than a snippet shows the window around its first
   * match. The segments are analysed as one text, one token stream: a stream per segment
   * cost a 100 KB transcript a third more.
   */
  public List<Found> find(List<String> segments, int limit) {
    // The pre-check knows the default reading's folds only: a stem or a character pair need not be
    // a piece of the folded text (French chevaux reads as cheval).
    return find(segments, limit, analyzer.reading() == Reading.DEFAULT);
  }

  /**
   * {@code precheck}: skip the segments {@link #mayHold} rules out (false only to test that it
   * never errs). The others are joined, a line break apart so that no word spans two, and
   * matched as the index's matches are found ({@link QueryMatches#inText}); a segment matches when
   * each clause has a match wholly inside it.
   */
  public List<Found> find(List<String> all, int limit, boolean precheck) {
    List<Found> out = new ArrayList<>();
    if (query.isEmpty()) return out;
    List<Integer> kept = new ArrayList<>();
    StringBuilder joined = new StringBuilder();
    int[] ranges = new int[2 * all.size()];
    int n = 0;
    char[] text = new char[0], folded = new char[0];
    for (int i = 0; i < all.size(); i++) {
      String segment = all.get(i);
      if (precheck) {
        if (text.length < segment.length()) {
          text = new char[segment.length()];
          folded = new char[4 * segment.length()];
        }
        segment.getChars(0, segment.length(), text, 0);
        if (!mayHold(new String(folded, 0, FoldingFilter.fold(text, segment.length(), folded)))) continue;
      }
      ranges[n++] = joined.length();
      ranges[n++] = joined.length() + segment.length();
      kept.add(i);
      joined.append(segment).append('\n');
    }
    String searched = joined.toString();
    QueryMatches matches = QueryMatches.inText(searched, query.clauses, analyzer.words());
    if (matches.count() == 0) return out;
    SegmentMatches.Found found;
    try {
      found = SegmentMatches.find(matches, SegmentRanges.of(Arrays.copyOf(ranges, n), searched), limit, rule);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // ranges in an array read no file
    }
    for (SegmentMatches.Segment shown : found.shown()) {
      int segment = kept.get(shown.index());
      out.add(new Found(segment, SnippetText.segment(all.get(segment), shown.spans())));
    }
    return out;
  }

  /**
   * Whether a segment, {@link FoldingFilter#fold folded} whole, may hold every query word (with
   * match=most, any):
   * analysis (Unicode word splitting, then folding each word) was nearly all of the time of a
   * search in a 100 KB transcript, and most segments hold none of the words. Never false for a
   * segment that matches, since the folded text holds each of its words as the index does,
   * but for the ends {@link #key} leaves out. It may be true for a segment that does not
   * match; analysis decides those.
   */
  private boolean mayHold(String folded) {
    if (rule.match() == Match.MOST) {
      if (unkeyedWord) return true;
      for (String key : keys) if (folded.contains(key)) return true;
      return false;
    }
    for (String key : keys) if (!folded.contains(key)) return false;
    return true;
  }

  /**
   * A query word less the ends a text holding it may fold otherwise. At the end a "y": the
   * index holds "companies" as "company", its plural rule applied to the word alone. At the
   * start any "e" or "u": a word longer than 255 characters is split into words, and the
   * text's fold looks back across the split, so a piece that starts with "e" may lose it after
   * an a, o or u, and one that starts with "ue" may keep its "e" after a vowel.
   */
  static String key(String word) {
    int from = 0, to = word.length();
    while (from < to && (word.charAt(from) == 'e' || word.charAt(from) == 'u')) from++;
    if (to > from && word.charAt(to - 1) == 'y') to--;
    return word.substring(from, to);
  }
}
