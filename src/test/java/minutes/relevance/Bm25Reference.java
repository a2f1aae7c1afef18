package minutes.relevance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import minutes.relevance.Figures.Outcome;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.QueryBuilder;

/**
 * The reference the benchmark compares minutes with: plain BM25 as a team would get it from
 * Elasticsearch's default {@code match} query. The standard analyzer (Unicode words, lower
 * case, no stop words, no stemming), Lucene's BM25 (k1 1.2, b 0.75, the collection's own idf),
 * every word of the query an optional clause ({@link QueryBuilder#createBooleanQuery}, as a
 * match query builds it). One document per meeting (title, minutes and transcript as one
 * text), and one per turn for the "3 best turns": the right meeting's turns ranked by the same
 * query (idf over all turns, the meeting a filter).
 */
final class Bm25Reference implements AutoCloseable {
  private static final String TEXT = "text", NAME = "name", MEETING = "meeting", TURN = "turn";

  private final Analyzer analyzer = new StandardAnalyzer();
  private final QueryBuilder builder = new QueryBuilder(analyzer);
  private final DirectoryReader meetings;
  private final DirectoryReader turns;

  Bm25Reference(QmsumSet set) {
    try {
      meetings = index(set, false);
      turns = index(set, true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private DirectoryReader index(QmsumSet set, boolean perTurn) throws IOException {
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
      for (QmsumSet.Meeting m : set.meetings()) {
        if (perTurn) {
          for (QmsumSet.Turn t : m.turns()) {
            Document d = new Document();
            d.add(new StringField(MEETING, m.name(), Field.Store.NO));
            d.add(new StoredField(TURN, t.index()));
            d.add(new TextField(TEXT, t.text(), Field.Store.NO));
            w.addDocument(d);
          }
        } else {
          StringBuilder text = new StringBuilder("Meeting ").append(m.name()).append('\n').append(m.summary());
          m.turns().forEach(t -> text.append('\n').append(t.text()));
          Document d = new Document();
          d.add(new StringField(NAME, m.name(), Field.Store.YES));
          d.add(new TextField(TEXT, text.toString(), Field.Store.NO));
          w.addDocument(d);
        }
      }
    }
    return DirectoryReader.open(dir);
  }

  /** The figures of these queries in this form (the moments column: the right meeting among the first 10, with a right turn among its 3 best). */
  Figures measure(List<QmsumSet.Query> queries, QueryForms form) {
    return measure(queries, form, q -> null);
  }

  /**
   * As {@link #measure(List, QueryForms)}, ranking only the meetings {@code within} names for a
   * query's text (null: every meeting): how BM25 orders another engine's hits.
   */
  Figures measure(List<QmsumSet.Query> queries, QueryForms form, Function<String, Set<String>> within) {
    IndexSearcher byMeeting = new IndexSearcher(meetings);
    IndexSearcher byTurn = new IndexSearcher(turns);
    List<Outcome> outcomes = new ArrayList<>();
    try {
      for (QmsumSet.Query q : queries) {
        String text = form.of(q.text());
        Query match = builder.createBooleanQuery(TEXT, text, BooleanClause.Occur.SHOULD);
        Set<String> names = match == null ? null : within.apply(text);
        if (match == null || names != null && names.isEmpty()) {
          outcomes.add(Outcome.NONE);
          continue;
        }
        Query ranked = names == null ? match : new BooleanQuery.Builder()
            .add(new TermInSetQuery(NAME, names.stream().map(BytesRef::new).toList()), BooleanClause.Occur.FILTER)
            .add(match, BooleanClause.Occur.MUST)
            .build();
        ScoreDoc[] hits = byMeeting.search(ranked, 10).scoreDocs;
        int rank = 0;
        for (int i = 0; i < hits.length && rank == 0; i++) {
          if (byMeeting.storedFields().document(hits[i].doc).get(NAME).equals(q.meeting())) rank = i + 1;
        }
        Query inMeeting = new BooleanQuery.Builder()
            .add(new TermQuery(new Term(MEETING, q.meeting())), BooleanClause.Occur.FILTER)
            .add(match, BooleanClause.Occur.MUST)
            .build();
        boolean rightTurn = false;
        for (ScoreDoc turn : byTurn.search(inMeeting, 3).scoreDocs) {
          rightTurn |= q.answeredBy(byTurn.storedFields().document(turn.doc).getField(TURN).numericValue().intValue());
        }
        outcomes.add(new Outcome(hits.length > 0, rank, rank > 0 && rightTurn, rightTurn));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Figures.of(outcomes);
  }

  @Override
  public void close() throws IOException {
    meetings.close();
    turns.close();
  }
}
