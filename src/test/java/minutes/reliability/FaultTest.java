package minutes.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.TestJvm;
import minutes.cli.Cli;
import minutes.keys.Scope;
import minutes.keys.ApiKeys;
import minutes.TestStore;
import minutes.store.Importer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * kill -9 at random moments (issue 5, part 3): the server while it applies an import to the
 * search index, {@code import} and {@code reindex} half-way, each as a real process. After
 * every fault the server is (re)started and must show: a consistent database in which each
 * import landed whole or not at all, an index that agrees with it (same meeting count, every
 * meeting found by the unique word its title carries) and no error answer once healthy.
 *
 * <p>{@code -Dfaults.rounds=N} (CI: 1; {@code scripts/fault-test.sh}: 30), {@code -Dfaults.seed=S}
 * picks the moments; the seed is printed. Process logs stay in target/reliability/faults/.
 */
class FaultTest {
  static final int ROUNDS = Integer.getInteger("faults.rounds", 1);
  static final long SEED = Long.getLong("faults.seed", 7L);
  static final int BASE_MEETINGS = Integer.getInteger("faults.base", 120);
  static final int BATCH_MEETINGS = Integer.getInteger("faults.batch", 40);
  /** Bound on any wait for a process or for health. */
  static final Duration MAX_WAIT = Duration.ofSeconds(180);

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String WORKSPACE = "bench-1";

  private final List<Process> processes = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private Path dir;
  private TestStore store;
  private int port;
  private String key;
  private Process server;
  private PrintWriter journal;

  /** One meeting as the NDJSON holds it: what the database and the index must show for it. */
  record Expected(String id, String word, int protocols, int tasks, int segments) {}

  /** An import file and its meetings; landed once the database holds all of them. */
  record Batch(int number, Path file, List<Expected> meetings) {}

