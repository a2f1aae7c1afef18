package minutes.search.query;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import minutes.search.index.MeetingDocument;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexOrDocValuesQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * The optional filters of GET /search (decisions.md, "Search filters"), ANDed, each null when
 * absent: {@code from} (inclusive) and {@code to} (exclusive) bound
 * {@code coalesce(starts_at, created_at)}; {@code platform}; {@code participant}, an email
 * compared as {@link #participantTerm} folds it; {@code companyDomains}, the current domains
 * of the {@code company} asked for (empty: an unknown company, which matches nothing);
 * {@code language}, a meeting's language subtag. Immutable.
 */
public record SearchFilters(Instant from, Instant to, String platform, String participant, List<String> companyDomains,
    String language) {
  public static final SearchFilters NONE = new SearchFilters(null, null, null, null, null, null);

  /**
   * How a participant's email and the {@code participant} parameter are compared: lower-cased
   * as a whole ({@link Locale#ROOT}), as participant and company domains are.
   */
  static String participantTerm(String email) {
    return email.toLowerCase(Locale.ROOT);
  }

  /** The FILTER clauses these filters add to a search. */
  List<Query> clauses() {
    List<Query> out = new ArrayList<>(4);
    if (from != null || to != null) {
      long lo = from == null ? Long.MIN_VALUE : from.getEpochSecond();
      long hi = to == null ? Long.MAX_VALUE : to.getEpochSecond() - 1; // to is exclusive; times are whole seconds
      // Points find the range when it is the most selective clause; doc values check it
      // cheaply on the few documents the words lead to when it is not. Risk:
      // IndexOrDocValuesQuery is @lucene.experimental; SearchFiltersTest pins the range's hits.
      out.add(new IndexOrDocValuesQuery(LongPoint.newRangeQuery(MeetingDocument.AT, lo, hi),
          NumericDocValuesField.newSlowRangeQuery(MeetingDocument.AT, lo, hi)));
    }
    if (platform != null) out.add(new TermQuery(new Term(MeetingDocument.PLATFORM, platform)));
    if (language != null) out.add(new TermQuery(new Term(MeetingDocument.LANGUAGE, language)));
    if (participant != null) {
      out.add(new TermQuery(new Term(MeetingDocument.PARTICIPANT, participantTerm(participant))));
    }
    if (companyDomains != null) {
      out.add(companyDomains.isEmpty() ? new MatchNoDocsQuery("no such company")
          : new TermInSetQuery(MeetingDocument.PARTICIPANT_DOMAIN, companyDomains.stream().map(BytesRef::new).toList()));
    }
    return out;
  }
}
