package minutes.search.text;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.analysis.CharArrayMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SlowImpactsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.ExactPhraseMatcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.similarities.Similarity.SimScorer;
import org.apache.lucene.util.BytesRef;

/**
 * Finds where a query matched in one field of one document, from the offsets stored in the
 * postings (or in a text analysed as the index analyses it, {@link #inText}), and picks the best
 * window for a snippet: the one holding the most different query words. Snippets, moments and
 * the transcript search find matches here, and a phrase's places are decided, as for ranking,
 * by Lucene's exact phrase matcher: one way to say "these words match here". One instance per
 * leaf, field and request; not thread-safe. Costs time in proportion to the number of matches,
 * never to the length of the text (a 100 KB transcript is never scanned); a phrase is found
 * through its pair terms where it has them ({@link PhraseLayout#layout}), so "I think" reads the
 * few places of "i think", not every "i". Matches live in reused int arrays, since a common word
 * has hundreds per document.
 */
public final class QueryMatches {
  /** A matched word or phrase: character offsets into the field's text. */
  public record Span(int start, int end, int clause) {}

  /** The chosen window's matches, to be shown and marked. */
  public record Best(int start, int end, List<Span> spans) {}

  /** Lucene's phrase matcher wants a scorer even where nothing is scored. */
  private static final SimScorer UNSCORED = new SimScorer() {
    @Override
    public float score(float freq, long norm) {
      return 1;
    }
  };
  private final int clauseCount;
  private final int[] firstTerm; // per clause: index of its first term; firstTerm[clauseCount] = all terms
  private final int[] relative; // per term: its position relative to its clause's first word
  private final String[] term; // per term: as the index holds it
  private final TermsEnum[] terms; // per term; null when the field lacks it (or the text is given: inText)
  private final PostingsEnum[] postings; // per term, pulled once and advanced as documents are visited in increasing order
  private final ExactPhraseMatcher[] phrases; // per clause of two terms or more, over its postings
  /** This document's matches, sorted by start, then longest first. */
  private Matches spans = new Matches(), merged = new Matches();

  /** Matches of the clauses in {@code field} of the leaf's documents, read from the postings. */
  public QueryMatches(LeafReader leaf, String field, List<List<String>> clauses) throws IOException {
    this(clauses, true);
    // Risk: Terms and TermsEnum are @lucene.experimental (the postings API); a change in what
    // they give shows as other snippets in SearchApiTest, SearchIndexTest and SnippetOracleTest.
    Terms fieldTerms = leaf.terms(field);
    for (int t = 0; t < term.length; t++) {
      if (fieldTerms == null) continue;
      TermsEnum te = fieldTerms.iterator();
      terms[t] = te.seekExact(new BytesRef(term[t])) ? te : null;
    }
  }

  /** {@code pairs}: find phrases of common words through their pair terms ({@link PhraseLayout#layout}), as the index holds them. */
  private QueryMatches(List<List<String>> clauses, boolean pairs) {
    clauseCount = clauses.size();
    firstTerm = new int[clauseCount + 1];
    List<PhraseLayout.Placed> all = new ArrayList<>();
    for (int c = 0; c < clauseCount; c++) {
      firstTerm[c] = all.size();
      List<String> words = clauses.get(c);
      if (pairs) {
        all.addAll(PhraseLayout.layout(words));
      } else {
        for (int w = 0; w < words.size(); w++) all.add(new PhraseLayout.Placed(words.get(w), w, 0, 0));
      }
    }
    firstTerm[clauseCount] = all.size();
    relative = new int[all.size()];
    term = new String[all.size()];
    terms = new TermsEnum[all.size()];
    postings = new PostingsEnum[all.size()];
    phrases = new ExactPhraseMatcher[clauseCount];
    for (int t = 0; t < all.size(); t++) {
      relative[t] = all.get(t).position();
      term[t] = all.get(t).term();
    }
  }

  /**
   * Matches of the clauses in one text, analysed here as the index analyses a field, instead of
   * read from postings: the same matching for a text the index does not hold, found at once:
   * read them with {@link #count} and the methods after it. The text's words alone are
   * analysed, without the index's pair terms: they only make phrases of common words fast to
   * find in postings, and analysing is most of the cost here.
   */
  public static QueryMatches inText(String text, List<List<String>> clauses, Analyzer words) {
    QueryMatches p = new QueryMatches(clauses, false);
    CharArrayMap<int[]> byTerm = new CharArrayMap<>(p.term.length, false);
    for (int t = 0; t < p.term.length; t++) {
      p.postings[t] = new InText();
      int[] same = byTerm.get(p.term[t]);
      byTerm.put(p.term[t], same == null ? new int[] {t} : append(same, t));
    }
    try (TokenStream ts = words.tokenStream("", text)) {
      CharTermAttribute token = ts.addAttribute(CharTermAttribute.class);
      OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
      ts.reset();
      int position = -1;
      while (ts.incrementToken()) {
        position++;
        int[] of = byTerm.get(token.buffer(), 0, token.length());
        if (of == null) continue;
        for (int t : of) ((InText) p.postings[t]).add(position, offset.startOffset(), offset.endOffset());
      }
      ts.end();
      p.match(0);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // analysing and matching a String read no file
    }
    return p;
  }

