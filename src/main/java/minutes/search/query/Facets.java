package minutes.search.query;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import minutes.search.index.MeetingDocument;
import minutes.store.Db;
import minutes.store.KeptByVersion;
import minutes.store.WorkspaceCompanies;
import org.apache.lucene.facet.FacetResult;
import org.apache.lucene.facet.FacetsCollector;
import org.apache.lucene.facet.LabelAndValue;
import org.apache.lucene.facet.sortedset.DefaultSortedSetDocValuesReaderState;
import org.apache.lucene.facet.sortedset.SortedSetDocValuesFacetCounts;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.BytesRef;

/**
 * Facet counts of GET /search (decisions.md, "Search for search-heavy clients"): for every
 * meeting a search matches, not only its page, the meetings per platform, participant (lower-case
 * email), month ({@code YYYY-MM} of coalesce(starts_at, created_at), UTC) and company. The first
 * three are Lucene facet module counts over sorted-set doc values. Companies are not in the index,
 * since their domains change without a reindex: each meeting's participant domains are, and a
 * request maps them to the workspace's companies as they are now, counting a meeting once per
 * company however many of its participants come from it. A company of one domain counts what
 * that domain counts, which the facet module counts in the same pass as the other three; only
 * companies of several domains need a walk of the matches, since a meeting with two of them
 * counts once. Thread-safe; one per server.
 */
public final class Facets {
  static final String PLATFORM = MeetingDocument.FACET_PLATFORM, COMPANY = "company",
      PARTICIPANT = MeetingDocument.FACET_PARTICIPANT, MONTH = MeetingDocument.FACET_MONTH,
      LANGUAGE = MeetingDocument.FACET_LANGUAGE;
  /** Participants' domains: counted as a dimension, answered only through {@link #COMPANY}. */
  static final String DOMAIN = MeetingDocument.FACET_DOMAIN;
  /** The facet names a request may ask for, in the order the API documents them. */
  public static final List<String> NAMES = List.of(PLATFORM, COMPANY, PARTICIPANT, MONTH, LANGUAGE);

  // Risk: SortedSetDocValuesFacetCounts is @lucene.experimental (the facet module's counts over
  // sorted-set doc values); a change shows as other counts in SearchForClientsTest and
  // SearchForClientsPropertyTest, or fails to compile.

  /**
   * The facet module's view of the live reader's ordinals, built once per reader (it maps every
   * segment's ordinals to global ones, milliseconds at 20,000 meetings) and kept until a search
   * meets a newer reader.
   */
  private final AtomicReference<DefaultSortedSetDocValuesReaderState> state = new AtomicReference<>();
  /**
   * Each workspace's {@link Companies} by the import count they were read at: imports are the
   * only writers of companies ({@link Db#knownImportCount}), and an import that changes only
   * companies leaves the data version as it was, so the count, not the data version, tells
   * whether a held list is still the database's. Reading the 400 companies of a workspace with
   * their domains was a quarter of a facet search's CPU at 20,000 meetings (issue 32).
   */
  private final KeptByVersion<Companies> companies = new KeptByVersion<>(64);

  /**
   * The counts of {@code names} over the matches in {@code matches}, at most {@code limit} values
   * each: highest counts first, ties by value ascending; months newest first. {@code companies}:
   * the workspace's companies, read only when {@code company} is asked for ({@link Companies#NONE} otherwise).
   */
  Map<String, List<?>> count(IndexReader reader, FacetsCollector matches, List<String> names, int limit,
      Companies companies) throws IOException {
    Map<String, List<?>> out = new LinkedHashMap<>();
    boolean none = matches.getMatchingDocs().stream().allMatch(m -> m.totalHits() == 0);
    SortedSetDocValuesFacetCounts counts = none ? null : counts(reader, matches);
    for (String name : names) {
      if (none) {
        out.put(name, List.of());
      } else if (name.equals(COMPANY)) {
        out.put(name, companies(matches, counts, companies, limit, false));
      } else {
        // Months by date: all of them (a few per year), the newest kept; the rest by count: the
        // facet module's top values, whose ties it breaks by value, so only those are read.
        out.put(name, name.equals(MONTH) ? values(counts.getAllChildren(name), true, limit)
            : values(counts.getTopChildren(limit, name), false, limit));
      }
    }
    return out;
  }

