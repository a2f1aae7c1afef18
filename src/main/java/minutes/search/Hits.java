package minutes.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import minutes.keys.Principal;
import minutes.keys.Visibility;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopFieldCollectorManager;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;

/**
 * One search over one searcher, in the order it happens: match the meetings the key may see
 * ({@link #matching}), collect the best {@code limit} ({@link SplitSearch}), name each hit's
 * best field ({@link #describe}), cut its snippet ({@link #highlight}). Lives for one request;
 * not thread-safe. A search that runs past its {@link QueryTimeout} fails with
 * {@link SearchUnavailable.Reason#TIMED_OUT} instead of answering with part of its hits.
 */
final class Hits {
  private static final Sort ORDER = new Sort(SortField.FIELD_SCORE,
      new SortField(IndexedMeeting.SORT_AT, SortField.Type.LONG, true));
  private static final String[] CONTENT_FIELDS = {IndexedMeeting.PROTOCOL, IndexedMeeting.TRANSCRIPT};

  private final IndexSearcher searcher;
  private final Analyzer analyzer;
  private final QueryTimeout timeout;

  /** {@code searcher}: this request's own, since a time limit and its outcome are per searcher. */
  Hits(IndexSearcher searcher, Analyzer analyzer, QueryTimeout timeout) {
    this.searcher = searcher;
    this.analyzer = analyzer;
    this.timeout = timeout;
    searcher.setTimeout(timeout);
  }

  /**
   * The hits of q that the principal may see and that pass the filters, best first, at most
   * one per meeting; {@code pending}: meetings changed since the searcher's data, left out.
   */
  List<SearchHit> find(SplitSearch split, Principal principal, SearchQuery q, SearchFilters filters,
      List<BytesRef> pending, int limit) throws IOException, SearchUnavailable {
    Query[] fields = fields(q);
    ScoreDoc[] docs = split.search(searcher, matching(fields, principal, filters, pending), q,
        Visibility.of(principal).workspaceId(), limit).scoreDocs;
    if (docs.length == 0) return List.of();

    Hit[] hits = new Hit[docs.length];
    for (int i = 0; i < docs.length; i++) hits[i] = new Hit(docs[i].doc, (Float) ((FieldDoc) docs[i]).fields[0]);
    // Doc values, scorers and postings are read leaf by leaf in document order.
    Hit[] byDoc = hits.clone();
    Arrays.sort(byDoc, Comparator.comparingInt(h -> h.doc));
    describe(fields, byDoc);
    highlight(q, byDoc);
    List<SearchHit> out = new ArrayList<>(hits.length);
    for (Hit h : hits) {
      out.add(new SearchHit(h.meta.id(), h.meta.title(), h.meta.platform(), h.meta.startsAt(), h.meta.createdAt(),
          Double.parseDouble(Float.toString(h.rank)), h.snippet, h.field.equals(IndexedMeeting.TITLE) ? "title" : h.field));
    }
    return out;
  }

  /** The query in title, minutes and transcript, in that order (the order {@link #describe} relies on). */
  static Query[] fields(SearchQuery q) {
    return new Query[] {q.inTitle(), q.inField(IndexedMeeting.PROTOCOL), q.inField(IndexedMeeting.TRANSCRIPT)};
  }

  /**
   * The meetings that match, that the principal may see and that pass the filters, each
   * scored by its best field: one document per meeting, so at most one hit per meeting.
   * Visibility and filters are FILTER clauses, so {@code limit} counts only meetings that
   * pass them. Meetings changed in the database since the searcher's data ({@code pending}) are
   * left out until the index has caught up with them.
   */
  static Query matching(Query[] fields, Principal principal, SearchFilters filters, List<BytesRef> pending) {
    Visibility.Rule rule = Visibility.of(principal);
    BooleanQuery.Builder b = new BooleanQuery.Builder()
        .add(new DisjunctionMaxQuery(Arrays.asList(fields), 0f), Occur.MUST)
        .add(new TermQuery(new Term(IndexedMeeting.WORKSPACE, Long.toString(rule.workspaceId()))), Occur.FILTER);
    if (rule.viewer() != null) b.add(new TermQuery(new Term(IndexedMeeting.VIEWER, rule.viewer())), Occur.FILTER);
    for (Query f : filters.clauses()) b.add(f, Occur.FILTER);
    if (!pending.isEmpty()) b.add(new TermInSetQuery(IndexedMeeting.ID, pending), Occur.MUST_NOT);
    return b.build();
  }

  /**
   * The best {@code limit} by rank, then date. No total is ever shown, so documents that
   * cannot compete may be skipped as soon as {@code limit} hits are in (Lucene's default waits
   * for 1,000). Skipping keeps documents that tie with the lowest rank kept so far; the date
   * decides among them.
   */
  static TopFieldCollectorManager collector(int limit) {
    return new TopFieldCollectorManager(ORDER, limit, null, limit);
  }

  /** A hit being assembled: its document, display values, best field and rank. */
  private static final class Hit {
    final int doc;
    /** The score the hits were ordered by (ORDER's first key). */
    final float rank;
    IndexedMeeting.Meta meta;
    String field;
    String snippet;

    Hit(int doc, float rank) {
      this.doc = doc;
      this.rank = rank;
    }
  }