  /** A copy of {@code a} with {@code value} added at its end. */
  private static int[] append(int[] a, int value) {
    int[] out = Arrays.copyOf(a, a.length + 1);
    out[a.length] = value;
    return out;
  }

  /**
   * One word's positions and offsets in a text, as the postings of an index of that one text
   * (document 0), so that a text is matched exactly as the index's postings are.
   */
  private static final class InText extends PostingsEnum {
    private int count, doc = -1, read;
    private int[] position = new int[16], start = new int[16], end = new int[16];

    void add(int p, int s, int e) {
      if (count == position.length) {
        position = Arrays.copyOf(position, 2 * count);
        start = Arrays.copyOf(start, position.length);
        end = Arrays.copyOf(end, position.length);
      }
      position[count] = p;
      start[count] = s;
      end[count++] = e;
    }

    @Override
    public int docID() {
      return doc;
    }

    @Override
    public int nextDoc() {
      return advance(doc + 1);
    }

    @Override
    public int advance(int target) {
      read = 0;
      return doc = target == 0 && count > 0 ? 0 : NO_MORE_DOCS;
    }

    @Override
    public long cost() {
      return 1;
    }

    @Override
    public int freq() {
      return count;
    }

    @Override
    public int nextPosition() {
      return position[read++];
    }

    @Override
    public int startOffset() {
      return start[read - 1];
    }

    @Override
    public int endOffset() {
      return end[read - 1];
    }

    @Override
    public BytesRef getPayload() {
      return null;
    }
  }

  /** Matches as parallel arrays. */
  private static final class Matches {
    int size;
    int[] start = new int[64], end = new int[64], clause = new int[64];

    void add(int s, int e, int c) {
      if (size == start.length) {
        start = Arrays.copyOf(start, 2 * size);
        end = Arrays.copyOf(end, start.length);
        clause = Arrays.copyOf(clause, start.length);
      }
      start[size] = s;
      end[size] = e;
      clause[size++] = c;
    }

    /** Whether match i sorts before match j: earlier start, or as early and longer. */
    boolean before(int i, int j) {
      return start[i] != start[j] ? start[i] < start[j] : end[i] >= end[j];
    }
  }

  /**
   * Finds doc's matches (leaf-local id; call in increasing doc order, once per doc), to be read
   * with {@link #best} and {@link #count}; false when it has none.
   */
  public boolean match(int doc) throws IOException {
    spans.size = 0;
    for (int c = 0; c < clauseCount; c++) {
      int from = spans.size;
      if (find(doc, c)) mergeLast(from);
    }
    return spans.size > 0;
  }

  /** How many matches {@link #match} found; {@link #start}, {@link #end} and {@link #clause} read match i of them, by start. */
  public int count() {
    return spans.size;
  }

  public int start(int i) {
    return spans.start[i];
  }

  public int end(int i) {
    return spans.end[i];
  }

  public int clause(int i) {
    return spans.clause[i];
  }

  public int clauseCount() {
    return clauseCount;
  }

  /**
   * Appends clause c's matches in doc to {@link #spans} (in order of start); false when it has
   * none. A phrase's places are found by Lucene's exact phrase matcher, the one that decides
   * which meetings match it and their rank (NeighbourPhraseQuery, MeetingQueries).
   */
  private boolean find(int doc, int c) throws IOException {
    int first = firstTerm[c], last = firstTerm[c + 1] - 1, before = spans.size;
    for (int t = first; t <= last; t++) if (!onDoc(t, doc)) return false;
    if (first == last) {
      PostingsEnum word = postings[first];
      for (int k = word.freq(); k > 0; k--) {
        word.nextPosition();
        spans.add(word.startOffset(), word.endOffset(), c);
      }
    } else {
      ExactPhraseMatcher phrase = phrase(c);
      phrase.resetPositions();
      while (phrase.nextMatch()) spans.add(phrase.startOffset(), phrase.endOffset(), c);
    }
    return spans.size > before;
  }

