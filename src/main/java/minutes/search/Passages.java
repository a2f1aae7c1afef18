package minutes.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.BytesRef;

/**
 * Finds where a query matched in one field of one document, from the offsets stored in the
 * postings, and picks the best window for a snippet: the one holding the most different
 * query words. One instance per leaf, field and request; not thread-safe. Costs time in
 * proportion to the number of matches, never to the length of the text (a 100 KB transcript
 * is never scanned); a phrase is found through its pair terms where it has them
 * ({@link SearchQuery#layout}), so "I think" reads the few places of "i think", not every "i".
 * Matches live in reused int arrays, since a common word has hundreds per document.
 */
final class Passages {
  /** A matched word or phrase: character offsets into the field's text. */
  record Span(int start, int end, int clause) {}

  /** The chosen window's matches, to be shown and marked. */
  record Best(int start, int end, List<Span> spans) {}

  private final int clauseCount;
  private final int[] firstTerm; // per clause: index of its first term; firstTerm[clauseCount] = all terms
  private final int[] relative; // per term: its position relative to its clause's first word
  private final TermsEnum[] terms; // per term; null when the field lacks it
  private final PostingsEnum[] postings; // reused while documents are visited in increasing order
  private final Occurrences[] read; // per term: this document's occurrences
  private final int[] cursor; // per term: how far find() has walked its occurrences
  /** This document's matches, sorted by start, then longest first. */
  private Matches spans = new Matches(), merged = new Matches();

  Passages(LeafReader leaf, String field, List<List<String>> clauses) throws IOException {
    clauseCount = clauses.size();
    firstTerm = new int[clauseCount + 1];
    List<SearchQuery.Placed> all = new ArrayList<>();
    for (int c = 0; c < clauseCount; c++) {
      firstTerm[c] = all.size();
      all.addAll(SearchQuery.layout(clauses.get(c)));
    }
    firstTerm[clauseCount] = all.size();
    relative = new int[all.size()];
    terms = new TermsEnum[all.size()];
    postings = new PostingsEnum[all.size()];
    read = new Occurrences[all.size()];
    cursor = new int[all.size()];
    // Risk: Terms and TermsEnum are @lucene.experimental (the postings API); a change in what
    // they give shows as other snippets in SearchApiTest and SearchIndexTest.
    Terms fieldTerms = leaf.terms(field);
    for (int t = 0; t < all.size(); t++) {
      relative[t] = all.get(t).position();
      read[t] = new Occurrences();
      if (fieldTerms == null) continue;
      TermsEnum te = fieldTerms.iterator();
      terms[t] = te.seekExact(new BytesRef(all.get(t).term())) ? te : null;
    }
  }

  /** Positions and offsets of one term in one document. */
  private static final class Occurrences {
    int count;
    int[] position = new int[16], start = new int[16], end = new int[16];

    void read(PostingsEnum pe) throws IOException {
      count = pe.freq();
      if (position.length < count) {
        position = new int[Math.max(count, 2 * position.length)];
        start = new int[position.length];
        end = new int[position.length];
      }
      for (int k = 0; k < count; k++) {
        position[k] = pe.nextPosition();
        start[k] = pe.startOffset();
        end[k] = pe.endOffset();
      }
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

  /** The best window of at most {@code width} characters in doc (leaf-local id; call in increasing doc order). */
  Best best(int doc, int width) throws IOException {
    spans.size = 0;
    for (int c = 0; c < clauseCount; c++) {
      int from = spans.size;
      if (find(doc, c)) mergeLast(from);
    }
    return best(width);
  }

  /** Appends clause c's matches in doc to {@link #spans} (in order of start); false when it has none. */
  private boolean find(int doc, int c) throws IOException {
    int first = firstTerm[c], last = firstTerm[c + 1] - 1;
    for (int t = first; t <= last; t++) {
      if (terms[t] == null) return false;
      PostingsEnum pe = postings[t];
      if (pe == null || pe.docID() > doc) pe = postings[t] = terms[t].postings(pe, PostingsEnum.OFFSETS);
      if ((pe.docID() < doc ? pe.advance(doc) : pe.docID()) != doc) return false;
      read[t].read(pe);
    }
    // Where the first term sits at p, every other term must sit at p + its relative position;
    // each term's positions ascend, so one cursor per term walks forward only.
    Occurrences lead = read[first];
    Arrays.fill(cursor, first, last + 1, 0);
    boolean any = false;
    outer:
    for (int k = 0; k < lead.count; k++) {
      int anchor = lead.position[k];
      for (int t = first + 1; t <= last; t++) {
        Occurrences o = read[t];
        int want = anchor + relative[t], i = cursor[t];
        while (i < o.count && o.position[i] < want) i++;
        cursor[t] = i;
        if (i == o.count) break outer;
        if (o.position[i] != want) continue outer;
      }
      Occurrences tail = read[last];
      spans.add(lead.start[k], last == first ? lead.end[k] : tail.end[cursor[last]], c);
      any = true;
    }
    return any;
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
   * The window of at most {@code width} characters that holds the most different clauses,
   * then the most matches; the earliest such window on a tie.
   */
  private Best best(int width) {
    Matches m = spans;
    if (m.size == 0) return new Best(0, 0, List.of());
    int[] count = new int[clauseCount];
    int distinct = 0, bestScore = -1, bestFrom = 0, bestTo = 0;
    int to = 0;
    for (int from = 0; from < m.size; from++) {
      int limit = m.start[from] + width;
      while (to < m.size && m.end[to] <= limit) {
        if (count[m.clause[to]]++ == 0) distinct++;
        to++;
      }
      if (to == from) { // a single match longer than the window: show it alone
        to = from + 1;
        if (count[m.clause[from]]++ == 0) distinct++;
      }
      int score = distinct * 1_000_000 + (to - from);
      if (score > bestScore) {
        bestScore = score;
        bestFrom = from;
        bestTo = to;
      }
      if (--count[m.clause[from]] == 0) distinct--;
    }
    List<Span> chosen = new ArrayList<>(bestTo - bestFrom);
    int end = 0;
    for (int i = bestFrom; i < bestTo; i++) {
      chosen.add(new Span(m.start[i], m.end[i], m.clause[i]));
      end = Math.max(end, m.end[i]);
    }
    return new Best(m.start[bestFrom], end, chosen);
  }
}
