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
 * query words. Costs time in proportion to the number of matches, never to the length of
 * the text (a 100 KB transcript is never scanned). One instance per leaf, field and request;
 * not thread-safe.
 */
final class Passages {
  /** A matched word or phrase: character offsets into the field's text. */
  record Span(int start, int end, int clause) {}

  /** The chosen window's matches, to be shown and marked. */
  record Best(int start, int end, List<Span> spans) {}

  private final List<List<String>> clauses;
  private final TermsEnum[] terms; // per clause word, in clause order; null when the field lacks it
  private final PostingsEnum[] postings; // reused while documents are visited in increasing order
  private final int[] firstTerm; // index into terms of each clause's first word

  Passages(LeafReader leaf, String field, List<List<String>> clauses) throws IOException {
    this.clauses = clauses;
    int words = 0;
    firstTerm = new int[clauses.size()];
    for (int c = 0; c < clauses.size(); c++) {
      firstTerm[c] = words;
      words += clauses.get(c).size();
    }
    terms = new TermsEnum[words];
    postings = new PostingsEnum[words];
    Terms fieldTerms = leaf.terms(field);
    if (fieldTerms == null) return;
    for (int c = 0, w = 0; c < clauses.size(); c++) {
      for (String word : clauses.get(c)) {
        TermsEnum te = fieldTerms.iterator();
        terms[w++] = te.seekExact(new BytesRef(word)) ? te : null;
      }
    }
  }

  /** Every match of every clause in doc (leaf-local id; call in increasing doc order), sorted by start. */
  List<Span> spans(int doc) throws IOException {
    List<Span> spans = new ArrayList<>();
    for (int c = 0; c < clauses.size(); c++) {
      int n = clauses.get(c).size();
      int[][] positions = new int[n][];
      int[][] starts = new int[n][];
      int[][] ends = new int[n][];
      boolean all = true;
      for (int i = 0; i < n && all; i++) {
        int w = firstTerm[c] + i;
        if (terms[w] == null) {
          all = false;
          break;
        }
        PostingsEnum pe = postings[w];
        if (pe == null || pe.docID() > doc) pe = postings[w] = terms[w].postings(pe, PostingsEnum.OFFSETS);
        if ((pe.docID() < doc ? pe.advance(doc) : pe.docID()) != doc) {
          all = false;
          break;
        }
        int freq = pe.freq();
        positions[i] = new int[freq];
        starts[i] = new int[freq];
        ends[i] = new int[freq];
        for (int k = 0; k < freq; k++) {
          positions[i][k] = pe.nextPosition();
          starts[i][k] = pe.startOffset();
          ends[i][k] = pe.endOffset();
        }
      }
      if (!all) continue;
      // A word: each occurrence. A phrase: where word i sits i positions after the first word.
      outer:
      for (int k = 0; k < positions[0].length; k++) {
        int end = ends[0][k];
        for (int i = 1; i < n; i++) {
          int at = Arrays.binarySearch(positions[i], positions[0][k] + i);
          if (at < 0) continue outer;
          end = ends[i][at];
        }
        spans.add(new Span(starts[0][k], end, c));
      }
    }
    spans.sort((a, b) -> a.start != b.start ? Integer.compare(a.start, b.start) : Integer.compare(b.end, a.end));
    return spans;
  }

  /**
   * The window of at most {@code width} characters that holds the most different clauses,
   * then the most matches; the earliest such window on a tie.
   */
  Best best(List<Span> spans, int width) {
    if (spans.isEmpty()) return new Best(0, 0, List.of());
    int[] count = new int[clauses.size()];
    int distinct = 0, bestScore = -1, bestFrom = 0, bestTo = 0;
    int to = 0;
    for (int from = 0; from < spans.size(); from++) {
      int limit = spans.get(from).start + width;
      while (to < spans.size() && spans.get(to).end <= limit) {
        if (count[spans.get(to).clause]++ == 0) distinct++;
        to++;
      }
      if (to == from) { // a single match longer than the window: show it alone
        to = from + 1;
        if (count[spans.get(from).clause]++ == 0) distinct++;
      }
      int score = distinct * 1_000_000 + (to - from);
      if (score > bestScore) {
        bestScore = score;
        bestFrom = from;
        bestTo = to;
      }
      if (--count[spans.get(from).clause] == 0) distinct--;
    }
    List<Span> chosen = spans.subList(bestFrom, bestTo);
    int end = 0;
    for (Span s : chosen) end = Math.max(end, s.end);
    return new Best(chosen.get(0).start, end, List.copyOf(chosen));
  }
}
