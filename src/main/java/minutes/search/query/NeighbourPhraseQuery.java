package minutes.search.query;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import minutes.search.text.Neighbours;
import minutes.search.text.PhraseLayout;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SlowImpactsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.ExactPhraseMatcher;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.ImpactsDISI;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MaxScoreCache;
import org.apache.lucene.search.PhraseMatcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PhraseWeight;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;
import org.apache.lucene.search.similarities.Similarity.SimScorer;
import org.apache.lucene.util.BytesRef;

/**
 * An exact phrase in which some terms must also have given {@link Neighbours} in their
 * payload, standing for words the query leaves out ({@link PhraseLayout#linkedLayout}). It
 * matches exactly where the phrase of all the words would, with the same phrase frequency,
 * so it scores the same as a {@link PhraseQuery} of all the words. Lucene's own exact phrase
 * matching does the work; only a constrained term's positions are filtered first.
 */
public final class NeighbourPhraseQuery extends Query {
  private final String field;
  private final List<PhraseLayout.Placed> terms;

  NeighbourPhraseQuery(String field, List<PhraseLayout.Placed> terms) {
    this.field = field;
    this.terms = List.copyOf(terms);
  }

  @Override
  public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) throws IOException {
    if (terms.size() == 1) return wordWeight(searcher, scoreMode, boost); // Lucene's phrase matching needs two
    return new PhraseWeight(this, field, searcher, scoreMode) {
      @Override
      protected SimScorer getStats(IndexSearcher s) throws IOException {
        return simScorer(s, boost);
      }

      @Override
      protected PhraseMatcher getPhraseMatcher(LeafReaderContext context, SimScorer scorer, boolean exposeOffsets)
          throws IOException {
        // scorer is never null: PhraseWeight puts a constant one in place of a null getStats().
        // Risk: Terms, TermsEnum and ImpactsEnum are @lucene.experimental (Lucene's postings
        // API, stable in practice since 4.0); a change fails to compile or, in behaviour, fails
        // NeighbourPhraseQueryTest's comparison with PhraseQuery.
        Terms fieldTerms = context.reader().terms(field);
        if (fieldTerms == null) return null;
        TermsEnum te = fieldTerms.iterator();
        int flags = exposeOffsets ? PostingsEnum.OFFSETS : PostingsEnum.POSITIONS;
        PhraseQuery.PostingsAndFreq[] postings = new PhraseQuery.PostingsAndFreq[terms.size()];
        float cost = 0;
        for (int i = 0; i < postings.length; i++) {
          PhraseLayout.Placed t = terms.get(i);
          Term term = new Term(field, t.term());
          if (!te.seekExact(term.bytes())) return null;
          PostingsEnum pe;
          ImpactsEnum impacts;
          if (t.linked()) {
            pe = new Linked(fieldTerms, te, t, flags);
            impacts = scoreMode == ScoreMode.TOP_SCORES ? Linked.bound(te) : new SlowImpactsEnum(pe);
          } else if (scoreMode == ScoreMode.TOP_SCORES) {
            pe = impacts = te.impacts(flags);
          } else {
            pe = te.postings(null, flags);
            impacts = new SlowImpactsEnum(pe);
          }
          postings[i] = new PhraseQuery.PostingsAndFreq(pe, impacts, t.position(), term);
          cost += PhraseQuery.termPositionsCost(te);
        }
        // Risk: ExactPhraseMatcher, PhraseWeight's constructor, PhraseMatcher and
        // PhraseQuery.PostingsAndFreq are @lucene.internal, so a Lucene upgrade may change them without notice. Relied on:
        // exact positions from the (filtered) postings, phrase frequency and block-max skipping
        // as PhraseQuery has them. NeighbourPhraseQueryTest pins matches, scores, top hits and
        // explanations against a plain PhraseQuery; a change that breaks this fails it.
        return new ExactPhraseMatcher(postings, scoreMode, scorer, cost);
      }
    };
  }

  /**
   * RankSimilarity scores without term statistics (they would reveal other workspaces'
   * words); null when no document has the field, so nothing matches.
   */
  private SimScorer simScorer(IndexSearcher searcher, float boost) throws IOException {
    // Risk: CollectionStatistics and IndexSearcher.collectionStatistics are @lucene.experimental;
    // only its presence (null: no document has the field) is used, which any search test shows.
    CollectionStatistics collection = searcher.collectionStatistics(field);
    return collection == null ? null : searcher.getSimilarity().scorer(boost, collection);
  }

  /** One word with neighbours ("the needs"): the count of its positions that have them is the phrase frequency. */
  private Weight wordWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) throws IOException {
    SimScorer sim = simScorer(searcher, boost);
    PhraseLayout.Placed word = terms.get(0);
    return new Weight(this) {
      @Override
      public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
        Terms fieldTerms = context.reader().terms(field);
        if (sim == null || fieldTerms == null) return null;
        TermsEnum te = fieldTerms.iterator();
        if (!te.seekExact(new BytesRef(word.term()))) return null;
        Linked postings = new Linked(fieldTerms, te, word, PostingsEnum.POSITIONS);
        // Risk: ImpactsDISI and MaxScoreCache are @lucene.internal (see the phrase matcher above);
        // NeighbourPhraseQueryTest's best-five checks pin the skipping they do.
        ImpactsDISI impacts = scoreMode == ScoreMode.TOP_SCORES
            ? new ImpactsDISI(postings, new MaxScoreCache(Linked.bound(te), sim)) : null;
        return new DefaultScorerSupplier(new WordScorer(postings, impacts, sim, context.reader().getNormValues(field),
            PhraseQuery.termPositionsCost(te)));
      }

      @Override
      public Explanation explain(LeafReaderContext context, int doc) throws IOException {
        Scorer scorer = scorer(context);
        if (scorer != null && scorer.iterator().advance(doc) == doc) {
          return Explanation.match(scorer.score(), "words next to " + word.term() + " as the phrase " + NeighbourPhraseQuery.this);
        }
        return Explanation.noMatch("no " + NeighbourPhraseQuery.this);
      }

      @Override
      public boolean isCacheable(LeafReaderContext context) {
        return true;
      }
    };
  }

  /** Scores one word with neighbours: the number of its positions that have them is its phrase frequency. */
  private static final class WordScorer extends Scorer {
    private final Linked postings;
    private final ImpactsDISI impacts; // null unless only the best hits are wanted
    private final SimScorer sim;
    private final NumericDocValues norms;
    private final TwoPhaseIterator twoPhase;
    private float minCompetitive;
    private int freq;

    WordScorer(Linked postings, ImpactsDISI impacts, SimScorer sim, NumericDocValues norms, float matchCost) {
      this.postings = postings;
      this.impacts = impacts;
      this.sim = sim;
      this.norms = norms;
      // Risk: TwoPhaseIterator is @lucene.experimental; NeighbourPhraseQueryTest pins the matches.
      twoPhase = new TwoPhaseIterator(impacts == null ? postings : impacts) {
        @Override
        public boolean matches() throws IOException {
          // The word's own count bounds the score: a document that cannot compete is dropped unread.
          if (minCompetitive > 0 && sim.score(postings.freq(), norm()) < minCompetitive) return false;
          freq = postings.count();
          return freq > 0;
        }

        @Override
        public float matchCost() {
          return matchCost;
        }
      };
    }

    private long norm() throws IOException {
      return norms != null && norms.advanceExact(postings.docID()) ? norms.longValue() : 1L;
    }

    @Override
    public int docID() {
      return postings.docID();
    }

    @Override
    public DocIdSetIterator iterator() {
      return TwoPhaseIterator.asDocIdSetIterator(twoPhase);
    }

    @Override
    public TwoPhaseIterator twoPhaseIterator() {
      return twoPhase;
    }

    @Override
    public int advanceShallow(int target) throws IOException {
      return impacts == null ? DocIdSetIterator.NO_MORE_DOCS : impacts.getMaxScoreCache().advanceShallow(target);
    }

    @Override
    public float getMaxScore(int upTo) throws IOException {
      return impacts == null ? Float.MAX_VALUE : impacts.getMaxScoreCache().getMaxScore(upTo);
    }

    @Override
    public void setMinCompetitiveScore(float minScore) {
      minCompetitive = minScore;
      if (impacts != null) impacts.setMinCompetitiveScore(minScore);
    }

    @Override
    public float score() throws IOException {
      return sim.score(freq, norm());
    }
  }

  /**
   * A word's postings that return only the positions whose payload has the wanted
   * neighbours, read lazily. {@link #freq} is the word's own count, an upper bound: Lucene's
   * phrase matching prunes documents by it before reading any position (most documents, once
   * the best 50 are in) and reads at most that many positions, getting {@link #NO_MORE} once
   * the filtered ones are used up, rather than reading every position up front to count them
   * exactly.
   *
   * <p>Documents without a neighbour word cannot match, so where a neighbour occurs in fewer
   * documents than the word, only documents holding it are visited: "we should" in minutes,
   * written in the third person, reads the positions of "should" in the few hundred that
   * say "we" rather than in nearly all (0.9 ms of 1.1 at 20,000 meetings, docs/BENCHMARKS.md).
   */
  private static final class Linked extends PostingsEnum {
    /** After the last filtered position: beyond any real position, and far from overflowing when phrase offsets are added. */
    static final int NO_MORE = 1 << 30;
    private final PostingsEnum in;
    private final int before, after;
    /** The document being read, and how many of its positions are still unread. */
    private int doc = -1, unread;
    private int start = -1, end = -1;

    /** The documents of neighbour words rarer than the word, which a match must also hold; often none. */
    private final PostingsEnum[] with;

    /**
     * The postings of the term te stands on (in {@code field}), with t's neighbours;
     * {@code flags} as for {@link TermsEnum#postings}.
     */
    Linked(Terms field, TermsEnum te, PhraseLayout.Placed t, int flags) throws IOException {
      in = te.postings(null, flags | PostingsEnum.PAYLOADS);
      before = t.before();
      after = t.after();
      with = rarerNeighbours(field, te.docFreq(), before, after);
    }

    private static PostingsEnum[] rarerNeighbours(Terms field, int docFreq, int... codes) throws IOException {
      List<PostingsEnum> rarer = new ArrayList<>(2);
      TermsEnum te = field.iterator();
      for (int code : codes) {
        if (code == 0 || !te.seekExact(new BytesRef(Neighbours.words().get(code - 1)))) continue;
        if (te.docFreq() < docFreq) rarer.add(te.postings(null, PostingsEnum.NONE));
      }
      return rarer.toArray(PostingsEnum[]::new);
    }

    /** Impacts for skipping: the word's own frequencies bound the filtered ones from above. */
    static ImpactsEnum bound(TermsEnum te) throws IOException {
      return te.impacts(PostingsEnum.FREQS);
    }

    private void sync() throws IOException {
      if (doc == in.docID()) return;
      doc = in.docID();
      unread = in.freq();
    }

    @Override
    public int freq() throws IOException {
      return in.freq();
    }

    @Override
    public int nextPosition() throws IOException {
      sync();
      while (unread > 0) {
        unread--;
        int position = in.nextPosition();
        if (Neighbours.around(in.getPayload(), before, after)) {
          start = in.startOffset();
          end = in.endOffset();
          return position;
        }
      }
      return NO_MORE;
    }

    /** The exact number of this document's positions that pass, read from where reading stands. */
    int count() throws IOException {
      int n = 0;
      while (nextPosition() != NO_MORE) n++;
      return n;
    }

    @Override
    public int startOffset() {
      return start;
    }

    @Override
    public int endOffset() {
      return end;
    }

    @Override
    public BytesRef getPayload() {
      return null; // the payload was the filter; callers of a phrase never ask for it
    }

    @Override
    public int docID() {
      return in.docID();
    }

    @Override
    public int nextDoc() throws IOException {
      return withNeighbours(in.nextDoc());
    }

    @Override
    public int advance(int target) throws IOException {
      return withNeighbours(in.advance(target));
    }

    /** The first document from {@code doc} on that also holds every rarer neighbour. */
    private int withNeighbours(int doc) throws IOException {
      for (int i = 0; i < with.length && doc != NO_MORE_DOCS; ) {
        int at = with[i].docID() < doc ? with[i].advance(doc) : with[i].docID();
        if (at == doc) {
          i++;
        } else {
          doc = in.advance(at);
          i = 0;
        }
      }
      return doc;
    }

    @Override
    public long cost() {
      long cost = in.cost();
      for (PostingsEnum w : with) cost = Math.min(cost, w.cost());
      return cost;
    }
  }

  @Override
  public void visit(QueryVisitor visitor) {
    if (!visitor.acceptField(field)) return;
    visitor.consumeTerms(this, terms.stream().map(t -> new Term(field, t.term())).toArray(Term[]::new));
  }

  @Override
  public String toString(String defaultField) {
    StringBuilder s = new StringBuilder(field.equals(defaultField) ? "" : field + ":").append('"');
    for (PhraseLayout.Placed t : terms) {
      if (t != terms.get(0)) s.append(' ');
      s.append(t.term()).append('@').append(t.position());
      if (t.linked()) s.append('<').append(t.before()).append(',').append(t.after()).append('>');
    }
    return s.append('"').toString();
  }

  @Override
  public boolean equals(Object other) {
    return sameClassAs(other) && field.equals(((NeighbourPhraseQuery) other).field)
        && terms.equals(((NeighbourPhraseQuery) other).terms);
  }

  @Override
  public int hashCode() {
    return Objects.hash(classHash(), field, terms);
  }
}
