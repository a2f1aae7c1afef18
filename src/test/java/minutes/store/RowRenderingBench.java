package minutes.store;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import minutes.tasks.TasksApi;

/**
 * Not a test: the cost of a list page's rows rendered by the database against rendered here from
 * the columns ({@link TextObjectWriter}), in-process on one connection, the two ways alternating
 * round by round: a 100-task page by row number (as the in-memory task order asks) and a 200-row
 * meeting page (as the meeting list reads from SQL). The database renders with SQLite's
 * json_object, or on PostgreSQL with json_build_object (its bytes differ in spacing: for the cost
 * only), as the endpoints did on SQLite until 2026-11-27. The shapes are the endpoints' own. Prints, per way, the median over rounds of the
 * median time per page, and on PostgreSQL the server backend's CPU per page.
 *   java -cp ... minutes.store.RowRenderingBench sqlite:FILE | jdbc:postgresql://... [ROUNDS] [PAGES]
 */
public final class RowRenderingBench {
  private RowRenderingBench() {}

  private static final long TICK_NANOS = 1_000_000_000L / 100; // USER_HZ on Linux

  public static void main(String[] args) throws Exception {
    Store store = args[0].startsWith("sqlite:") ? Store.sqlite(Path.of(args[0].substring(7))) : Store.postgres(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
    int pages = args.length > 2 ? Integer.parseInt(args[2]) : 400;
    JsonRows.Shape tasks = shape(TasksApi.class, "TASK_JSON");
    JsonRows.Shape meetings = shape(minutes.meetings.MeetingsApi.class, "ROW_JSON");
    try (Connection c = store.write()) {
      Dialect d = store.dialect();
      long[] taskRowids = new Sql("SELECT " + d.rowid("a") + " FROM action_item a").list(c, rs -> rs.getLong(1))
          .stream().mapToLong(Long::longValue).toArray();
      long workspace = new Sql("SELECT min(workspace_id) FROM meeting").count(c);
      long meetingCount = new Sql("SELECT count(*) FROM meeting WHERE workspace_id = ?", workspace).count(c);
      Random random = new Random(42);
      List<long[]> taskPages = new ArrayList<>();
      for (int i = 0; i < pages; i++) taskPages.add(random.longs(100, 0, taskRowids.length).map(j -> taskRowids[(int) j]).toArray());
      int[] meetingOffsets = random.ints(pages, 0, (int) Math.max(1, meetingCount - 200)).toArray();
      String taskIn = "SELECT %s, " + d.rowid("a") + " FROM action_item a WHERE " + d.rowid("a") + " IN (" + "?,".repeat(99) + "?)";
      // As the meeting list's default order reads it from SQL (index meeting_by_sort_at).
      String meetingPage = "SELECT %s FROM meeting m WHERE m.workspace_id = " + workspace
          + " ORDER BY m.sort_at DESC, m.id DESC LIMIT 200 OFFSET ?";
      record Way(String name, Function<JsonRows.Shape, String> select, boolean byDatabase) {}
      List<Way> ways = List.of(
          new Way(d == Dialect.SQLITE ? "json_object in SQLite" : "json_build_object in PostgreSQL",
              s -> databaseRendered(s, d), true),
          new Way("TextObjectWriter from the columns (JsonRows)", JsonRows.Shape::in, false));
      long pid = d == Dialect.POSTGRES ? new Sql("SELECT pg_backend_pid()").count(c) : 0;
      double[][] taskMs = new double[ways.size()][rounds], meetingMs = new double[ways.size()][rounds];
      double[][] taskCpu = new double[ways.size()][rounds], meetingCpu = new double[ways.size()][rounds];
      for (int round = -2; round < rounds; round++) { // two rounds of warm-up
        for (int w = 0; w < ways.size(); w++) {
          Way way = ways.get((w + Math.max(round, 0)) % ways.size()); // the order alternates
          int at = ways.indexOf(way);
          long cpu = cpuTicks(pid);
          double t = medianMs(pages, i -> {
            Sql sql = new Sql(taskIn.formatted(way.select.apply(tasks)), Arrays.stream(taskPages.get(i)).boxed().toArray());
            return sql.list(c, rs -> read(tasks, rs, way.byDatabase)).size();
          });
          long cpuAfter = cpuTicks(pid);
          double m = medianMs(pages, i -> new Sql(meetingPage.formatted(way.select.apply(meetings)), meetingOffsets[i])
              .list(c, rs -> read(meetings, rs, way.byDatabase)).size());
          if (round < 0) continue;
          taskMs[at][round] = t;
          meetingMs[at][round] = m;
          taskCpu[at][round] = (cpuAfter - cpu) * TICK_NANOS / 1e6 / pages;
          meetingCpu[at][round] = (cpuTicks(pid) - cpuAfter) * TICK_NANOS / 1e6 / pages;
        }
      }
      System.out.printf("| %s (%s) | 100-task page ms | 200-meeting page ms |%s%n", store.describe(), rounds + " rounds",
          pid > 0 ? " PostgreSQL CPU ms per task page · meeting page |" : "");
      System.out.println(pid > 0 ? "|---|---|---|---|" : "|---|---|---|");
      for (int w = 0; w < ways.size(); w++) {
        System.out.printf("| %s | %.3f | %.3f |%s%n", ways.get(w).name, median(taskMs[w]), median(meetingMs[w]),
            pid > 0 ? " %.3f · %.3f |".formatted(median(taskCpu[w]), median(meetingCpu[w])) : "");
      }
    }
  }

  private static RawJson read(JsonRows.Shape shape, java.sql.ResultSet rs, boolean byDatabase) throws SQLException {
    return byDatabase ? new RawJson(rs.getBytes(1)) : shape.read(rs);
  }

  /** The row as one JSON object the database writes, from the shape's own expressions (keys: their column names). */
  private static String databaseRendered(JsonRows.Shape shape, Dialect d) {
    StringBuilder sql = new StringBuilder(d == Dialect.SQLITE ? "json_object(" : "json_build_object(");
    String[] expressions = shape.in().split(", ");
    for (int i = 0; i < expressions.length; i++) {
      String key = expressions[i].substring(expressions[i].indexOf('.') + 1);
      sql.append(i == 0 ? "" : ", ").append('\'').append(key).append("', ").append(expressions[i]);
    }
    return sql.append(d == Dialect.SQLITE ? ")" : ")::text").toString();
  }

  @FunctionalInterface
  private interface Page {
    int read(int i) throws SQLException;
  }

  private static double medianMs(int pages, Page page) throws SQLException {
    double[] ms = new double[pages];
    for (int i = 0; i < pages; i++) {
      long started = System.nanoTime();
      if (page.read(i) == 0) throw new IllegalStateException("an empty page");
      ms[i] = (System.nanoTime() - started) / 1e6;
    }
    return median(ms);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static long cpuTicks(long pid) throws java.io.IOException {
    if (pid == 0) return 0;
    String[] stat = Files.readString(Path.of("/proc/" + pid + "/stat")).split(" ");
    return Long.parseLong(stat[13]) + Long.parseLong(stat[14]);
  }

  /** An endpoint's shape, read where it is declared. */
  private static JsonRows.Shape shape(Class<?> owner, String field) throws ReflectiveOperationException {
    Field f = owner.getDeclaredField(field);
    f.setAccessible(true);
    return (JsonRows.Shape) f.get(null);
  }
}