  /**
   * The workspace's companies as the database holds them now: the held ones when the import
   * count is still the one they were read at, else read ({@link WorkspaceCompanies#read}) and
   * held when no import committed between the count and the read (the search reads statement
   * by statement, and an import may commit between any two of them).
   */
  Companies companies(Connection db, long workspace) throws SQLException {
    Optional<Long> imports = Db.knownImportCount(db);
    String key = Long.toString(workspace);
    Optional<Companies> held = imports.flatMap(n -> companies.get(n, key));
    if (held.isPresent()) return held.get();
    Companies read = new Companies(WorkspaceCompanies.read(db, workspace));
    if (imports.isPresent() && imports.equals(Db.knownImportCount(db))) companies.put(imports.get(), key, read);
    return read;
  }

  /** The facet module's counts of every dimension over {@code matches}, some of which match. */
  SortedSetDocValuesFacetCounts counts(IndexReader reader, FacetsCollector matches) throws IOException {
    return new SortedSetDocValuesFacetCounts(state(reader), matches);
  }

  private DefaultSortedSetDocValuesReaderState state(IndexReader reader) throws IOException {
    DefaultSortedSetDocValuesReaderState s = state.get();
    if (s == null || s.getReader() != reader) {
      s = new DefaultSortedSetDocValuesReaderState(reader, MeetingDocument.FACETS);
      state.set(s);
    }
    return s;
  }

  /** A dimension's values with their counts, in the answer's order, at most {@code limit}. */
  private static List<SearchHit.FacetCount> values(FacetResult all, boolean newestFirst, int limit) {
    if (all == null) return List.of(); // no matching meeting has a value of this dimension
    Comparator<LabelAndValue> order = newestFirst ? Comparator.comparing((LabelAndValue v) -> v.label).reversed()
        : Comparator.comparingInt((LabelAndValue v) -> -v.value.intValue()).thenComparing(v -> v.label);
    return Arrays.stream(all.labelValues).sorted(order).limit(limit)
        .map(v -> new SearchHit.FacetCount(v.label, v.value.intValue())).toList();
  }

  /**
   * A workspace's companies (by name, then id, as {@link WorkspaceCompanies#read} lists them)
   * with, for each domain, the companies it belongs to (indexes into {@code list}, ascending):
   * what the company facet walks the matches by, built once per list rather than once per
   * segment: {@code walked} holds only the companies of several domains, {@link #byDomain} all
   * of them (the simple way, which tests compare with).
   */
  static final class Companies {
    static final Companies NONE = new Companies(List.of());

    final List<WorkspaceCompanies.Company> list;
    final Map<BytesRef, int[]> walked;

    Companies(List<WorkspaceCompanies.Company> list) {
      this.list = list;
      this.walked = byDomain(2);
    }

    /** Every company's domains. */
    Map<BytesRef, int[]> byDomain() {
      return byDomain(1);
    }

    /** The domains of the companies with at least {@code domains} of them. */
    private Map<BytesRef, int[]> byDomain(int domains) {
      Map<BytesRef, int[]> out = new HashMap<>();
      for (int c = 0; c < list.size(); c++) {
        if (list.get(c).domains().size() < domains) continue;
        int company = c;
        for (String domain : list.get(c).domains()) {
          // Ascending, each company once: a company holds a domain once (company_domain's key).
          out.merge(new BytesRef(domain), new int[] {company}, (a, b) -> a[a.length - 1] == company ? a : appended(a, company));
        }
      }
      return out;
    }
  }

  private static int[] appended(int[] a, int value) {
    int[] out = Arrays.copyOf(a, a.length + 1);
    out[a.length] = value;
    return out;
  }

  /**
   * Up to this many domain values of a segment per company domain, the segment's domains are
   * walked once, each looked up among the companies'; with more, each company domain
   * is looked up among the segment's instead (a seek each, far costlier than a step of the
   * walk: at 20,000 meetings, 400 company domains looked up among 402 took 15-19 % of a facet
   * search's CPU).
   */
  static final int WALK_PER_COMPANY_DOMAIN = 8;

