import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load driver for bench/load-while-importing.sh (issue 5, part 2; issue 15 item 4): N clients
 * for S seconds, mixing every endpoint with workspace and personal keys, against a running
 * server, while the script imports and reindexes. Every answer must be a 200 or a clean refusal
 * (429 rate_limited or 503 unavailable with the error body and Retry-After, after which the
 * client waits as told); anything else fails. Measures p50/p99 of the accepted requests per
 * endpoint and overall, and spot-checks answers against SQLite (read-only): exact values for
 * meetings that the import does not touch, and "before or after, never in between" for totals
 * the import changes. Prints a Markdown table; exits 1 on any failed request or wrong answer.
 *
 * <p>Run: {@code java -cp 'target/minutes.jar:target/lib/*' bench/LoadDriver.java PORT DB KEYS_FILE CLIENTS SECONDS}
 * where KEYS_FILE has lines {@code name workspace user-or-- key}.
 */
public class LoadDriver {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String[] WORDS = {"remote", "control", "design", "budget", "project", "meeting", "evaluation", "market",
      "prototype", "marketing", "\"remote control\"", "interface", "battery", "speech", "data", "results", "plan"};

  record Key(String name, String workspace, long workspaceId, String user, String secret, List<String> ids) {}

  static final Map<String, List<long[]>> latencies = new ConcurrentHashMap<>();
  static final Map<String, AtomicLong> failures = new ConcurrentHashMap<>();
  static final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
  static final AtomicLong checks = new AtomicLong(), wrong = new AtomicLong();
  /** Totals seen per (key, endpoint): each must be the value before or after the import. */
  static final Map<String, Set<Long>> totalsSeen = new ConcurrentHashMap<>();

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    String db = args[1];
    List<String> keyLines = Files.readAllLines(Path.of(args[2]));
    int clients = Integer.parseInt(args[3]);
    int seconds = Integer.parseInt(args[4]);