  @AfterEach
  void stopEverything() {
    for (Process p : processes) {
      if (p.isAlive()) p.destroyForcibly();
    }
    for (Process p : processes) {
      try {
        p.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (journal != null) journal.close();
    if (store != null) store.close();
  }

  @Test
  void killMinusNineAtRandomMomentsLosesNothing() throws Exception {
    dir = Path.of("target", "reliability", "faults").toAbsolutePath();
    deleteTree(dir);
    Files.createDirectories(dir.resolve("logs"));
    journal = new PrintWriter(Files.newBufferedWriter(dir.resolve("journal.txt")), true);
    log("faults: seed %d, %d rounds (replay: -Dfaults.seed=%d -Dfaults.rounds=%d)", SEED, ROUNDS, SEED, ROUNDS);
    Random rnd = new Random(SEED);

    Batch base = batch(0, BASE_MEETINGS);
    store = TestStore.create(dir);
    new Importer(store.store(), Importer.Progress.NONE).run(List.of(base.file));
    try (Connection c = store.store().write()) {
      key = ApiKeys.create(c, WORKSPACE, EnumSet.allOf(Scope.class), null, "faults").secret();
    }
    List<Batch> landed = new ArrayList<>(List.of(base));
    Deque<Batch> pending = new ArrayDeque<>();
    int nextBatch = 1;
    startServer();
    check(landed, List.of(), "start");

    Map<String, Integer> faults = new TreeMap<>();
    long importMillis = 4000, reindexMillis = 6000, rowsChecked = 0, searches = 0;
    long started = System.nanoTime();
    for (int round = 1; round <= ROUNDS; round++) {
      // The kinds take turns, so that any three rounds cover all three; the first (CI's only
      // round) always kills: the server, whatever the moment. The moments come from the seed.
      String kind = List.of("server-sync", "import", "reindex").get((round - 1) % 3);
      List<Batch> attempted = new ArrayList<>();
      String what;
      switch (kind) {
        case "import" -> {
          boolean withServer = rnd.nextBoolean();
          setServer(withServer);
          Batch b = pending.isEmpty() ? batch(nextBatch++, BATCH_MEETINGS) : pending.poll();
          attempted.add(b);
          long at = 300 + (long) (rnd.nextDouble() * importMillis * 1.2);
          long t0 = System.nanoTime();
          Process p = cli("import-" + b.number, "import", b.file.toString());
          boolean cut = killAt(p, at);
          if (cut) faults.merge(kind, 1, Integer::sum);
          if (!cut) importMillis = (System.nanoTime() - t0) / 1_000_000;
          what = String.format("import of batch %d (%s server) %s at %d ms", b.number, withServer ? "with" : "without",
              cut ? "killed" : "finished before the kill", at);
        }
        case "reindex" -> {
          boolean withServer = rnd.nextBoolean();
          setServer(withServer);
          long at = 300 + (long) (rnd.nextDouble() * reindexMillis * 1.1);
          long t0 = System.nanoTime();
          Process p = cli("reindex-" + round, "reindex");
          boolean cut = killAt(p, at);
          if (cut) faults.merge(kind, 1, Integer::sum);
          if (!cut) reindexMillis = (System.nanoTime() - t0) / 1_000_000;
          what = String.format("reindex (%s server) %s at %d ms", withServer ? "with" : "without",
              cut ? "killed" : "finished before the kill", at);
        }
        default -> {
          setServer(true);
          Batch b = pending.isEmpty() ? batch(nextBatch++, BATCH_MEETINGS) : pending.poll();
          attempted.add(b);
          Process p = cli("import-" + b.number, "import", b.file.toString());
          // The server applies a committed import to its index within a poll (200 ms) or a few.
          long at = (long) (rnd.nextDouble() * (importMillis + 1500));
          long t0 = System.nanoTime();
          boolean importDone = false;
          while (System.nanoTime() - t0 < TimeUnit.MILLISECONDS.toNanos(at)) {
            if (!importDone && !p.isAlive()) importDone = true;
            Thread.sleep(5);
          }
          server.destroyForcibly();
          server.waitFor(30, TimeUnit.SECONDS);
          faults.merge(kind, 1, Integer::sum);
          assertTrue(p.waitFor(MAX_WAIT.toSeconds(), TimeUnit.SECONDS), "import did not finish");
          what = String.format("server killed %d ms after an import of batch %d started (import %s by then; exit %d)", at,
              b.number, importDone ? "finished" : "still running", p.exitValue());
        }
      }
      log("round %d: %s", round, what);
      if (server == null || !server.isAlive()) startServer();
      long[] counts = check(landed, attempted, "round " + round);
      rowsChecked += counts[0];
      searches += counts[1];
      for (Batch b : attempted) {
        if (!landed.contains(b)) pending.add(b);
      }
    }
    String summary = String.format(Locale.ROOT,
        "faults: seed %d: %d rounds in %.0f s, kill -9 injected %s; imports landed %d of %d attempted batches "
            + "(each whole or not at all); %,d meetings in the end; %,d rows checked against the import files; "
            + "%,d searches by title word; failures 0",
        SEED, ROUNDS, (System.nanoTime() - started) / 1e9, faults, landed.size() - 1, nextBatch - 1,
        landed.stream().mapToInt(b -> b.meetings.size()).sum(), rowsChecked, searches);
    log("%s", summary);
    Files.writeString(dir.getParent().resolve("faults-summary.txt"), summary + "\n");
  }

  // ------------------------------------------------------------------ the checks

  /**
   * After a fault and a (re)start: the database is intact and holds each attempted batch
   * whole or not at all; the index agrees; every answer once healthy is 200. Returns
   * {rows checked, searches}. Moves batches that landed into {@code landed}.
   */
  private long[] check(List<Batch> landed, List<Batch> attempted, String when) throws Exception {
    long rows = 0;
    try (Connection c = store.store().write(); Statement st = c.createStatement()) {
      if (!store.isPostgres()) { // PostgreSQL checks its pages and keys itself, on every write
        try (ResultSet rs = st.executeQuery("PRAGMA integrity_check")) {
          rs.next();
          assertEquals("ok", rs.getString(1), when + ": database integrity");
        }
        try (ResultSet rs = st.executeQuery("PRAGMA foreign_key_check")) {
          assertTrue(!rs.next(), when + ": foreign keys broken in " + (rs.isClosed() ? "?" : rs.getString(1)));
        }
      }
      Map<String, int[]> actual = new HashMap<>();
      for (String[] t : new String[][] {{"protocol", "0"}, {"action_item", "1"}, {"transcript_segment", "2"}}) {
        try (ResultSet rs = st.executeQuery("SELECT meeting_id, count(*) FROM " + t[0] + " GROUP BY meeting_id")) {
          while (rs.next()) actual.computeIfAbsent(rs.getString(1), k -> new int[3])[Integer.parseInt(t[1])] = rs.getInt(2);
        }
      }
      java.util.Set<String> ids = new java.util.HashSet<>();
      try (ResultSet rs = st.executeQuery("SELECT id FROM meeting")) {
        while (rs.next()) ids.add(rs.getString(1));
      }
      List<Batch> all = new ArrayList<>(landed);
      all.addAll(attempted);
      for (Batch b : all) {
        long present = b.meetings.stream().filter(m -> ids.contains(m.id)).count();
        if (present != 0 && present != b.meetings.size()) {
          fail(when + ": batch " + b.number + " landed half: " + present + " of " + b.meetings.size() + " meetings");
        }
        if (present == 0) {
          assertTrue(!landed.contains(b), when + ": batch " + b.number + " vanished after it had landed");
          continue;
        }
        if (!landed.contains(b)) landed.add(b);
        for (Expected m : b.meetings) {
          int[] got = actual.getOrDefault(m.id, new int[3]);
          assertEquals(List.of(m.protocols, m.tasks, m.segments), List.of(got[0], got[1], got[2]),
              when + ": meeting " + m.id + " of batch " + b.number + " (protocols, tasks, segments)");
          rows += 1 + got[0] + got[1] + got[2];
        }
      }
      int expected = landed.stream().mapToInt(b -> b.meetings.size()).sum();
      assertEquals(expected, ids.size(), when + ": meetings in the database");
    }
    // The index agrees: poll while the server catches up (bounded), but never accept an error answer.
    List<Expected> meetings = landed.stream().flatMap(b -> b.meetings.stream()).toList();
    long searches = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    List<Expected> missing = new ArrayList<>(meetings);
    while (true) {
      List<Expected> still = new ArrayList<>();
      for (Expected m : missing) {
        JsonNode r = get("/api/v1/search?limit=5&q=" + URLEncoder.encode(m.word, StandardCharsets.UTF_8), when);
        searches++;
        JsonNode data = r.get("data");
        if (data.size() > 1) fail(when + ": '" + m.word + "' found " + data.size() + " meetings: " + r);
        if (data.size() == 0 || !data.get(0).get("meeting_id").asText().equals(m.id)) still.add(m);
      }
      missing = still;
      int docs = indexDocs();
      if (missing.isEmpty() && docs == meetings.size()) break;
      if (System.nanoTime() > deadline) {
        fail(when + ": the index does not agree with the database after 60 s: " + missing.size()
            + " meetings not found by their title word (e.g. " + missing.stream().limit(3).toList() + "), index holds "
            + docs + " documents, database " + meetings.size() + " meetings");
      }
      Thread.sleep(250);
    }
    JsonNode list = get("/api/v1/meetings?limit=1", when);
    assertEquals(meetings.size(), list.at("/pagination/total").asInt(), when + ": meeting list total");
    get("/api/v1/action-items?limit=5", when);
    get("/api/v1/meetings/" + meetings.get(meetings.size() - 1).id + "/transcript?limit=5", when);
    return new long[] {rows, searches};
  }

  /** Documents in the generation CURRENT names, read from its last commit. */
  private int indexDocs() throws IOException {
    Path root = dir.resolve("index");
    String name = Files.readString(root.resolve("CURRENT")).strip();
    try (FSDirectory d = FSDirectory.open(root.resolve(name)); DirectoryReader r = DirectoryReader.open(d)) {
      return r.numDocs();
    }
  }

  private JsonNode get(String pathAndQuery, String when) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
        .header("Authorization", "Bearer " + key).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) fail(when + ": error answer once healthy: " + r.statusCode() + " on " + pathAndQuery + ": " + r.body());
    return MAPPER.readTree(r.body());
  }