  /**
   * Meetings per company: those with a participant in one of its domains, each counted once per
   * company. A company of one domain takes its domain's count from {@code counts}, unless
   * {@code walkAll}, which walks the matches for every company: the simple way, which tests
   * compare with.
   */
  static List<SearchHit.CompanyCount> companies(FacetsCollector matches, SortedSetDocValuesFacetCounts counts,
      Companies of, int limit, boolean walkAll) throws IOException {
    List<WorkspaceCompanies.Company> companies = of.list;
    int[] count = new int[companies.size()];
    Map<BytesRef, int[]> walked = walkAll ? of.byDomain() : of.walked;
    if (!walkAll) {
      Map<String, Integer> domainCounts = new HashMap<>();
      FacetResult domains = counts.getAllChildren(DOMAIN);
      if (domains != null) for (LabelAndValue v : domains.labelValues) domainCounts.put(v.label, v.value.intValue());
      for (int c = 0; c < count.length; c++) {
        if (companies.get(c).domains().size() == 1) count[c] = domainCounts.getOrDefault(companies.get(c).domains().getFirst(), 0);
      }
    }
    int[] lastDoc = new int[companies.size()];
    for (FacetsCollector.MatchingDocs m : matches.getMatchingDocs()) {
      if (m.totalHits() == 0 || walked.isEmpty()) continue;
      SortedSetDocValues domains = DocValues.getSortedSet(m.context().reader(), MeetingDocument.PARTICIPANT_DOMAIN);
      int[][] byOrd = companiesByOrd(domains, walked,
          domains.getValueCount() <= (long) WALK_PER_COMPANY_DOMAIN * walked.size());
      if (byOrd == null) continue;
      Arrays.fill(lastDoc, -1);
      DocIdSetIterator docs = m.bits().iterator();
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if (!domains.advanceExact(doc)) continue;
        for (int i = 0; i < domains.docValueCount(); i++) {
          int[] in = byOrd[(int) domains.nextOrd()];
          if (in == null) continue;
          for (int c : in) {
            if (lastDoc[c] != doc) {
              lastDoc[c] = doc;
              count[c]++;
            }
          }
        }
      }
    }
    List<SearchHit.CompanyCount> out = new ArrayList<>();
    for (int c = 0; c < count.length; c++) {
      if (count[c] > 0) out.add(new SearchHit.CompanyCount(companies.get(c).id(), companies.get(c).name(), count[c]));
    }
    out.sort(Comparator.comparingInt((SearchHit.CompanyCount v) -> -v.count()).thenComparing(SearchHit.CompanyCount::value));
    return out.size() > limit ? out.subList(0, limit) : out;
  }

  /**
   * For each domain ordinal of a segment, the companies (indexes into the list) it belongs to;
   * null when none does. {@code walk}: the segment's domains are walked in order once, else each
   * company domain is looked up among them ({@link #WALK_PER_COMPANY_DOMAIN} chooses); both give
   * the same.
   */
  static int[][] companiesByOrd(SortedSetDocValues domains, Map<BytesRef, int[]> byDomain, boolean walk) throws IOException {
    if (byDomain.isEmpty()) return null;
    long values = domains.getValueCount();
    int[][] byOrd = null;
    if (walk) {
      // Risk: TermsEnum is @lucene.experimental (walking a segment's domain values in order); a
      // change shows as other company counts in CompanyFacetPropertyTest (walk against seek).
      TermsEnum terms = domains.termsEnum();
      for (BytesRef term = terms.next(); term != null; term = terms.next()) {
        int[] in = byDomain.get(term);
        if (in == null) continue;
        if (byOrd == null) byOrd = new int[(int) values][];
        byOrd[(int) terms.ord()] = in;
      }
    } else {
      for (Map.Entry<BytesRef, int[]> e : byDomain.entrySet()) {
        long ord = domains.lookupTerm(e.getKey());
        if (ord < 0) continue;
        if (byOrd == null) byOrd = new int[(int) values][];
        byOrd[(int) ord] = e.getValue();
      }
    }
    return byOrd;
  }
}
