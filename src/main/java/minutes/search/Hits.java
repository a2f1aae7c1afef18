package minutes.search;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import minutes.keys.Principal;
import minutes.keys.Visibility;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.facet.FacetsCollector;
import org.apache.lucene.facet.FacetsCollectorManager;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.index.StoredFieldVisitor;
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
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopFieldCollectorManager;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;

/**
 * One search over one searcher, in the order it happens: match the meetings the key may see
 * ({@link #matching}), collect the page in the order asked ({@link SplitSearch}), count the
 * total and facets when asked ({@link Facets}), name each hit's best field and, when the
 * order is not by rank, its rank ({@link #describe}), cut its snippet and find its moments
 * ({@link #highlight}, {@link Moments}). Lives for one request; not thread-safe. A search that
 * runs past its {@link QueryTimeout} fails with {@link SearchUnavailable.Reason#TIMED_OUT}
 * instead of answering with part of its hits.
 */
final class Hits {
  private static final String[] CONTENT_FIELDS = {IndexedMeeting.PROTOCOL, IndexedMeeting.TRANSCRIPT};

  private final IndexSearcher searcher;
  private final Analyzer analyzer;
  private final QueryTimeout timeout;
  private final SplitSearch split;
  private final Facets facets;

  /** {@code searcher}: this request's own, since a time limit and its outcome are per searcher. */
  Hits(IndexSearcher searcher, Analyzer analyzer, QueryTimeout timeout, SplitSearch split, Facets facets) {
    this.searcher = searcher;
    this.analyzer = analyzer;
    this.timeout = timeout;
    this.split = split;
    this.facets = facets;
    searcher.setTimeout(timeout);
  }

  /**
   * The answer to r for the principal: the page of hits that it may see and that pass the
   * filters, at most one per meeting, and what else r asks for, all over the same matches;
   * {@code pending}: meetings changed since the searcher's data, left out. {@code db}: the
   * request's connection, for what the index does not hold (the companies).
   */
  SearchHit.Result find(Connection db, Principal principal, SearchRequest r, List<BytesRef> pending)
      throws IOException, SQLException, SearchUnavailable {
    SearchQuery q = r.query();
    long workspace = Visibility.of(principal).workspaceId();
    if (q.isEmpty()) { // only punctuation, say: nothing matches
      Map<String, List<?>> none = new LinkedHashMap<>();
      for (String name : r.facets()) none.put(name, List.of());
      return new SearchHit.Result(q.text, List.of(), r.withTotal() ? 0 : null, r.facets().isEmpty() ? null : none);
    }
    Query[] fields = fields(q);
    Query query = matching(fields, principal, r.filters(), pending);
    IndexSearcher by = split.searcher(searcher, q, workspace);
    // Risk: IndexSearcher.search(Query, CollectorManager) is @lucene.experimental, though it is
    // Lucene 10's one way to collect (the Collector one is deprecated); every search test uses it.
    ScoreDoc[] docs = finished(by, by.search(query, collector(r.order(), r.offset() + r.limit()))).scoreDocs;
    Integer total = null;
    Map<String, List<?>> counted = null;
    if (!r.facets().isEmpty()) {
      FacetsCollector matches = finished(by, by.search(query, new FacetsCollectorManager()));
      total = matches.getMatchingDocs().stream().mapToInt(FacetsCollector.MatchingDocs::totalHits).sum();
      counted = facets.count(searcher.getIndexReader(), matches, r.facets(), r.facetLimit(),
          r.facets().contains(Facets.COMPANY) ? facets.companies(db, workspace) : Facets.Companies.NONE);
    } else if (r.withTotal()) {
      total = finished(by, by.count(query));
    }
    if (docs.length <= r.offset()) return new SearchHit.Result(q.text, List.of(), total, counted);

    Hit[] hits = new Hit[docs.length - r.offset()];
    for (int i = 0; i < hits.length; i++) {
      FieldDoc d = (FieldDoc) docs[r.offset() + i];
      hits[i] = new Hit(d.doc, r.order() == SearchRequest.Order.RANK ? (Float) d.fields[0] : Float.NaN);
    }
    // Doc values, scorers and postings are read leaf by leaf in document order.
    Hit[] byDoc = hits.clone();
    Arrays.sort(byDoc, Comparator.comparingInt(h -> h.doc));
    describe(fields, byDoc, r.order() == SearchRequest.Order.RANK);
    highlight(q, byDoc, r.moments());
    List<SearchHit> out = new ArrayList<>(hits.length);
    for (Hit h : hits) {
      out.add(new SearchHit(h.meta.id(), h.meta.title(), h.meta.platform(), h.meta.startsAt(), h.meta.createdAt(),
          Double.parseDouble(Float.toString(h.rank)), h.snippet, h.field.equals(IndexedMeeting.TITLE) ? "title" : h.field,
          r.moments() == 0 ? null : h.shown, r.moments() == 0 ? null : h.moments.total()));
    }
    return new SearchHit.Result(q.text, out, total, counted);
  }