  /** Whether term t occurs in doc, its postings then standing on doc. */
  private boolean onDoc(int t, int doc) throws IOException {
    PostingsEnum pe = postings[t];
    if (pe == null) {
      if (terms[t] == null) return false;
      pe = postings[t] = terms[t].postings(null, PostingsEnum.OFFSETS);
    }
    // Documents come in increasing order: postings already past doc have no doc.
    return (pe.docID() < doc ? pe.advance(doc) : pe.docID()) == doc;
  }

  /** Clause c's phrase matcher, over its terms' postings (all pulled by then). */
  private ExactPhraseMatcher phrase(int c) {
    if (phrases[c] != null) return phrases[c];
    int first = firstTerm[c], last = firstTerm[c + 1] - 1;
    PhraseQuery.PostingsAndFreq[] placed = new PhraseQuery.PostingsAndFreq[last - first + 1];
    for (int t = first; t <= last; t++) {
      placed[t - first] = new PhraseQuery.PostingsAndFreq(postings[t], new SlowImpactsEnum(postings[t]), relative[t]);
    }
    // Risk: ExactPhraseMatcher and PhraseQuery.PostingsAndFreq are @lucene.internal (as in
    // NeighbourPhraseQuery). Relied on: with the postings standing on a document,
    // resetPositions() then nextMatch() give each exact match, its offsets those of the first
    // and last term; SnippetOracleTest and SegmentSearchTest compare them with a plain scan.
    return phrases[c] = new ExactPhraseMatcher(placed, ScoreMode.COMPLETE_NO_SCORES, UNSCORED, 1f);
  }

  /** Merges the run spans[from, size) into the sorted run spans[0, from). */
  private void mergeLast(int from) {
    if (from == 0) return;
    Matches out = merged;
    out.size = 0;
    int i = 0, j = from;
    while (i < from || j < spans.size) {
      int take = j == spans.size || (i < from && spans.before(i, j)) ? i++ : j++;
      out.add(spans.start[take], spans.end[take], spans.clause[take]);
    }
    merged = spans;
    spans = out;
  }

  /**
   * The window of at most {@code width} characters, among the matches {@link #match} found,
   * starting where a match starts, that holds the most different clauses, then the most
   * matches; the earliest such window on a tie. A window holds every match that starts and ends
   * within it, also the shorter ones after a phrase that ends beyond it ("budget" after "budget
   * review" at its edge), so matches are taken in order of their end, not of their start.
   */
  public Best best(int width) {
    Matches m = spans;
    if (m.size == 0) return new Best(0, 0, List.of());
    long[] byEnd = byEnd(m);
    boolean[] held = new boolean[m.size];
    int[] count = new int[clauseCount];
    int distinct = 0, holding = 0, bestScore = -1, bestFrom = 0, ended = 0;
    for (int from = 0; from < m.size; from++) {
      int limit = m.start[from] + width;
      for (; ended < m.size; ended++) {
        int k = byEnd == null ? ended : (int) byEnd[ended];
        if (m.end[k] > limit) break;
        if (k < from) continue; // started before this window
        held[k] = true;
        holding++;
        if (count[m.clause[k]]++ == 0) distinct++;
      }
      int score = holding == 0 ? 1_000_001 : distinct * 1_000_000 + holding; // none fits: the match alone
      if (score > bestScore) {
        bestScore = score;
        bestFrom = from;
      }
      if (held[from]) {
        held[from] = false;
        holding--;
        if (--count[m.clause[from]] == 0) distinct--;
      }
    }
    int limit = m.start[bestFrom] + width, end = 0;
    List<Span> chosen = new ArrayList<>();
    for (int k = bestFrom; k < m.size && m.start[k] <= limit; k++) {
      if (m.end[k] > limit) continue;
      chosen.add(new Span(m.start[k], m.end[k], m.clause[k]));
      end = Math.max(end, m.end[k]);
    }
    if (chosen.isEmpty()) {
      chosen.add(new Span(m.start[bestFrom], m.end[bestFrom], m.clause[bestFrom]));
      end = m.end[bestFrom];
    }
    return new Best(m.start[bestFrom], end, chosen);
  }

  /**
   * The matches' indexes in order of their end, each as end and index in one long (sorted
   * without boxing); null when that is their order already, as it is unless a phrase holds
   * another match: a common word has thousands of matches in a long transcript.
   */
  private static long[] byEnd(Matches m) {
    boolean inOrder = true;
    for (int i = 1; i < m.size && inOrder; i++) inOrder = m.end[i] >= m.end[i - 1];
    if (inOrder) return null;
    long[] byEnd = new long[m.size];
    for (int i = 0; i < m.size; i++) byEnd[i] = (long) m.end[i] << 32 | i;
    Arrays.sort(byEnd);
    return byEnd;
  }
}
