package minutes.meetings;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import minutes.GeneratedLists;
import minutes.GeneratedLists.DataSet;
import minutes.GeneratedLists.Imported;
import minutes.GeneratedLists.KeyPick;
import minutes.GeneratedLists.Paging;
import minutes.http.Pagination;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.store.Db;
import minutes.store.RawJson;
import minutes.store.Times;
import minutes.store.Totals;
import minutes.store.Vocabulary;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.Tuple.Tuple3;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * The in-memory meeting order (the fast path of GET /meetings) against the SQL answer (its
 * oracle), over generated data sets and generated requests: empty, one-sided and inverted
 * from/to ranges on the data's own times and the seconds next to them, {@code q} cut from the
 * titles (case and accent variants, LIKE's own characters, astral letters) or matching nothing,
 * status/platform/source filters, every order both ways, offsets at and past the total, limit 1
 * and 200, workspace and personal keys in every spelling. Rows, order and pagination must be
 * equal, with the order built for the very version compared.
 */
class MeetingOrderPropertyTest {
  /** A request of the list, as MeetingsApi hands it on: {@code q} as typed, bounds in the stored form. */
  record Request(KeyPick key, Tuple2<Optional<String>, Optional<String>> fromTo, Optional<String> q,
      Tuple3<Optional<String>, Optional<String>, Optional<String>> statusPlatformSource, MeetingsApi.Order order,
      boolean descending, Paging paging) {
    MeetingOrder.Query query() {
      return new MeetingOrder.Query(fromTo.get1(), fromTo.get2(), q.map(String::trim).filter(v -> !v.isEmpty()).map(Times::fold),
          statusPlatformSource.get1(), statusPlatformSource.get2(), statusPlatformSource.get3(), order, descending);
    }
  }

  // 10 data sets x 40 requests: 400 comparisons, 4-8 s depending on the store.
  @Property(tries = 10)
  void theOrderAnswersEveryRequestAsSqlDoes(@ForAll("dataSets") DataSet data,
      @ForAll @Size(40) List<@From("requests") Request> requests) throws Exception {
    GeneratedLists.Database database = GeneratedLists.Database.ofProperty();
    Imported imported = database.load(data, Scope.MEETINGS_READ);
    try (MeetingOrder order = new MeetingOrder(database.db()); Connection c = database.db().read()) {
      order.buildNow();
      long version = Db.dataVersion(c);
      MeetingsApi sql = new MeetingsApi(order, new Totals());
      for (Request r : requests) {
        Principal who = imported.key(r.key());
        MeetingOrder.Query q = r.query();
        long total = sql.fromSql(c, Optional.of(version), who, q, 0, 1).pagination().total();
        int offset = r.paging().offset(total), limit = r.paging().limit();
        Pagination.Page<RawJson> fast = order.page(version, who, q, offset, limit)
            .orElseThrow(() -> new AssertionError("the order was built for version " + version + " but not used"));
        Pagination.Page<RawJson> expected = sql.fromSql(c, Optional.of(version), who, q, offset, limit);
        String request = who + " " + q + " offset " + offset + " limit " + limit;
        assertEquals(expected.pagination(), fast.pagination(), request);
        assertEquals(expected.data(), fast.data(), request);
        GeneratedLists.classify(total, offset, !expected.data().isEmpty());
        Statistics.label("range").collect(range(q));
        Statistics.label("q").collect(q.titleContains().isEmpty() ? "none" : total > 0 ? "matches" : "matches nothing");
      }
    }
    GeneratedLists.requireRowsAndCorners();
    Statistics.label("range").coverage(check -> check.check("inverted").count(n -> n >= 10));
    Statistics.label("q").coverage(check -> check.check("matches").count(n -> n >= 10));
  }

  private static String range(MeetingOrder.Query q) {
    if (q.from().isEmpty() && q.to().isEmpty()) return "none";
    if (q.from().isEmpty() || q.to().isEmpty()) return "one-sided";
    return q.from().get().compareTo(q.to().get()) > 0 ? "inverted" : q.from().equals(q.to()) ? "empty" : "both";
  }

  @Provide
  Arbitrary<DataSet> dataSets() {
    return GeneratedLists.dataSets();
  }

  @Provide
  Arbitrary<Request> requests() {
    Arbitrary<Tuple2<Optional<String>, Optional<String>>> fromTo = Combinators.combine(
        GeneratedLists.sometimes(bounds()), GeneratedLists.sometimes(bounds())).as(Tuple::of);
    Arbitrary<Tuple3<Optional<String>, Optional<String>, Optional<String>>> filters = Combinators.combine(
        GeneratedLists.sometimes(Arbitraries.of(Vocabulary.MEETING_STATUSES)),
        GeneratedLists.sometimes(Arbitraries.of(Vocabulary.PLATFORMS)),
        GeneratedLists.sometimes(Arbitraries.of(Vocabulary.MEETING_SOURCES))).as(Tuple::of);
    return Combinators.combine(GeneratedLists.keys(), fromTo, GeneratedLists.sometimes(titleSearches()), filters,
            Arbitraries.of(MeetingsApi.Order.class), Arbitraries.of(true, false), GeneratedLists.pagings(200))
        .as(Request::new)
        // The corners are in the pools already; jqwik's own edge cases, mixed into the list, made most requests alike.
        .withoutEdgeCases();
  }

  /** The data's times, the seconds next to them, and the starts of days around them, as Params gives them on. */
  private static Arbitrary<String> bounds() {
    Arbitrary<String> nearTimes = Combinators.combine(Arbitraries.of(GeneratedLists.TIMES), Arbitraries.integers().between(-1, 1))
        .as((t, shift) -> Times.format(Instant.parse(t).plusSeconds(shift)));
    Arbitrary<String> days = Arbitraries.of(GeneratedLists.DAYS).map(d -> Times.startOfDay(LocalDate.parse(d)));
    return Arbitraries.oneOf(nearTimes, nearTimes, days);
  }

  /** Pieces of the titles, in their own case or another, LIKE's wildcards, blanks around, and text no title holds. */
  private static Arbitrary<String> titleSearches() {
    Arbitrary<String> piece = Combinators.combine(Arbitraries.of(GeneratedLists.TITLE_PARTS),
        Arbitraries.integers().between(0, 20), Arbitraries.integers().between(1, 6), Arbitraries.of(true, false))
        .as((title, start, length, upper) -> {
          int[] points = title.codePoints().toArray();
          int from = Math.min(start, points.length - 1), to = Math.min(points.length, from + length);
          String cut = new String(points, from, to - from);
          return upper ? cut.toUpperCase(java.util.Locale.ROOT) : cut;
        });
    return Arbitraries.oneOf(piece, piece, piece, Arbitraries.of("%", "_", "\\", "100%", "b_r", "  sync  ", " ", "ss", "ß",
        "e\u0301", "é", "\uD83D\uDE80", "no such title"));
  }
}
