package minutes.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import minutes.GeneratedLists;
import minutes.GeneratedLists.DataSet;
import minutes.GeneratedLists.Imported;
import minutes.GeneratedLists.Paging;
import minutes.http.Pagination;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.store.Db;
import minutes.store.ListOrder;
import minutes.store.RawJson;
import minutes.store.Vocabulary;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * The in-memory task order (the fast path of GET /action-items) against the SQL answer (its
 * oracle), over generated data sets and generated requests: every filter present or absent,
 * empty, one-sided and inverted due ranges on first/last days, offsets at and past the total,
 * limit 1 and 200, meetings of the key's workspace, of another and unknown ones, workspace and
 * personal keys in every spelling. Rows, their order and the total must be equal, with the
 * order built for the very version compared (the fast path is taken, not fallen back from).
 */
class TaskOrderPropertyTest {
  /** A request of the cross-meeting list; {@code meeting}: none, a pick of the data set's (>= 0) or unknown (< 0). */
  record Request(GeneratedLists.KeyPick key, Optional<Integer> meeting, Optional<String> status, Optional<String> verdict,
      Optional<LocalDate> dueFrom, Optional<LocalDate> dueTo, Paging paging) {
    TaskOrder.Filter filter(Imported data) {
      return new TaskOrder.Filter(meeting.map(data::meetingId), status, verdict, dueFrom, dueTo);
    }
  }

  // 10 data sets x 40 requests: 400 comparisons, 5-15 s depending on the store.
  @Property(tries = 10)
  void theOrderAnswersEveryRequestAsSqlDoes(@ForAll("dataSets") DataSet data,
      @ForAll @Size(40) List<@From("requests") Request> requests) throws Exception {
    GeneratedLists.Database database = GeneratedLists.Database.ofProperty();
    Imported imported = database.load(data, Scope.ACTION_ITEMS_READ);
    try (TaskOrder order = new TaskOrder(database.db()); Connection c = database.db().read()) {
      order.buildNow();
      long version = Db.dataVersion(c);
      TasksApi sql = new TasksApi(order);
      for (Request r : requests) {
        Principal who = imported.key(r.key());
        TaskOrder.Filter f = r.filter(imported);
        long total = sql.allFromSql(c, version, who, f, 0, 1).pagination().total();
        int offset = r.paging().offset(total), limit = r.paging().limit();
        ListOrder.Page fast = order.page(version, who, f, offset, limit)
            .orElseThrow(() -> new AssertionError("the order was built for version " + version + " but not used"));
        Pagination.Page<RawJson> expected = sql.allFromSql(c, version, who, f, offset, limit);
        String request = who + " " + f + " offset " + offset + " limit " + limit;
        assertEquals(expected.pagination().total(), fast.total(), request);
        assertEquals(expected.data(), TasksApi.byRowid(c, fast.ids()), request);
        GeneratedLists.classify(total, offset, !expected.data().isEmpty());
        Statistics.label("due range").collect(range(f));
      }
    }
    GeneratedLists.requireRowsAndCorners();
    Statistics.label("due range").coverage(check -> check.check("inverted").count(n -> n >= 10));
  }

  private static String range(TaskOrder.Filter f) {
    if (f.dueFrom().isEmpty() && f.dueTo().isEmpty()) return "none";
    if (f.dueFrom().isEmpty() || f.dueTo().isEmpty()) return "one-sided";
    return f.dueFrom().get().isAfter(f.dueTo().get()) ? "inverted" : "both";
  }

  @Provide
  Arbitrary<DataSet> dataSets() {
    return GeneratedLists.dataSets();
  }

  @Provide
  Arbitrary<Request> requests() {
    Arbitrary<Optional<Integer>> meeting = Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.just(Optional.<Integer>empty())),
        Tuple.of(2, Arbitraries.integers().between(0, 1000).map(Optional::of)), Tuple.of(1, Arbitraries.just(Optional.of(-1))));
    return Combinators.combine(GeneratedLists.keys(), meeting,
        GeneratedLists.sometimes(Arbitraries.of(Vocabulary.TASK_STATUSES)),
        GeneratedLists.sometimes(Arbitraries.of(Vocabulary.VERDICTS)), GeneratedLists.sometimes(days()),
        GeneratedLists.sometimes(days()), GeneratedLists.pagings(200)).as(Request::new)
        // The corners are in the pools already; jqwik's own edge cases, mixed into the list, made most requests alike.
        .withoutEdgeCases();
  }

  /** The data's due days and the days next to them, so that inclusive bounds are tested on both sides. */
  private static Arbitrary<LocalDate> days() {
    return Combinators.combine(Arbitraries.of(GeneratedLists.DAYS), Arbitraries.integers().between(-1, 1))
        .as((day, shift) -> {
          LocalDate d = LocalDate.parse(day).plusDays(shift);
          return d.getYear() > 9999 ? d.minusDays(shift) : d; // a parameter has four digits of year
        });
  }
}