  // ------------------------------------------------------------------ processes

  /** Waits {@code millis}, then kill -9 unless the process has ended. True when it was killed. */
  private static boolean killAt(Process p, long millis) throws InterruptedException {
    if (p.waitFor(millis, TimeUnit.MILLISECONDS)) return false;
    p.destroyForcibly(); // SIGKILL on Unix
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "process survived kill -9");
    return true;
  }

  private void setServer(boolean running) throws Exception {
    if (running && (server == null || !server.isAlive())) startServer();
    if (!running && server != null && server.isAlive()) {
      server.destroy(); // a normal stop: this round's fault is elsewhere
      assertTrue(server.waitFor(60, TimeUnit.SECONDS), "server did not stop");
    }
  }

  /**
   * Starts {@code serve} on port 0 and learns the port the system gave it from the line the
   * server prints once it listens, so no other process can take the port in between.
   */
  private void startServer() throws Exception {
    Path serverLog = dir.resolve("logs/server.log");
    long from = Files.exists(serverLog) ? Files.size(serverLog) : 0;
    server = cli("server", "serve");
    Pattern serving = Pattern.compile("minutes is serving on http://127\\.0\\.0\\.1:(\\d+)");
    port = -1;
    long deadline = System.nanoTime() + MAX_WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!server.isAlive()) fail("the server exited with " + server.exitValue() + " (see " + serverLog + ")");
      if (port < 0) {
        String written = Files.exists(serverLog) ? Files.readString(serverLog) : "";
        Matcher m = serving.matcher(written.substring((int) Math.min(from, written.length())));
        if (m.find()) port = Integer.parseInt(m.group(1));
      }
      if (port > 0) {
        try {
          HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
              .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
          if (r.statusCode() == 200) return;
        } catch (IOException e) {
          // not answering yet
        }
      }
      Thread.sleep(100);
    }
    fail("the server did not become healthy within " + MAX_WAIT);
  }

  /** Runs a minutes command as its own JVM, output appended to logs/NAME.log. */
  private Process cli(String name, String... args) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(TestJvm.command(args)).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("logs").resolve(name.replaceAll("-\\d+$", "") + ".log").toFile()));
    pb.environment().putAll(store.env());
    pb.environment().put("MINUTES_INDEX_PATH", dir.resolve("index").toString());
    pb.environment().put("MINUTES_HTTP_PORT", "0"); // only serve listens; it says on which port
    pb.environment().put("MINUTES_SEARCH_WARMUP_MS", "0"); // 2 s a start that would only delay the faults
    Process p = pb.start();
    processes.add(p);
    return p;
  }

  // ------------------------------------------------------------------ data

  /**
   * Generates an import file (seeded) and gives every meeting's title a word of its own, so
   * that a search for that word must find exactly that meeting.
   */
  private Batch batch(int number, int meetings) throws IOException {
    Path raw = dir.resolve("batch-" + number + ".raw.ndjson");
    StringWriter err = new StringWriter();
    int code = Cli.run(new String[] {"generate", "--meetings", Integer.toString(meetings), "--seed",
        Long.toString(SEED * 1000 + number), "--tasks-per-meeting", "6", "--transcript-kb", "15-40", "--out",
        raw.toString()}, new PrintWriter(new StringWriter()), new PrintWriter(err));
    assertEquals(0, code, err.toString());
    Path file = dir.resolve("batch-" + number + ".ndjson");
    List<Expected> expected = new ArrayList<>();
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(raw)) {
      if (line.isBlank()) continue;
      ObjectNode n = (ObjectNode) MAPPER.readTree(line);
      if (n.path("kind").asText().equals("meeting")) {
        String word = word(number * 10_000 + expected.size());
        n.put("title", word + " " + n.get("title").asText());
        int tasks = 0;
        for (JsonNode p : n.path("protocols")) tasks += p.path("action_items").size();
        expected.add(new Expected(n.get("id").asText(), word, n.path("protocols").size(), tasks, n.path("transcript").size()));
      }
      out.add(MAPPER.writeValueAsString(n));
    }
    Files.write(file, out);
    Files.delete(raw);
    return new Batch(number, file, expected);
  }

  /**
   * A word the analyzer keeps as it is: "zq", the number in four consonants (no vowels: the
   * German normalisation reads "ae" as "ä"; no "s": plural stemming), and a final "k".
   */
  static String word(int n) {
    String digits = "bcdfghjklmnpqrtvwxz";
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      sb.append(digits.charAt(n % digits.length()));
      n /= digits.length();
    }
    return "zq" + sb.reverse() + "k";
  }

  private void log(String format, Object... args) {
    String line = String.format(Locale.ROOT, format, args);
    System.out.println(line);
    if (journal != null) journal.println(line);
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) return;
    try (var s = Files.walk(p)) {
      for (Path x : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(x);
    }
  }
}
