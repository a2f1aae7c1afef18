package minutes.search.query;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import minutes.search.index.MeetingDocument;
import minutes.search.text.Reading;
import minutes.search.text.SearchAnalyzer;
import minutes.search.text.SearchQuery;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
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
   * matches; the first of {@link #all}, the default reading, matches every meeting but those of
   * its {@code languages}.
   */
  record Read(SearchQuery query, SearchAnalyzer analyzer, List<BytesRef> languages) {}

  /**
   * The query {@code scoredBy} makes of each reading, each matching only its reading's meetings,
   * as one query. Readings whose queries are equal (most readings read an English word as English
   * does) are asked once, over their languages together: an equal query scores a meeting the same
   * whichever reading it stands for, and each reading's own query read every posting of its words
   * again only to filter the meetings of its languages (2.8x the English p50 over 16 readings).
   * One query for all: unrestricted, the query before languages. {@code scoredBy} makes its
   * query of what {@link MeetingQueries.Scoring} holds, so readings of equal scorings are one.
   */
  Query scored(Function<SearchQuery, Query> scoredBy) {
    List<List<Read>> groups = alike();
    if (groups.size() == 1) return scoredBy.apply(all.getFirst().query());
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    for (List<Read> reads : groups) any.add(restrict(scoredBy.apply(reads.getFirst().query()), reads), Occur.SHOULD);
    return any.build();
  }

  /** The readings grouped by equal {@link MeetingQueries.Scoring}s, the default reading's group first. */
  List<List<Read>> alike() {
    Map<MeetingQueries.Scoring, List<Read>> groups = new LinkedHashMap<>();
    for (Read read : all) {
      groups.computeIfAbsent(MeetingQueries.Scoring.of(read.query()), k -> new ArrayList<>()).add(read);
    }
    return List.copyOf(groups.values());
  }

  /**
   * {@code scored} matching only the meetings of {@code reads}: those of their languages, or, with
   * the default reading among them, all but the languages the default reading leaves to others
   * and no other of {@code reads} takes.
   */
  private Query restrict(Query scored, List<Read> reads) {
    Read standard = all.getFirst();
    Set<BytesRef> languages = new TreeSet<>(reads.contains(standard) ? standard.languages() : List.of());
    for (Read read : reads) {
      if (read == standard) continue;
      if (reads.contains(standard)) read.languages().forEach(languages::remove);
      else languages.addAll(read.languages());
    }
    // Risk: KeywordField.newSetQuery is an IndexOrDocValuesQuery (@lucene.experimental) of the terms
    // and the doc values; LanguageOracleTest would find another language's meetings if it changed.
    Query in = KeywordField.newSetQuery(MeetingDocument.LANGUAGE, languages);
    return new BooleanQuery.Builder().add(scored, Occur.MUST).add(in, reads.contains(standard) ? Occur.MUST_NOT : Occur.FILTER)
        .build();
  }

  /**
   * The readings of {@code q} (read with the default analyzer) over the languages present in
   * {@code reader}, or of the one {@code language} asked for (null: any).
   */
  static Readings of(SearchQuery q, String language, IndexReader reader) throws IOException {
    SearchAnalyzer standard = SearchAnalyzer.of(Reading.DEFAULT);
    if (language != null) {
      SearchAnalyzer own = SearchAnalyzer.of(language);
      return new Readings(List.of(new Read(own == standard ? q : read(q, own), own, List.of())));
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
    if (present.isEmpty()) return new Readings(List.of(new Read(q, standard, List.of())));
    List<BytesRef> own = present.values().stream().flatMap(Set::stream).toList();
    List<Read> all = new ArrayList<>();
    all.add(new Read(q, standard, own));
    present.forEach((r, languages) -> {
      SearchQuery read = read(q, SearchAnalyzer.of(r));
      if (!read.isEmpty()) all.add(new Read(read, SearchAnalyzer.of(r), List.copyOf(languages)));
    });
    return new Readings(List.copyOf(all));
  }

  private static SearchQuery read(SearchQuery q, SearchAnalyzer analyzer) {
    return q.readAs(analyzer);
  }

  /**
   * The hits of each reading that has any, each group in document order ({@code byDoc}: all hits
   * in document order, {@code doc} their document numbers), the default reading's last: each hit's language
   * read from its doc values.
   */
  <H> Map<Read, H[]> byReading(IndexReader reader, H[] byDoc, ToIntFunction<H> doc) throws IOException {
    Read standard = all.getFirst();
    if (single()) return byDoc.length == 0 ? Map.of() : Map.of(standard, byDoc);
    Map<BytesRef, Read> readOf = new HashMap<>();
    for (Read read : all.subList(1, all.size())) read.languages().forEach(language -> readOf.put(language, read));
    Read[] read = new Read[byDoc.length];
    int first = 0;
    for (LeafReaderContext leaf : reader.leaves()) {
      int end = first;
      while (end < byDoc.length && doc.applyAsInt(byDoc[end]) < leaf.docBase + leaf.reader().maxDoc()) end++;
      if (first == end) continue;
      SortedSetDocValues languages = DocValues.getSortedSet(leaf.reader(), MeetingDocument.LANGUAGE);
      Read[] byOrd = new Read[(int) languages.getValueCount()]; // null: the default reading's
      for (int ord = 0; ord < byOrd.length; ord++) byOrd[ord] = readOf.get(languages.lookupOrd(ord));
      for (int h = first; h < end; h++) {
        if (languages.advanceExact(doc.applyAsInt(byDoc[h]) - leaf.docBase)) read[h] = byOrd[(int) languages.nextOrd()];
      }
      first = end;
    }
    Map<Read, List<H>> groups = new LinkedHashMap<>();
    for (Read r : all.subList(1, all.size())) groups.put(r, new ArrayList<>());
    groups.put(standard, new ArrayList<>());
    for (int h = 0; h < byDoc.length; h++) groups.get(read[h] == null ? standard : read[h]).add(byDoc[h]);
    Map<Read, H[]> out = new LinkedHashMap<>();
    groups.forEach((r, hits) -> {
      if (!hits.isEmpty()) out.put(r, hits.toArray(Arrays.copyOf(byDoc, 0)));
    });
    return out;
  }

  boolean single() {
    return all.size() == 1;
  }
}
