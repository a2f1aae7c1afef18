package minutes.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import minutes.GeneratedLists;
import minutes.GeneratedLists.DataSet;
import minutes.GeneratedLists.Imported;
import minutes.GeneratedLists.Paging;
import minutes.Property;
import minutes.http.Pagination;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.store.Db;
import minutes.store.ListOrder;
import minutes.store.RawJson;
import minutes.store.Vocabulary;
import org.junit.jupiter.api.Test;

/**
 * The in-memory task order (the only path of GET /action-items) against the SQL answer (its
 * oracle, {@link TasksSql}), over generated data sets and generated requests: every filter present or absent,
 * empty, one-sided and inverted due ranges on first/last days, offsets at and past the total,
 * limit 1 and 200, meetings of the key's workspace, of another and unknown ones, workspace and
 * personal keys in every spelling. Rows, their order and the total must be equal, with the
 * order built for the very version compared.
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
  @Test
  void theOrderAnswersEveryRequestAsSqlDoes() throws Exception {
    Map<String, Integer> met = new TreeMap<>();
    try (GeneratedLists.Database database = new GeneratedLists.Database()) {
      Property.forAll("the task order answers every request as SQL does", 10, 30, () -> requireCoverage(met),
          c -> check(database, c, met));
    }
    System.out.println("TaskOrderPropertyTest met " + met);
    requireCoverage(met);
  }

  /** Equal answers prove little unless they had rows and met the corners. */
  private static void requireCoverage(Map<String, Integer> met) {
    GeneratedLists.requireRowsAndCorners(met);
    assertTrue(met.getOrDefault("due range inverted", 0) >= 10, "inverted due ranges: " + met);
  }

  /** One case: a generated data set, and 40 generated requests compared with SQL's answers. */
  private static void check(GeneratedLists.Database database, Property.Case c, Map<String, Integer> met)
      throws Exception {
    DataSet data = GeneratedLists.dataSet(c);
    List<Request> requests = GeneratedLists.requests(c, TaskOrderPropertyTest::request,
        TaskOrderPropertyTest::invertedDueRange, TaskOrderPropertyTest::wholeList);
    Imported imported = database.load(data, Scope.ACTION_ITEMS_READ);
    try (TaskOrder order = new TaskOrder(database.db()); Connection conn = database.db().read()) {
      order.build();
      long version = Db.dataVersion(conn);
      for (Request r : requests) {
        Principal who = imported.key(r.key());
        TaskOrder.Filter f = r.filter(imported);
        long total = TasksSql.page(conn, who, f, 0, 1).pagination().total();
        int offset = r.paging().offset(total), limit = r.paging().limit();
        ListOrder.Page fast = order.page(version, who, f, offset, limit);
        Pagination.Page<RawJson> expected = TasksSql.page(conn, who, f, offset, limit);
        String request = who + " " + f + " offset " + offset + " limit " + limit;
        assertEquals(expected.pagination().total(), fast.total(), request);
        assertEquals(expected.data(), TasksApi.byRowid(conn, fast.ids()), request);
        GeneratedLists.classify(met, total, offset, !expected.data().isEmpty());
        met.merge("due range " + range(f), 1, Integer::sum);
      }
    }
  }

  private static String range(TaskOrder.Filter f) {
    if (f.dueFrom().isEmpty() && f.dueTo().isEmpty()) return "none";
    if (f.dueFrom().isEmpty() || f.dueTo().isEmpty()) return "one-sided";
    return f.dueFrom().get().isAfter(f.dueTo().get()) ? "inverted" : "both";
  }

  /** A request; the corners (empty, one-sided and inverted ranges, unknown meetings) are in the pools. */
  /** r's page size over the workspace's whole task list, from its start. */
  private static Request wholeList(Request r) {
    return new Request(GeneratedLists.workspaceKey(r.key()), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), GeneratedLists.firstPage(r.paging()));
  }

  static Request request(Property.Case c) {
    GeneratedLists.KeyPick key = GeneratedLists.key(c);
    Optional<Integer> meeting = switch (GeneratedLists.weighted(c, 6, 2, 1)) {
      case 0 -> Optional.empty();
      case 1 -> Optional.of(c.between(0, 1000));
      default -> Optional.of(-1);
    };
    return new Request(key, meeting, GeneratedLists.sometimes(c, x -> x.pick(Vocabulary.TASK_STATUSES)),
        GeneratedLists.sometimes(c, x -> x.pick(Vocabulary.VERDICTS)), GeneratedLists.sometimes(c, TaskOrderPropertyTest::day),
        GeneratedLists.sometimes(c, TaskOrderPropertyTest::day), GeneratedLists.paging(c, 200));
  }

  /** r with a due range whose start lies after its end (1 to 30 days), both within four-digit years. */
  private static Request invertedDueRange(Request r, Property.Case c) {
    LocalDate day = day(c);
    int apart = c.between(1, 30);
    LocalDate from = day.getYear() < 9999 ? day.plusDays(apart) : day;
    LocalDate to = day.getYear() < 9999 ? day : day.minusDays(apart);
    return new Request(r.key(), r.meeting(), r.status(), r.verdict(), Optional.of(from), Optional.of(to), r.paging());
  }

  /** The data's due days and the days next to them, so that inclusive bounds are tested on both sides. */
  private static LocalDate day(Property.Case c) {
    LocalDate day = LocalDate.parse(c.pick(GeneratedLists.DAYS));
    LocalDate d = day.plusDays(c.between(-1, 1));
    return d.getYear() > 9999 ? day : d; // a parameter has four digits of year
  }
}
