package minutes.search.query;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import minutes.search.index.MeetingDocument;
import minutes.search.text.Reading;
import minutes.search.text.SearchAnalyzer;
import minutes.search.text.SearchQuery;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.util.BytesRef;

/**
 * A query read once per {@link Reading} present among the index's meetings (decisions.md
 * "Languages"): each reading's clauses match only the meetings of its languages, and the default
 * reading (English, und and languages without rules of their own) every other meeting. Where
 * the index holds no meeting of a language with rules of its own, or the search asks for one
 * language, there is one reading and the search is the one minutes made before languages.
 * Immutable.
 */
record Readings(List<Read> all) {
  static {
    // SearchQuery.MAX_CLAUSES bounds one reading's query within Lucene's 1024 nested clauses; a search
    // reads q once per reading present, so it may need that much for each (a 24-word q over ten
    // readings was a 500: LanguageOracleTest).
    IndexSearcher.setMaxClauseCount(Math.max(IndexSearcher.getMaxClauseCount(), 1024 * Reading.values().length));
  }

  /**
   * One reading of the query: its clauses, the analyzer that read them, and the languages it
   * matches ({@code except}: all but those).
   */
  record Read(SearchQuery query, SearchAnalyzer analyzer, List<BytesRef> languages, boolean except) {
    /** {@code scored}, matching only this reading's meetings. */
    Query restrict(Query scored) {
      Query in = new TermInSetQuery(MeetingDocument.LANGUAGE, languages);
      return new BooleanQuery.Builder().add(scored, Occur.MUST).add(in, except ? Occur.MUST_NOT : Occur.FILTER).build();
    }
  }

  /**
   * The readings of {@code q} (read with the default analyzer) over the languages present in
   * {@code reader}, or of the one {@code language} asked for (null: any).
   */
  static Readings of(SearchQuery q, String language, IndexReader reader) throws IOException {
    SearchAnalyzer standard = SearchAnalyzer.of(Reading.DEFAULT);
    if (language != null) {
      SearchAnalyzer own = SearchAnalyzer.of(language);
      return new Readings(List.of(new Read(own == standard ? q : read(q, own), own, List.of(), true)));
    }
    Map<Reading, Set<BytesRef>> present = new EnumMap<>(Reading.class);
    for (LeafReaderContext leaf : reader.leaves()) {
      // Risk: Terms and TermsEnum are @lucene.experimental (the postings API); LanguageSearchTest
      // would find no other language's meeting if this walk of a segment's languages changed.
      Terms terms = leaf.reader().terms(MeetingDocument.LANGUAGE);
      if (terms == null) continue;
      TermsEnum e = terms.iterator();
      for (BytesRef t = e.next(); t != null; t = e.next()) {
        Reading r = Reading.of(t.utf8ToString());
        if (r != Reading.DEFAULT) present.computeIfAbsent(r, k -> new TreeSet<>()).add(BytesRef.deepCopyOf(t));
      }
    }
    if (present.isEmpty()) return new Readings(List.of(new Read(q, standard, List.of(), true)));
    List<BytesRef> own = present.values().stream().flatMap(Set::stream).toList();
    List<Read> all = new ArrayList<>();
    all.add(new Read(q, standard, own, true));
    present.forEach((r, languages) -> {
      SearchQuery read = read(q, SearchAnalyzer.of(r));
      if (!read.isEmpty()) all.add(new Read(read, SearchAnalyzer.of(r), List.copyOf(languages), false));
    });
    return new Readings(List.copyOf(all));
  }

  private static SearchQuery read(SearchQuery q, SearchAnalyzer analyzer) {
    return q.readAs(analyzer);
  }

  boolean single() {
    return all.size() == 1;
  }
}
