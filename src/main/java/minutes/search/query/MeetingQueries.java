package minutes.search.query;

import java.util.ArrayList;
import java.util.List;
import minutes.search.index.MeetingDocument;
import minutes.search.text.PhraseLayout;
import minutes.search.text.SearchQuery;
import minutes.search.text.SearchQuery.Match;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;

/**
 * A search's clauses as Lucene queries over one meeting's fields: each word a term, each phrase
 * a phrase query read through the index's pair terms and neighbour codes ({@link PhraseLayout}).
 * Stateless.
 */
public final class MeetingQueries {
  private MeetingQueries() {}

  /** The rank of every title hit (api-spec 2.5). */
  public static final float TITLE_RANK = 0.35f;

  /**
   * The minutes' share of a meeting's content rank; the transcript has the rest. The minutes
   * are the strongest single signal of what a meeting was about, the transcript holds what was
   * said word for word: weighed evenly they found the right meeting more often than either
   * alone or the better of the two (docs/BENCHMARKS.md, "Relevance").
   */
  static final float MINUTES_SHARE = 0.5f;

  /**
   * Where the query matches: title, minutes and transcript, in that order (the order
   * {@link MeetingSearch} relies on). With {@link Match#ALL} a field matches when it holds every
   * clause, with {@link Match#MOST} when it holds any.
   */
  static Query[] fields(SearchQuery q, Match match) {
    return new Query[] {inTitle(q, match), inField(q, MeetingDocument.PROTOCOL, match),
        inField(q, MeetingDocument.TRANSCRIPT, match)};
  }

  /**
   * A meeting's rank (decisions.md, "Finding what people ask"): the title's {@link #TITLE_RANK}
   * where the title matches, else, or where higher, its content rank, {@link #MINUTES_SHARE} of
   * the minutes' score plus the rest of the transcript's, each the weighted mean over every clause
   * it holds. With {@link Match#ALL} the content counts where the minutes or the transcript hold
   * every clause; with {@link Match#MOST} where either holds any. {@code fields}: {@link #fields}.
   * <p>Under ALL the content is the better of two sums that are equal wherever both match: the
   * minutes holding every clause plus whatever the transcript holds, and the other way round. Each
   * sum is led by its field's conjunction, so the optional clauses of the other field are read
   * only for meetings that match; one sum under a filter of both conjunctions read every clause of
   * both fields for every candidate (docs/BENCHMARKS.md has the cost).
   */
  static Query rank(SearchQuery q, Match match, Query[] fields) {
    if (match == Match.MOST) {
      Query content = new BooleanQuery.Builder()
          .add(minutesShare(q), Occur.SHOULD).add(transcriptShare(q), Occur.SHOULD).build();
      return new DisjunctionMaxQuery(List.of(fields[0], content), 0f);
    }
    Query minutesHoldAll = new BooleanQuery.Builder()
        .add(new BoostQuery(fields[1], MINUTES_SHARE), Occur.MUST).add(transcriptShare(q), Occur.SHOULD).build();
    Query transcriptHoldsAll = new BooleanQuery.Builder()
        .add(new BoostQuery(fields[2], 1 - MINUTES_SHARE), Occur.MUST).add(minutesShare(q), Occur.SHOULD).build();
    return new DisjunctionMaxQuery(List.of(fields[0], minutesHoldAll, transcriptHoldsAll), 0f);
  }

  /** The minutes' part of the content rank: their score for every clause they hold, times their share. */
  static Query minutesShare(SearchQuery q) {
    return new BoostQuery(inField(q, MeetingDocument.PROTOCOL, Match.MOST), MINUTES_SHARE);
  }

  /** The transcript's part of the content rank. */
  static Query transcriptShare(SearchQuery q) {
    return new BoostQuery(inField(q, MeetingDocument.TRANSCRIPT, Match.MOST), 1 - MINUTES_SHARE);
  }

  /**
   * The clauses in this one field, each weighted by how much it tells over the weight of all
   * (w / sum of w), so that a field's score is the weighted mean of its clauses' scores and stays
   * in (0, 1) (see RankSimilarity); a clause the field lacks adds nothing. {@code match}: whether
   * the field must hold every clause or any.
   */
  public static Query inField(SearchQuery q, String field, Match match) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    float[] shares = shares(q);
    for (int c = 0; c < shares.length; c++) {
      Query clause = clause(field, q.clauses.get(c));
      b.add(new BoostQuery(clause, shares[c]), match == Match.ALL ? Occur.MUST : Occur.SHOULD);
    }
    return b.build();
  }

  /** Each clause's weight over the weight of all: its share of a field's score. */
  private static float[] shares(SearchQuery q) {
    float[] shares = q.weights();
    float all = 0;
    for (float w : shares) all += w;
    for (int c = 0; c < shares.length; c++) shares[c] /= all;
    return shares;
  }

  /**
   * All that the queries made here take from q: two readings of a query with equal scorings
   * have equal queries, and the other way round. Cheaper to compare than the queries (a search
   * over a corpus of 17 languages compared 17 readings' queries: docs/BENCHMARKS.md).
   */
  record Scoring(List<List<String>> clauses, List<Float> shares, long counted) {
    static Scoring of(SearchQuery q) {
      List<Float> shares = new ArrayList<>(q.clauses.size());
      for (float share : MeetingQueries.shares(q)) shares.add(share);
      return new Scoring(q.clauses, shares, q.counted());
    }
  }

  /**
   * With {@link Match#MOST}: 1 for each clause that counts ({@link SearchQuery#counted}) and that
   * the meeting holds in any field, so that meetings holding more of the query's words score
   * higher than any rank can make up for.
   */
  static Query coordination(SearchQuery q) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    long counted = q.counted();
    for (int c = 0; c < q.clauses.size(); c++) {
      if ((counted >>> c & 1) == 0) continue;
      List<String> words = q.clauses.get(c);
      Query anywhere = new DisjunctionMaxQuery(List.of(clause(MeetingDocument.TITLE, words),
          clause(MeetingDocument.PROTOCOL, words), clause(MeetingDocument.TRANSCRIPT, words)), 0f);
      b.add(new ConstantScoreQuery(anywhere), Occur.SHOULD);
    }
    return b.build();
  }

  /** One word as a term, a phrase as a phrase query. */
  private static Query clause(String field, List<String> words) {
    return words.size() == 1 ? new TermQuery(new Term(field, words.get(0))) : phrase(field, words);
  }

  public static Query phrase(String field, List<String> words) {
    List<PhraseLayout.Placed> terms = PhraseLayout.linkedLayout(words);
    if (terms.stream().anyMatch(PhraseLayout.Placed::linked)) return new NeighbourPhraseQuery(field, terms);
    PhraseQuery.Builder p = new PhraseQuery.Builder();
    for (PhraseLayout.Placed t : terms) p.add(new Term(field, t.term()), t.position());
    return p.build();
  }

  /** A title match scores exactly {@link #TITLE_RANK}, whatever the words. */
  static Query inTitle(SearchQuery q, Match match) {
    return new BoostQuery(new ConstantScoreQuery(inField(q, MeetingDocument.TITLE, match)), TITLE_RANK);
  }
}