  /**
   * Reads each hit's display values and names the field it matched best in. The rank is the
   * score the hits were ordered by; the field is the first of title, protocol and transcript
   * (ties go to the earlier one) that scores it. A hit that neither its title nor its minutes
   * explain is a transcript hit, so the transcript, by far the costliest field to score, is
   * never scored again. {@code byDoc}: the hits in document order.
   */
  private void describe(Query[] fields, Hit[] byDoc) throws IOException, SearchUnavailable {
    boolean titleRanks = false;
    for (Hit h : byDoc) titleRanks |= h.rank == SearchQuery.TITLE_RANK;
    Weight title = titleRanks ? weight(fields[0]) : null, protocol = weight(fields[1]);
    Leaves leaves = new Leaves(searcher);
    Scorer titleScorer = null, protocolScorer = null;
    BinaryDocValues meta = null;
    for (Hit h : byDoc) {
      checkTime();
      if (leaves.moveTo(h.doc)) {
        titleScorer = title == null ? null : title.scorer(leaves.leaf);
        protocolScorer = protocol.scorer(leaves.leaf);
        meta = DocValues.getBinary(leaves.leaf.reader(), IndexedMeeting.META);
      }
      int local = h.doc - leaves.leaf.docBase;
      if (!meta.advanceExact(local)) throw new IllegalStateException("a search document without display values");
      h.meta = IndexedMeeting.Meta.decode(meta.binaryValue());
      if (h.rank == SearchQuery.TITLE_RANK && at(titleScorer, local)) {
        h.field = IndexedMeeting.TITLE;
        continue;
      }
      // The same score summed in another order may differ in its last bit: that is a tie.
      boolean byProtocol = at(protocolScorer, local) && protocolScorer.score() >= h.rank * (1 - 1e-6f);
      h.field = byProtocol ? IndexedMeeting.PROTOCOL : IndexedMeeting.TRANSCRIPT;
    }
  }

  private Weight weight(Query q) throws IOException {
    // Risk: IndexSearcher.createWeight is @lucene.experimental; every search test goes through it.
    return searcher.createWeight(searcher.rewrite(q), ScoreMode.COMPLETE, 1f);
  }

  /**
   * Moves the scorer (null: nothing in this leaf matches) to doc; true when doc matches. A
   * phrase is checked at doc only: its iterator would verify every candidate up to the next
   * match, which for the hits of "to work" meant reading "work" in most minutes of the index.
   * Call it for ascending documents, each once: matches() uses up the phrase's positions there.
   */
  private static boolean at(Scorer scorer, int doc) throws IOException {
    if (scorer == null) return false;
    // Risk: TwoPhaseIterator is @lucene.experimental; SearchIndexTest's phrase searches pin this check.
    TwoPhaseIterator phrase = scorer.twoPhaseIterator();
    DocIdSetIterator candidates = phrase == null ? scorer.iterator() : phrase.approximation();
    int at = candidates.docID() < doc ? candidates.advance(doc) : candidates.docID();
    return at == doc && (phrase == null || phrase.matches());
  }

  /**
   * Title hits show the title, marked; content hits the best window of their field, found
   * from postings offsets, so that only the characters shown are ever looked at.
   */
  private void highlight(SearchQuery q, Hit[] byDoc) throws IOException, SearchUnavailable {
    Set<String> words = q.words();
    Leaves leaves = new Leaves(searcher);
    Passages[] passages = new Passages[CONTENT_FIELDS.length];
    StoredFields stored = null;
    for (Hit h : byDoc) {
      checkTime();
      if (h.field.equals(IndexedMeeting.TITLE)) {
        h.snippet = Snippets.title(analyzer, h.meta.title(), words);
        continue;
      }
      if (leaves.moveTo(h.doc)) {
        Arrays.fill(passages, null);
        stored = leaves.leaf.reader().storedFields();
      }
      int f = h.field.equals(CONTENT_FIELDS[0]) ? 0 : 1;
      if (passages[f] == null) passages[f] = new Passages(leaves.leaf.reader(), h.field, q.clauses);
      int local = h.doc - leaves.leaf.docBase;
      Passages.Best best = passages[f].best(local, Snippets.PASSAGE_WIDTH);
      StoredText.Slice text = StoredText.read(stored, local, h.field, length -> {
        int[] w = Snippets.window(length, best.start(), best.end());
        return new int[] {w[0], Math.min(length, w[1] + 1)}; // +1: render looks at the next character
      });
      int[] window = Snippets.window(text.length(), best.start(), best.end());
      h.snippet = Snippets.render(text.text(), text.base(), text.length(), window[0], window[1], best.spans());
    }
  }

  /** Matching stops at the limit inside Lucene; the phases after it check between hits. */
  private void checkTime() throws SearchUnavailable {
    if (timeout.shouldExit()) throw new SearchUnavailable(SearchUnavailable.Reason.TIMED_OUT);
  }

  /** The leaf holding each of a series of ascending documents. */
  private static final class Leaves {
    private final List<LeafReaderContext> all;
    private int next;
    LeafReaderContext leaf;

    Leaves(IndexSearcher s) {
      all = s.getIndexReader().leaves();
    }

    /** Makes {@link #leaf} the leaf of doc; true when it changed. */
    boolean moveTo(int doc) {
      if (leaf != null && doc < leaf.docBase + leaf.reader().maxDoc()) return false;
      do {
        leaf = all.get(next++);
      } while (doc >= leaf.docBase + leaf.reader().maxDoc());
      return true;
    }
  }
}
