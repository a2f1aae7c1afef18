package minutes.search.query;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import minutes.search.index.MeetingDocument;
import minutes.search.index.SegmentTable;
import minutes.search.index.StoredText;
import minutes.search.text.QueryMatches;
import minutes.search.text.SearchQuery;
import minutes.search.text.SearchQuery.Match;
import minutes.search.text.SegmentMatches;
import minutes.search.text.SnippetText;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.StoredFields;

/**
 * The snippet and moments of each hit of a page. Title hits show the title, marked; content hits
 * the best window of their field, found from postings offsets, so that only the characters shown
 * are ever read. With moments asked for, each hit's matching transcript segments are found from
 * the same postings and the stored segment table, and each is cut from the stored transcript
 * (or taken from the table where the index collapsed its whitespace) and marked as the transcript
 * search marks it, without the database: a meeting changed since the searcher's data is never a
 * hit, so the index's copy is the database's. Reads the hits of a page in document order, leaf by
 * leaf ({@link #moveTo}). Lives for one request; not thread-safe.
 */
final class Highlights {
  private static final String[] CONTENT_FIELDS = {MeetingDocument.PROTOCOL, MeetingDocument.TRANSCRIPT};

  private final Analyzer analyzer;
  private final SearchQuery query;
  private final Set<String> words;
  private LeafReader leaf;
  private StoredFields stored;
  /** Per content field: the matches of this leaf's documents, and the document they were found for last. */
  private final QueryMatches[] matches = new QueryMatches[CONTENT_FIELDS.length];
  private final int[] matchedDoc = new int[CONTENT_FIELDS.length];

  private final Match match;
  private final boolean momentsByRank;
  /** Which segments are moments and which come first; made for the first hit that asks. */
  private SegmentMatches.Rule moments;

  /** {@code match} and {@code momentsByRank}: which segments are moments, and which come first. */
  Highlights(Analyzer analyzer, SearchQuery query, Match match, boolean momentsByRank) {
    this.analyzer = analyzer;
    this.query = query;
    this.words = query.words();
    this.match = match;
    this.momentsByRank = momentsByRank;
  }

  /** A hit's moments as shown, and how many of its segments match. */
  record Moments(List<SearchHit.Moment> shown, int total) {
    static final Moments NONE = new Moments(List.of(), 0);
  }

  /** The hits that follow are in {@code leaf}; call for each leaf in order. */
  void moveTo(LeafReader leaf) throws IOException {
    this.leaf = leaf;
    stored = leaf.storedFields();
    Arrays.fill(matches, null);
  }

  /**
   * The snippet of doc (leaf-local; documents in increasing order): its title marked when it
   * matched in the title, else the best window of {@code field}.
   */
  String snippet(int doc, String field, String title) throws IOException {
    if (field.equals(MeetingDocument.TITLE)) return SnippetText.title(analyzer, title, words);
    int f = field.equals(CONTENT_FIELDS[0]) ? 0 : 1;
    matched(f, doc);
    return content(stored, doc, field, matches[f].best(SnippetText.PASSAGE_WIDTH));
  }

  /** The first {@code wanted} matching transcript segments of doc (leaf-local), before its {@link #snippet}. */
  Moments moments(int doc, int wanted) throws IOException {
    if (!matched(1, doc)) return Moments.NONE;
    SegmentTable table = MeetingDocument.segments(stored, doc);
    if (moments == null) moments = SegmentMatches.Rule.of(query, match, momentsByRank);
    SegmentMatches.Found found = SegmentMatches.find(matches[1], table, wanted, moments);
    return new Moments(moments(stored, doc, table, found), found.total());
  }

  /** Finds doc's matches in content field f once (its postings move forward only); false when it has none. */
  private boolean matched(int f, int doc) throws IOException {
    if (matches[f] == null) {
      matches[f] = new QueryMatches(leaf, CONTENT_FIELDS[f], query.clauses);
      matchedDoc[f] = -1;
    }
    if (matchedDoc[f] == doc) return matches[f].count() > 0;
    matchedDoc[f] = doc;
    return matches[f].match(doc);
  }

  /** The snippet of a content hit: the window around {@code best} in its stored field, marked. */
  private static String content(StoredFields stored, int doc, String field, QueryMatches.Best best) throws IOException {
    StoredText.Slice text = MeetingDocument.text(stored, doc, field, length -> {
      int[] w = SnippetText.window(length, best.start(), best.end());
      return new int[] {w[0], Math.min(length, w[1] + 1)}; // +1: render looks at the next character
    })[0];
    int[] window = SnippetText.window(text.length(), best.start(), best.end());
    return SnippetText.render(text.text(), text.base(), text.length(), window[0], window[1], best.spans());
  }

  /**
   * The moments of one hit, each segment's text cut from the stored transcript of {@code doc}
   * (leaf-local), all in one read, or its own text from the table with the matches moved onto
   * it, and marked as the transcript search marks it. {@code found}: read from {@code table}
   * (the stored segment table of doc), which gives each segment's details in order.
   */
  private static List<SearchHit.Moment> moments(StoredFields stored, int doc, SegmentTable table,
      SegmentMatches.Found found) throws IOException {
    List<SegmentMatches.Segment> shown = found.shown();
    if (shown.isEmpty()) return List.of();
    SegmentTable.Detail[] details = new SegmentTable.Detail[shown.size()];
    int[] ranges = new int[2 * shown.size()];
    // The table reads forward only: details in the transcript's order, whatever the moments' order.
    Integer[] byIndex = new Integer[shown.size()];
    for (int i = 0; i < byIndex.length; i++) byIndex[i] = i;
    Arrays.sort(byIndex, Comparator.comparingInt(i -> shown.get(i).index()));
    for (int i : byIndex) details[i] = table.details(shown.get(i).index());
    for (int i = 0; i < shown.size(); i++) { // a segment with its own text reads nothing: [0, 0)
      if (details[i].text() != null) continue;
      ranges[2 * i] = shown.get(i).start();
      ranges[2 * i + 1] = shown.get(i).end();
    }
    StoredText.Slice[] slices = MeetingDocument.text(stored, doc, MeetingDocument.TRANSCRIPT, length -> ranges);
    List<SearchHit.Moment> out = new ArrayList<>(shown.size());
    for (int i = 0; i < shown.size(); i++) {
      SegmentMatches.Segment s = shown.get(i);
      SegmentTable.Detail d = details[i];
      String snippet = d.text() == null ? SnippetText.segment(slices[i].text(), s.spans())
          : SnippetText.segment(d.text(), SegmentMatches.inOwnText(d.text(), s.spans()));
      out.add(new SearchHit.Moment(s.index(), d.speaker(), d.startMs(), d.endMs(), snippet));
    }
    return out;
  }
}