    List<Key> keys = new ArrayList<>();
    Map<String, Long> before;
    try (Connection c = open(db)) {
      for (String line : keyLines) {
        String[] f = line.trim().split("\\s+");
        long ws = scalar(c, "SELECT id FROM workspace WHERE slug = ?", f[1]);
        String user = f[2].equals("--") ? null : f[2];
        List<String> ids = new ArrayList<>();
        // Per-meeting requests use meetings that exist before the import, so their answers are fixed.
        String sql = user == null ? "SELECT id FROM meeting WHERE workspace_id = ? ORDER BY id LIMIT 4000"
            : "SELECT m.id FROM meeting m JOIN meeting_viewer v ON v.meeting_id = m.id WHERE m.workspace_id = ? AND v.email = ? ORDER BY m.id LIMIT 4000";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
          ps.setLong(1, ws);
          if (user != null) ps.setString(2, user);
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) ids.add(rs.getString(1));
          }
        }
        keys.add(new Key(f[0], f[1], ws, user, f[3], ids));
      }
      before = totals(c, keys);
    }
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).executor(java.util.concurrent.Executors.newFixedThreadPool(4)).build();
    long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < clients; t++) {
      final int id = t;
      Thread th = new Thread(() -> {
        Random rnd = new Random(1000L + id);
        Map<String, long[]> mine = new HashMap<>();
        Map<String, int[]> sizes = new HashMap<>();
        try (Connection c = open(db)) {
          while (System.nanoTime() < end) {
            Key k = keys.get(rnd.nextInt(keys.size()));
            String[] req = request(rnd, k);
            long t0 = System.nanoTime();
            HttpResponse<String> r;
            try {
              r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + req[1]))
                  .header("Authorization", "Bearer " + k.secret).timeout(Duration.ofSeconds(60)).build(),
                  HttpResponse.BodyHandlers.ofString());
            } catch (Exception e) {
              fail(req[0], k.name + " " + req[1] + ": " + e);
              continue;
            }
            long micros = (System.nanoTime() - t0) / 1000;
            if (r.statusCode() == 429 || r.statusCode() == 503) {
              // Refused: fine when it is a clean refusal, and the client waits as told, as a real one would.
              long wait = refused(req[0], k, req[1], r);
              if (wait > 0) Thread.sleep(Math.min(wait, Math.max(0, (end - System.nanoTime()) / 1_000_000)));
              continue;
            }
            long[] arr = mine.computeIfAbsent(req[0], x -> new long[1024]);
            int[] n = sizes.computeIfAbsent(req[0], x -> new int[1]);
            if (n[0] == arr.length) {
              arr = Arrays.copyOf(arr, arr.length * 2);
              mine.put(req[0], arr);
            }
            arr[n[0]++] = micros;
            if (r.statusCode() != 200) {
              fail(req[0], k.name + " " + req[1] + " -> " + r.statusCode() + " " + r.body());
              continue;
            }
            if (rnd.nextInt(10) == 0) check(c, k, req, MAPPER.readTree(r.body()));
          }
        } catch (Exception e) {
          fail("driver", "client " + id + ": " + e);
        }
        for (var e : mine.entrySet()) {
          latencies.computeIfAbsent(e.getKey(), x -> java.util.Collections.synchronizedList(new ArrayList<>()))
              .add(Arrays.copyOf(e.getValue(), sizes.get(e.getKey())[0]));
        }
      }, "client-" + t);
      th.start();
      threads.add(th);
    }
    for (Thread th : threads) th.join();

    // Totals seen while the import ran must be the value before it or after it: never half of it.
    Map<String, Long> after;
    try (Connection c = open(db)) {
      after = totals(c, keys);
    }
    for (var e : totalsSeen.entrySet()) {
      for (long seen : e.getValue()) {
        if (seen != before.get(e.getKey()) && seen != after.get(e.getKey())) {
          wrong.incrementAndGet();
          problems.add("total of " + e.getKey() + " was " + seen + ": neither " + before.get(e.getKey()) + " (before) nor "
              + after.get(e.getKey()) + " (after the import)");
        }
      }
    }

    long total = 0, failed = 0;
    System.out.printf("| endpoint (%d clients, %d s) | answered 200 | p50 ms | p99 ms | max ms | 429 | 503 | failed |%n",
        clients, seconds);
    System.out.println("|---|---|---|---|---|---|---|---|");
    for (var e : new TreeMap<>(latencies).entrySet()) {
      long[] all = e.getValue().stream().flatMapToLong(Arrays::stream).sorted().toArray();
      long f = failures.getOrDefault(e.getKey(), new AtomicLong()).get();
      total += all.length;
      failed += f;
      System.out.printf(Locale.ROOT, "| %s | %,d | %.1f | %.1f | %.1f | %,d | %,d | %d |%n", e.getKey(), all.length,
          pct(all, 50) / 1000.0, pct(all, 99) / 1000.0, all.length == 0 ? 0 : all[all.length - 1] / 1000.0,
          count(refused429, e.getKey()), count(refused503, e.getKey()), f);
    }
    long[] accepted = latencies.values().stream().flatMap(List::stream).flatMapToLong(Arrays::stream).sorted().toArray();
    failed += failures.getOrDefault("driver", new AtomicLong()).get();
    long r429 = refused429.values().stream().mapToLong(AtomicLong::get).sum();
    long r503 = refused503.values().stream().mapToLong(AtomicLong::get).sum();
    System.out.printf(Locale.ROOT, "%naccepted (200): %,d (%,.0f/s), p50 %.1f ms, p99 %.1f ms; refused cleanly: %,d with 429, "
        + "%,d with 503; failed: %d; answers spot-checked against SQLite: %,d, wrong: %d; "
        + "totals before/after the import: %s -> %s%n", total, total / (double) seconds, pct(accepted, 50) / 1000.0,
        pct(accepted, 99) / 1000.0, r429, r503, failed, checks.get(), wrong.get(), firstKeys(before), firstKeys(after));
    problems.stream().limit(20).forEach(p -> System.out.println("PROBLEM: " + p));
    System.exit(failed == 0 && wrong.get() == 0 ? 0 : 1);
  }

  /** {endpoint label, path}: every endpoint, with parameters varied. */
  static String[] request(Random rnd, Key k) {
    String id = k.ids.get(rnd.nextInt(k.ids.size()));
    int pick = rnd.nextInt(100);
    if (pick < 14) return new String[] {"GET /meetings", "/api/v1/meetings?limit=50&offset=" + rnd.nextInt(2000)
        + (rnd.nextInt(4) == 0 ? "&order=title" : "") + (rnd.nextInt(5) == 0 ? "&q=remote" : "")};
    if (pick < 30) return new String[] {"GET /meetings/{id}", "/api/v1/meetings/" + id};
    if (pick < 40) return new String[] {"GET /meetings/{id}/participants", "/api/v1/meetings/" + id + "/participants"};
    if (pick < 52) return new String[] {"GET /meetings/{id}/action-items", "/api/v1/meetings/" + id + "/action-items"};
    if (pick < 58) return new String[] {"GET /meetings/{id}/transcript", "/api/v1/meetings/" + id + "/transcript?limit=100"};
    if (pick < 72) return new String[] {"GET /action-items", "/api/v1/action-items?limit=100&offset=" + rnd.nextInt(5000)
        + (rnd.nextInt(3) == 0 ? "&status=open" : "")};
    if (pick < 92) return new String[] {"GET /search", "/api/v1/search?limit=20&q="
        + URLEncoder.encode(WORDS[rnd.nextInt(WORDS.length)], StandardCharsets.UTF_8)};
    return new String[] {"GET /customers", "/api/v1/customers"};
  }

  static void check(Connection c, Key k, String[] req, JsonNode j) throws Exception {
    checks.incrementAndGet();
    String ep = req[0];
    switch (ep) {
      case "GET /meetings/{id}" -> {
        String id = j.get("id").asText();
        expect(k, req, "title", scalarText(c, "SELECT title FROM meeting WHERE id = ?", id), j.get("title").asText());
        expect(k, req, "participants", scalar(c, "SELECT count(*) FROM participant WHERE meeting_id = ?", id), j.get("participants").size());
        long tasks = scalar(c, "SELECT count(*) FROM action_item WHERE meeting_id = ? AND is_current = 1", id);
        expect(k, req, "tasks", tasks, j.path("protocol").path("action_items").size());
      }
      case "GET /meetings/{id}/participants" -> expect(k, req, "participants",
          scalar(c, "SELECT count(*) FROM participant WHERE meeting_id = ?", j.get("meeting_id").asText()), j.get("data").size());
      case "GET /meetings/{id}/action-items" -> expect(k, req, "total",
          scalar(c, "SELECT count(*) FROM action_item WHERE meeting_id = ? AND is_current = 1", j.get("meeting_id").asText()),
          j.at("/pagination/total").asLong());
      case "GET /meetings/{id}/transcript" -> expect(k, req, "total",
          scalar(c, "SELECT count(*) FROM transcript_segment WHERE meeting_id = ?", j.get("meeting_id").asText()),
          j.at("/pagination/total").asLong());
      case "GET /meetings", "GET /action-items" -> {
        if (!req[1].contains("q=") && !req[1].contains("status=")) {
          totalsSeen.computeIfAbsent(k.name + " " + ep, x -> ConcurrentHashMap.newKeySet()).add(j.at("/pagination/total").asLong());
        }
        for (JsonNode row : j.get("data")) {
          String mid = ep.equals("GET /meetings") ? row.get("id").asText() : row.get("meeting_id").asText();
          visible(c, k, req, mid);
        }
      }
      case "GET /search" -> {
        for (JsonNode hit : j.get("data")) {
          String mid = hit.get("meeting_id").asText();
          visible(c, k, req, mid);
          expect(k, req, "title", scalarText(c, "SELECT title FROM meeting WHERE id = ?", mid), hit.get("title").asText());
        }
      }
      case "GET /customers" -> {
        for (JsonNode row : j.get("data")) {
          expect(k, req, "company workspace", k.workspaceId, scalar(c, "SELECT workspace_id FROM company WHERE id = ?", row.get("id").asText()));
        }
      }
      default -> { }
    }
  }

  /** The meeting exists, belongs to the key's workspace and (personal key) is visible to its user. */
  static void visible(Connection c, Key k, String[] req, String meetingId) throws Exception {
    expect(k, req, "workspace of " + meetingId, k.workspaceId, scalar(c, "SELECT workspace_id FROM meeting WHERE id = ?", meetingId));
    if (k.user != null) {
      try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM meeting_viewer WHERE meeting_id = ? AND email = ?")) {
        ps.setString(1, meetingId);
        ps.setString(2, k.user);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          expect(k, req, "visible to " + k.user + ": " + meetingId, 1L, rs.getLong(1));
        }
      }
    }
  }

  static void expect(Key k, String[] req, String what, Object db, Object api) {
    if (!String.valueOf(db).equals(String.valueOf(api))) {
      wrong.incrementAndGet();
      problems.add(k.name + " " + req[1] + ": " + what + " is " + api + " in the answer, " + db + " in SQLite");
    }
  }

  static Map<String, Long> totals(Connection c, List<Key> keys) throws Exception {
    Map<String, Long> t = new HashMap<>();
    for (Key k : keys) {
      String vis = k.user == null ? "" : " AND m.id IN (SELECT meeting_id FROM meeting_viewer WHERE email = '" + k.user.replace("'", "''") + "')";
      t.put(k.name + " GET /meetings", scalar(c, "SELECT count(*) FROM meeting m WHERE m.workspace_id = " + k.workspaceId + vis));
      t.put(k.name + " GET /action-items", scalar(c, "SELECT count(*) FROM action_item a JOIN meeting m ON m.id = a.meeting_id "
          + "WHERE a.is_current = 1 AND m.workspace_id = " + k.workspaceId + vis));
    }
    return t;
  }

  static final Map<String, AtomicLong> refused429 = new ConcurrentHashMap<>(), refused503 = new ConcurrentHashMap<>();

  /**
   * A refusal is clean when it is the API's error body with the code of its status and a
   * Retry-After in whole seconds (a 429 also with the rate-limit headers); anything else is a
   * failure. Returns how long to wait before the next request, in ms (0 after a failure).
   */
  static long refused(String endpoint, Key k, String path, HttpResponse<String> r) {
    String code = r.statusCode() == 429 ? "rate_limited" : "unavailable";
    String retry = r.headers().firstValue("Retry-After").orElse("");
    try {
      JsonNode e = MAPPER.readTree(r.body()).path("error");
      boolean clean = e.path("status").asInt() == r.statusCode() && e.path("code").asText().equals(code)
          && retry.matches("[0-9]+") && (r.statusCode() == 503 || r.headers().firstValue("RateLimit").isPresent());
      if (clean) {
        (r.statusCode() == 429 ? refused429 : refused503).computeIfAbsent(endpoint, x -> new AtomicLong()).incrementAndGet();
        return Long.parseLong(retry) * 1000;
      }
    } catch (Exception notJson) {
      // reported below
    }
    fail(endpoint, k.name + " " + path + " -> " + r.statusCode() + " (not a clean refusal) " + r.body());
    return 0;
  }

  /** The totals of the first key of each kind (the others of a kind see the same). */
  static Map<String, Long> firstKeys(Map<String, Long> totals) {
    Map<String, Long> out = new TreeMap<>();
    totals.forEach((k, v) -> {
      if (k.startsWith("ws1-1 ") || k.startsWith("ws2-1 ") || k.startsWith("personal-1 ")) out.put(k, v);
    });
    return out;
  }

  static long count(Map<String, AtomicLong> counts, String endpoint) {
    return counts.getOrDefault(endpoint, new AtomicLong()).get();
  }

  static void fail(String endpoint, String what) {
    failures.computeIfAbsent(endpoint, x -> new AtomicLong()).incrementAndGet();
    if (problems.size() < 50) problems.add(what.length() > 400 ? what.substring(0, 400) : what);
  }

  static long pct(long[] sorted, int p) {
    if (sorted.length == 0) return 0;
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
  }

  static Connection open(String db) throws Exception {
    org.sqlite.SQLiteConfig cfg = new org.sqlite.SQLiteConfig();
    cfg.setReadOnly(true);
    cfg.setBusyTimeout(30_000);
    return DriverManager.getConnection("jdbc:sqlite:" + db, cfg.toProperties());
  }

  static long scalar(Connection c, String sql, Object... args) throws Exception {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : -1;
      }
    }
  }

  static String scalarText(Connection c, String sql, Object... args) throws Exception {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }
}
