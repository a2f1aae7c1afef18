package minutes.search.query;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import minutes.keys.Principal;
import minutes.keys.Visibility;
import minutes.search.index.MeetingDocument;
import minutes.search.index.SearchIndex;
import minutes.search.index.SearchUnavailable;
import minutes.search.text.SearchQuery;
import minutes.search.text.SearchQuery.Match;
import org.apache.lucene.facet.FacetsCollector;
import org.apache.lucene.facet.FacetsCollectorManager;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
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
 * ({@link Highlights}). Lives for one request; not thread-safe. A search that
 * runs past its {@link QueryTimeout} fails with {@link SearchUnavailable.Reason#TIMED_OUT}
 * instead of answering with part of its hits.
 */
public final class MeetingSearch {
  private final IndexSearcher searcher;
  private final QueryTimeout timeout;
  private final SplitSearch split;
  private final Facets facets;

  /**
   * The answer to r for the principal from the live generation of {@code index}, within
   * {@code timeout}, on a searcher of its own (a time limit and its outcome are per searcher);
   * {@code db}: the request's connection, {@code dataVersion}: the data version it read or the
   * node heard, if any (see {@link SearchIndex#search}). {@code split} and {@code facets}: the
   * server's, shared by every search.
   */
  public static SearchHit.Result answer(SearchIndex index, Connection db, OptionalLong dataVersion, Principal principal,
      SearchRequest r, QueryTimeout timeout, SplitSearch split, Facets facets)
      throws SQLException, SearchUnavailable {
    return index.search(db, dataVersion, (searcher, changed) ->
        new MeetingSearch(SplitSearch.like(new IndexSearcher(searcher.getIndexReader()), searcher), timeout,
            split, facets).find(db, principal, r, changed));
  }

  /** {@code searcher}: this request's own, since a time limit and its outcome are per searcher. */
  public MeetingSearch(IndexSearcher searcher, QueryTimeout timeout, SplitSearch split, Facets facets) {
    this.searcher = searcher;
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
  public SearchHit.Result find(Connection db, Principal principal, SearchRequest r, List<BytesRef> pending)
      throws IOException, SQLException, SearchUnavailable {
    SearchQuery q = r.query();
    long workspace = Visibility.of(principal).workspaceId();
    if (q.isEmpty()) { // only punctuation, say: nothing matches
      Map<String, List<?>> none = new LinkedHashMap<>();
      for (String name : r.facets()) none.put(name, List.of());
      return new SearchHit.Result(q.text, List.of(), r.withTotal() ? 0 : null, r.facets().isEmpty() ? null : none);
    }
    Readings readings = Readings.of(q, r.filters().language(), searcher.getIndexReader());
    Query query = matching(scored(readings, r.match()), principal, r.filters(), pending);
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
    boolean byRank = r.order() == SearchRequest.Order.RANK;
    // Each hit is described and marked by the reading it matched by.
    for (Map.Entry<Readings.Read, Hit[]> read : readings.byReading(searcher.getIndexReader(), byDoc, h -> h.doc).entrySet()) {
      SearchQuery rq = read.getKey().query();
      Hit[] group = read.getValue();
      describe(rq, r.match(), MeetingQueries.fields(rq, r.match()), group, byRank && r.match() == Match.ALL);
      if (byRank && r.match() == Match.MOST) countWords(rq, group);
      mark(new Highlights(read.getKey().analyzer(), rq, r.match(), r.momentsByRank()), group, r.moments());
    }
    if (byRank && r.match() == Match.MOST) {
      Arrays.sort(hits, Comparator.comparingInt((Hit h) -> -h.words).thenComparing(h -> -h.rank));
    }
    List<SearchHit> out = new ArrayList<>(hits.length);
    for (Hit h : hits) {
      // Ranks are scored as floats; JSON writes a double. Widening 0.35f gives 0.3499999940395355,
      // so the rank goes through its shortest float decimal ("0.35") to the double nearest that.
      out.add(new SearchHit(h.display.id(), h.display.title(), h.display.platform(), h.display.startsAt(),
          h.display.createdAt(), Double.parseDouble(Float.toString(h.rank)), h.snippet,
          h.field.equals(MeetingDocument.TITLE) ? "title" : h.field,
          r.moments() == 0 ? null : h.moments.shown(), r.moments() == 0 ? null : h.moments.total()));
    }
    return new SearchHit.Result(q.text, out, total, counted);
  }

  /** What a search of {@code by} found, unless it stopped at the time limit: part of the matches is no answer. */
  private static <T> T finished(IndexSearcher by, T found) throws SearchUnavailable {
    if (by.timedOut()) throw new SearchUnavailable(SearchUnavailable.Reason.TIMED_OUT);
    return found;
  }

  /**
   * What a meeting scores: with {@link Match#ALL} its rank ({@link MeetingQueries#rank}); with
   * {@link Match#MOST} the number of the query's counted words it holds anywhere plus that rank,
   * so that holding more words comes first and the rank, below 1, orders the meetings holding as
   * many. One score, so that Lucene's block-max skipping passes meetings that cannot compete.
   */
  static Query scored(SearchQuery q, Match match) {
    Query rank = MeetingQueries.rank(q, match, MeetingQueries.fields(q, match));
    if (match == Match.ALL) return rank;
    return new BooleanQuery.Builder().add(MeetingQueries.coordination(q), Occur.SHOULD).add(rank, Occur.SHOULD).build();
  }

  /** {@link #scored} of each reading, each matching only its meetings (see {@link Readings#scored}). */
  static Query scored(Readings readings, Match match) {
    return readings.scored(q -> scored(q, match));
  }

  /** {@link #matching} of q in every field under {@code match}, scored as a search scores it. */
  public static Query matching(SearchQuery q, Match match, Principal principal, SearchFilters filters,
      List<BytesRef> pending) {
    return matching(scored(q, match), principal, filters, pending);
  }

  /**
   * The meetings that match, that the principal may see and that pass the filters, each
   * scored by {@code scored}: one document per meeting, so at most one hit per meeting.
   * Visibility and filters are FILTER clauses, so {@code limit} counts only meetings that
   * pass them. Meetings changed in the database since the searcher's data ({@code pending}) are
   * left out until the index has caught up with them.
   */
  public static Query matching(Query scored, Principal principal, SearchFilters filters, List<BytesRef> pending) {
    Visibility.Rule rule = Visibility.of(principal);
    BooleanQuery.Builder b = new BooleanQuery.Builder()
        .add(scored, Occur.MUST)
        .add(new TermQuery(new Term(MeetingDocument.WORKSPACE, Long.toString(rule.workspaceId()))), Occur.FILTER);
    if (rule.viewer() != null) b.add(new TermQuery(new Term(MeetingDocument.VIEWER, rule.viewer())), Occur.FILTER);
    for (Query f : filters.clauses()) b.add(f, Occur.FILTER);
    if (!pending.isEmpty()) b.add(new TermInSetQuery(MeetingDocument.ID, pending), Occur.MUST_NOT);
    return b.build();
  }

  /**
   * The first {@code n} in {@code order}. No total is ever read from it, so documents that
   * cannot compete may be skipped as soon as {@code n} hits are in (Lucene's default waits
   * for 1,000): by score (rank order) or through the time's points (date orders). Skipping keeps
   * documents that tie with the last kept so far; the next sort key decides among them.
   */
  public static TopFieldCollectorManager collector(SearchRequest.Order order, int n) {
    return new TopFieldCollectorManager(order.sort, n, null, n);
  }

  /** The best {@code limit} by rank, then date: a plain search's page. */
  public static TopFieldCollectorManager collector(int limit) {
    return collector(SearchRequest.Order.RANK, limit);
  }

  /** A hit being assembled: its document, display values, best field, rank, snippet and moments. */
  private static final class Hit {
    final int doc;
    /** Its score: the first sort key of rank order, else computed for the page ({@link #describe}). */
    float rank;
    /** With {@link Match#MOST} in rank order: the counted words of the query it holds. */
    int words;
    MeetingDocument.Display display;
    String field;
    String snippet;
    Highlights.Moments moments;

    Hit(int doc, float rank) {
      this.doc = doc;
      this.rank = rank;
    }
  }

  /**
   * Reads each hit's display values and names the field of its rank: the title where the rank is
   * the title's, else whichever of minutes and transcript gives more of the content rank among
   * those that match under {@code match} (every clause with ALL, any with MOST; a tie goes to the
   * minutes). In rank order under ALL ({@code ranked}) the rank is the score the hits were
   * ordered by, and the transcript's part is the rank less the minutes' part, so the transcript,
   * by far the costliest field to score, is scored again only to see whether it holds every
   * clause where it gives more. Otherwise the hits have no rank yet: each part is scored once and
   * the rank computed as {@link MeetingQueries#rank} scores it, to the bit (a sum of two clauses in
   * a double, then a float). {@code byDoc}: the hits in document order.
   */
  private void describe(SearchQuery q, Match match, Query[] fields, Hit[] byDoc, boolean ranked)
      throws IOException, SearchUnavailable {
    boolean titleRanks = !ranked;
    for (Hit h : byDoc) titleRanks |= h.rank == MeetingQueries.TITLE_RANK;
    boolean all = match == Match.ALL;
    Weight title = titleRanks ? weight(fields[0]) : null, minutes = weight(MeetingQueries.minutesShare(q));
    Weight minutesHold = all ? weight(fields[1]) : null, transcriptHolds = all ? weight(fields[2]) : null;
    Weight transcript = ranked ? null : weight(MeetingQueries.transcriptShare(q));
    Leaves leaves = new Leaves(searcher);
    Scorer titleScorer = null, minutesScorer = null, minutesHoldScorer = null, transcriptScorer = null;
    Scorer transcriptHoldsScorer = null;
    MeetingDocument.Displays displays = null;
    for (Hit h : byDoc) {
      checkTime();
      if (leaves.moveTo(h.doc)) {
        titleScorer = title == null ? null : title.scorer(leaves.leaf);
        minutesScorer = minutes.scorer(leaves.leaf);
        minutesHoldScorer = all ? minutesHold.scorer(leaves.leaf) : null;
        transcriptScorer = transcript == null ? null : transcript.scorer(leaves.leaf);
        transcriptHoldsScorer = all ? transcriptHolds.scorer(leaves.leaf) : null;
        displays = new MeetingDocument.Displays(leaves.leaf.reader());
      }
      int local = h.doc - leaves.leaf.docBase;
      h.display = displays.of(local);
      // Each scorer moves to the hit once: a phrase's check uses up its positions there.
      boolean inTitle = (!ranked || h.rank == MeetingQueries.TITLE_RANK) && at(titleScorer, local);
      float inMinutes = at(minutesScorer, local) ? minutesScorer.score() : 0f;
      boolean minutesMatch = all ? at(minutesHoldScorer, local) : inMinutes > 0f;
      float inTranscript;
      Boolean transcriptMatches = null; // known where it had to be looked at
      if (ranked) {
        inTranscript = h.rank - inMinutes;
      } else {
        inTranscript = at(transcriptScorer, local) ? transcriptScorer.score() : 0f;
        transcriptMatches = all ? at(transcriptHoldsScorer, local) : inTranscript > 0f;
        float content = minutesMatch || transcriptMatches ? (float) ((double) inMinutes + inTranscript) : 0f;
        h.rank = Math.max(inTitle ? MeetingQueries.TITLE_RANK : 0f, content);
        if (h.rank == 0f) throw new IllegalStateException("a hit that does not match");
      }
      if (inTitle && h.rank == MeetingQueries.TITLE_RANK) {
        h.field = MeetingDocument.TITLE;
        continue;
      }
      // The same score summed in another order may differ in its last bit: that is a tie.
      boolean minutesGiveMore = inMinutes >= inTranscript * (1 - 1e-6f);
      if (minutesMatch && !minutesGiveMore && transcriptMatches == null) {
        transcriptMatches = !all || at(transcriptHoldsScorer, local);
      }
      h.field = minutesMatch && (minutesGiveMore || !transcriptMatches) ? MeetingDocument.PROTOCOL
          : MeetingDocument.TRANSCRIPT;
    }
  }

  /**
   * The query's counted words each hit holds, by which a {@link Match#MOST} page is put in its
   * order: more of them first, then rank, then as collected (the time, newest first). The
   * collector ordered by words plus rank in one float, whose last bits may blur two ranks that
   * differ in them; the exact words and ranks decide. {@code byDoc}: hits in document order.
   */
  private void countWords(SearchQuery q, Hit[] byDoc) throws IOException, SearchUnavailable {
    Weight words = weight(MeetingQueries.coordination(q));
    Leaves leaves = new Leaves(searcher);
    Scorer scorer = null;
    for (Hit h : byDoc) {
      checkTime();
      if (leaves.moveTo(h.doc)) scorer = words.scorer(leaves.leaf);
      int local = h.doc - leaves.leaf.docBase;
      h.words = at(scorer, local) ? Math.round(scorer.score()) : 0;
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

  /** Each hit's snippet and, with {@code moments} above 0, its moments; {@code byDoc}: the hits in document order. */
  private void mark(Highlights highlights, Hit[] byDoc, int moments) throws IOException, SearchUnavailable {
    Leaves leaves = new Leaves(searcher);
    for (Hit h : byDoc) {
      checkTime();
      if (leaves.moveTo(h.doc)) highlights.moveTo(leaves.leaf.reader());
      int local = h.doc - leaves.leaf.docBase;
      if (moments > 0) h.moments = highlights.moments(local, moments);
      h.snippet = highlights.snippet(local, h.field, h.display.title());
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