  /** What a search of {@code by} found, unless it stopped at the time limit: part of the matches is no answer. */
  private static <T> T finished(IndexSearcher by, T found) throws SearchUnavailable {
    if (by.timedOut()) throw new SearchUnavailable(SearchUnavailable.Reason.TIMED_OUT);
    return found;
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
   * The first {@code n} in {@code order}. No total is ever read from it, so documents that
   * cannot compete may be skipped as soon as {@code n} hits are in (Lucene's default waits
   * for 1,000): by score (rank order) or through the time's points (date orders). Skipping keeps
   * documents that tie with the last kept so far; the next sort key decides among them.
   */
  static TopFieldCollectorManager collector(SearchRequest.Order order, int n) {
    return new TopFieldCollectorManager(order.sort, n, null, n);
  }

  /** The best {@code limit} by rank, then date: a plain search's page. */
  static TopFieldCollectorManager collector(int limit) {
    return collector(SearchRequest.Order.RANK, limit);
  }

  /** A hit being assembled: its document, display values, best field and rank. */
  private static final class Hit {
    final int doc;
    /** Its score: the first sort key of rank order, else computed for the page ({@link #describe}). */
    float rank;
    IndexedMeeting.Meta meta;
    String field;
    String snippet;
    Moments.Found moments;
    /** Its moments as shown. */
    List<SearchHit.Moment> shown;

    Hit(int doc, float rank) {
      this.doc = doc;
      this.rank = rank;
    }
  }

  /**
   * Reads each hit's display values and names the field it matched best in: the first of
   * title, protocol and transcript (ties go to the earlier one) that scores its rank. In rank
   * order ({@code ranked}) the rank is the score the hits were ordered by, and a hit that
   * neither its title nor its minutes explain is a transcript hit, so the transcript, by far the
   * costliest field to score, is never scored again. In a date order the hits have no rank yet:
   * each field is scored once and the rank is the highest, exactly the score rank order gives
   * (the {@link DisjunctionMaxQuery} of {@link #matching}, tie-breaker 0, scores the highest of
   * its matching fields, to the bit). {@code byDoc}: the hits in document order.
   */
  private void describe(Query[] fields, Hit[] byDoc, boolean ranked) throws IOException, SearchUnavailable {
    boolean titleRanks = !ranked;
    for (Hit h : byDoc) titleRanks |= h.rank == SearchQuery.TITLE_RANK;
    Weight title = titleRanks ? weight(fields[0]) : null, protocol = weight(fields[1]);
    Weight transcript = ranked ? null : weight(fields[2]);
    Leaves leaves = new Leaves(searcher);
    Scorer titleScorer = null, protocolScorer = null, transcriptScorer = null;
    BinaryDocValues meta = null;
    for (Hit h : byDoc) {
      checkTime();
      if (leaves.moveTo(h.doc)) {
        titleScorer = title == null ? null : title.scorer(leaves.leaf);
        protocolScorer = protocol.scorer(leaves.leaf);
        transcriptScorer = transcript == null ? null : transcript.scorer(leaves.leaf);
        meta = DocValues.getBinary(leaves.leaf.reader(), IndexedMeeting.META);
      }
      int local = h.doc - leaves.leaf.docBase;
      if (!meta.advanceExact(local)) throw new IllegalStateException("a search document without display values");
      h.meta = IndexedMeeting.Meta.decode(meta.binaryValue());
      boolean inTitle;
      float inProtocol = Float.NaN; // the protocol's score, where it matches
      if (ranked) {
        inTitle = h.rank == SearchQuery.TITLE_RANK && at(titleScorer, local);
        if (!inTitle && at(protocolScorer, local)) inProtocol = protocolScorer.score();
      } else { // each scorer moves to the hit once: a phrase's check uses up its positions there
        inTitle = at(titleScorer, local);
        if (at(protocolScorer, local)) inProtocol = protocolScorer.score();
        float best = inTitle ? SearchQuery.TITLE_RANK : 0f;
        if (inProtocol > best) best = inProtocol;
        if (at(transcriptScorer, local)) best = Math.max(best, transcriptScorer.score());
        if (best == 0f) throw new IllegalStateException("a hit that does not match");
        h.rank = best;
      }
      if (inTitle && h.rank == SearchQuery.TITLE_RANK) {
        h.field = IndexedMeeting.TITLE;
        continue;
      }
      // The same score summed in another order may differ in its last bit: that is a tie.
      boolean byProtocol = inProtocol >= h.rank * (1 - 1e-6f); // false where it does not match (NaN)
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
   * from postings offsets, so that only the characters shown are ever looked at. With
   * {@code moments} above 0, each hit's matching transcript segments are found from the same
   * postings ({@link Moments#find}).
   */
  private void highlight(SearchQuery q, Hit[] byDoc, int moments) throws IOException, SearchUnavailable {
    Set<String> words = q.words();
    Leaves leaves = new Leaves(searcher);
    Passages[] passages = new Passages[CONTENT_FIELDS.length];
    StoredFields stored = null;
    for (Hit h : byDoc) {
      checkTime();
      if (leaves.moveTo(h.doc)) {
        Arrays.fill(passages, null);
        stored = leaves.leaf.reader().storedFields();
      }
      int local = h.doc - leaves.leaf.docBase;
      Passages transcript = null;
      if (moments > 0) {
        transcript = passages[1] = passages[1] != null ? passages[1]
            : new Passages(leaves.leaf.reader(), IndexedMeeting.TRANSCRIPT, q.clauses);
        h.moments = transcript.match(local) ? Moments.find(transcript, segments(stored, local), moments)
            : Moments.Found.NONE;
        h.shown = Moments.render(stored, local, h.moments);
      }
      if (h.field.equals(IndexedMeeting.TITLE)) {
        h.snippet = Snippets.title(analyzer, h.meta.title(), words);
        continue;
      }
      int f = h.field.equals(CONTENT_FIELDS[0]) ? 0 : 1;
      if (passages[f] == null) passages[f] = new Passages(leaves.leaf.reader(), h.field, q.clauses);
      if (passages[f] != transcript) passages[f].match(local); // the transcript's were found above
      Passages.Best best = passages[f].best(Snippets.PASSAGE_WIDTH);
      h.snippet = Snippets.content(stored, local, h.field, best);
    }
  }

  /** The stored {@link Moments#SEGMENTS} table of doc (leaf-local); no segments for a meeting without transcript. */
  private static Moments.SegmentTable segments(StoredFields stored, int doc) throws IOException {
    byte[][] value = new byte[1][];
    // Risk: StoredFieldVisitor is @lucene.experimental (Lucene's one way to read part of a
    // document's stored fields); a change shows as wrong moments in SearchForClientsTest.
    stored.document(doc, new StoredFieldVisitor() {
      @Override
      public Status needsField(FieldInfo info) {
        if (value[0] != null) return Status.STOP;
        return info.name.equals(Moments.SEGMENTS) ? Status.YES : Status.NO;
      }

      @Override
      public void binaryField(FieldInfo info, byte[] bytes) {
        value[0] = bytes;
      }
    });
    return new Moments.SegmentTable(value[0] == null ? new byte[0] : value[0]);
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
