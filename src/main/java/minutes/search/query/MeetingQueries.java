package minutes.search.query;

import java.util.List;
import minutes.search.index.MeetingDocument;
import minutes.search.text.PhraseLayout;
import minutes.search.text.SearchQuery;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
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

  /** The query in title, minutes and transcript, in that order (the order {@link MeetingSearch} relies on). */
  public static Query[] fields(SearchQuery q) {
    return new Query[] {inTitle(q), inField(q, MeetingDocument.PROTOCOL), inField(q, MeetingDocument.TRANSCRIPT)};
  }

  /**
   * All clauses must match in this one field. Each clause is weighted 1/n, so the score is
   * the mean of the clauses' scores and stays in (0, 1) (see RankSimilarity).
   */
  public static Query inField(SearchQuery q, String field) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    float weight = 1f / q.clauses.size();
    for (List<String> c : q.clauses) {
      Query clause = c.size() == 1 ? new TermQuery(new Term(field, c.get(0))) : phrase(field, c);
      b.add(new BoostQuery(clause, weight), BooleanClause.Occur.MUST);
    }
    return b.build();
  }

  public static Query phrase(String field, List<String> words) {
    List<PhraseLayout.Placed> terms = PhraseLayout.linkedLayout(words);
    if (terms.stream().anyMatch(PhraseLayout.Placed::linked)) return new NeighbourPhraseQuery(field, terms);
    PhraseQuery.Builder p = new PhraseQuery.Builder();
    for (PhraseLayout.Placed t : terms) p.add(new Term(field, t.term()), t.position());
    return p.build();
  }

  /** A title match scores exactly {@link #TITLE_RANK}, whatever the words. */
  static Query inTitle(SearchQuery q) {
    return new BoostQuery(new ConstantScoreQuery(inField(q, MeetingDocument.TITLE)), TITLE_RANK);
  }
}
