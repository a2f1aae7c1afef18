package minutes.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import minutes.ApiServer;
import minutes.RunsAlone;
import minutes.reliability.FuzzRequests.Req;
import minutes.reliability.RawHttp.Resp;
import minutes.store.Importer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hostile input against the real server (issue 5, part 1): generated requests over raw
 * sockets, so that malformed request lines, raw control bytes and invalid percent-encoding
 * reach the server exactly as sent. Every request is derived from (seed, index) alone, so a
 * failure is replayed with {@code -Dfuzz.seed=S -Dfuzz.requests=N}; the seed is printed.
 *
 * <p>Asserts for every answer: no 500 except the api-spec 4.4 quirk; no stack trace, SQL or
 * server path; no row of a workspace or meeting the key may not see; no key secret; every
 * non-2xx answer of a well-formed request is our JSON error body. Undertow rejects some
 * malformed requests in its parser with a bare {@code 400} and an empty body before any
 * handler runs; those are allowed only for requests the generator made malformed on purpose,
 * and counted (docs/RELIABILITY.md lists them). Afterwards the server is healthy, and no key
 * secret appeared in its log.
 */
@RunsAlone("it replaces System.err to look for key secrets in the server's log")
class FuzzTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

  /** CI-sized by default; {@code scripts/fuzz.sh} runs 20,000. */
  static final int REQUESTS = Integer.getInteger("fuzz.requests", 3000);
  static final long SEED = Long.getLong("fuzz.seed", 20261122L);
  static final int THREADS = Integer.getInteger("fuzz.threads", 4);
  /** Safety bound on the whole run; the count is the real limit. */
  static final long MAX_SECONDS = Long.getLong("fuzz.max.seconds", 900);
  /** The largest answer accepted: every list is paginated with a bounded limit. */
  static final int MAX_RESPONSE_BYTES = 4 << 20;

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final List<String> KEY_NAMES = List.of(ApiServer.ALL, ApiServer.MEETINGS, ApiServer.TASKS,
      ApiServer.TRANSCRIPTS, ApiServer.ANN, ApiServer.BOB, ApiServer.OTHER, ApiServer.REVOKED);
  private static final Pattern PER_MEETING_TASKS = Pattern.compile("/api/v1/meetings/[^/?]*/action-items/?");
  /** Text that betrays internals: traces, SQL, server-side paths. Checked unless the request itself holds it. */
  private static final List<String> INTERNALS = List.of("Exception", "\tat ", "at minutes.", "at java.", "at io.undertow",
      "Caused by", "SQLITE", "sqlite", "SELECT ", " FROM ", " WHERE ", "syntax error", ".java:", "/tmp/", "minutes-test-",
      "/work/", "org.apache", "com.fasterxml", "NullPointer");

  /** The fixture's meetings: workspace, who may see them, and every id and text that must not leak. */
  record FixtureMeeting(String id, String workspace, Set<String> visibleTo, Set<String> secrets) {}

  private static List<FixtureMeeting> meetings;
  /** Answers of POST /mcp by kind (FuzzMcp#kind), for the summary. */
  private static final Map<String, Long> MCP_ANSWERS = new ConcurrentHashMap<>();
  private static List<String> companyIds;
  private static Map<String, Set<String>> forbiddenByKey;
  private static Set<String> allSecrets;

  @Test
  void hostileRequestsNeverBreakIsolationShapeOrHealth() throws Exception {
    loadFixture();
    FuzzRequests requests = new FuzzRequests(SEED, KEY_NAMES, api::key, meetings.stream().map(FixtureMeeting::id).toList(),
        feedCursors(), companyIds);
    System.out.printf("fuzz: seed %d, %d requests, %d threads (replay: -Dfuzz.seed=%d -Dfuzz.requests=%d)%n",
        SEED, REQUESTS, THREADS, SEED, REQUESTS);
    PrintStream originalErr = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    // slf4j-simple resolves System.err per message: the server's log is captured to look for key secrets.
    System.setErr(new PrintStream(new TeeStream(originalErr, log), true, StandardCharsets.UTF_8));

    ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    AtomicInteger failureCount = new AtomicInteger();
    Map<String, AtomicLong> byStatus = new ConcurrentHashMap<>();
    Map<String, AtomicLong> bareRejections = new ConcurrentHashMap<>();
    AtomicLong quirk500 = new AtomicLong(), rowsChecked = new AtomicLong(), sent = new AtomicLong();
    AtomicInteger next = new AtomicInteger();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MAX_SECONDS);
    long started = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      for (int t = 0; t < THREADS; t++) {
        pool.submit(() -> {
          for (int i = next.getAndIncrement(); i < REQUESTS && System.nanoTime() < deadline; i = next.getAndIncrement()) {
            Req req;
            try {
              req = requests.generate(i);
            } catch (RuntimeException e) {
              if (failureCount.incrementAndGet() <= 15) failures.add("generating request #" + i + " failed: " + e);
              continue;
            }
            try {
              Resp resp = RawHttp.send(api.uri("/").getPort(), req.bytes(), MAX_RESPONSE_BYTES);
              sent.incrementAndGet();
              byStatus.computeIfAbsent(Integer.toString(resp.status()), s -> new AtomicLong()).incrementAndGet();
              String problem = check(req, resp, quirk500, bareRejections, rowsChecked);
              if (problem != null && failureCount.incrementAndGet() <= 15) {
                failures.add(problem + "\n  request: " + req.show() + "\n  answer: " + resp.status() + " " + resp.headers()
                    + " " + abbreviate(resp.text()));
              }
            } catch (IOException e) {
              if (failureCount.incrementAndGet() <= 15) failures.add("no answer (" + e + ")\n  request: " + req.show());
            } catch (RuntimeException e) {
              java.io.StringWriter sw = new java.io.StringWriter();
              e.printStackTrace(new java.io.PrintWriter(sw));
              if (failureCount.incrementAndGet() <= 15) failures.add("the fuzzer itself failed: " + sw + "\n  request: " + req.show());
            }
          }
          return null;
        });
      }
      pool.shutdown();
      assertTrue(pool.awaitTermination(MAX_SECONDS + 60, TimeUnit.SECONDS), "fuzz workers did not finish");
    } finally {
      pool.shutdownNow();
      System.setErr(originalErr);
    }
    double seconds = (System.nanoTime() - started) / 1e9;

    // Healthy afterwards: health, a normal answer in time, the full meeting list.
    ApiServer.Response health = api.get("/healthz", null);
    assertEquals(200, health.status(), "healthz after fuzzing (seed " + SEED + "): " + health.body());
    long t0 = System.nanoTime();
    ApiServer.Response list = api.get("/api/v1/meetings?limit=200", ApiServer.ALL);
    assertEquals(200, list.status(), list.body());
    assertEquals(5, list.json().at("/pagination/total").asInt());
    assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5), "answers slowly after fuzzing");

    String logText = log.toString(StandardCharsets.UTF_8);
    for (String name : KEY_NAMES) {
      if (logText.contains(api.key(name))) failures.add("the server log holds the secret of key " + name);
    }

    String summary = String.format(Locale.ROOT,
        "fuzz: seed %d: %,d requests sent in %.1f s; statuses %s; quirk 500s (api-spec 4.4) %,d; "
            + "bare 400s from Undertow's parser %s; JSON-RPC answers of /mcp %s; JSON answers checked for foreign rows %,d; "
            + "failures %d",
        SEED, sent.get(), seconds, new TreeMap<>(byStatus), quirk500.get(), new TreeMap<>(bareRejections),
        new TreeMap<>(MCP_ANSWERS), rowsChecked.get(), failureCount.get());
    System.out.println(summary);
    Path out = Path.of("target", "reliability");
    Files.createDirectories(out);
    Files.writeString(out.resolve("fuzz-summary.txt"), summary + "\n");
    if (!failures.isEmpty()) {
      fail("fuzzing found " + failureCount.get() + " problem(s); replay with -Dfuzz.seed=" + SEED + " -Dfuzz.requests="
          + REQUESTS + "\n" + summary + "\n\n" + String.join("\n\n", failures));
    }
    assertEquals(REQUESTS, sent.get(), "not every request was sent before the time bound");
  }

  // ------------------------------------------------------------------ checks

  /** Returns what is wrong with the answer, or null. */
  private static String check(Req req, Resp r, AtomicLong quirk500, Map<String, AtomicLong> bare, AtomicLong rowsChecked) {
    if (r.timedOut()) return "no complete answer within the read timeout";
    if (r.status() < 100) return "no status line";
    String body = r.text();
    String requestText = decodedLower(req.target()) + " " + decodedLower(req.target().replace("+", "%20")) + " " + new String(req.bytes(), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
    if (r.body().length > MAX_RESPONSE_BYTES) return "answer larger than " + MAX_RESPONSE_BYTES + " bytes";
    // Search and transcript search repeat the caller's own q by contract (even when someone pastes a key into it).
    boolean echoesQuery = rawPath(req.target()).startsWith("/api/v1/search") || rawPath(req.target()).endsWith("/transcript/search");
    String echoFree = echoesQuery ? body.replaceAll("\"query\":\"[^\"]*\"", "") : body;
    for (String name : KEY_NAMES) {
      if (echoFree.contains(api.key(name))) return "the answer echoes the secret of key " + name;
    }
    boolean head = req.method().equals("HEAD");
    boolean mcp = rawPath(req.target()).equals("/mcp");

    // Undertow's parser rejects some malformed requests before our handlers: a bare 400, no body.
    if (r.status() == 400 && r.body().length == 0 && !r.headers().containsKey("content-type")) {
      if (!req.malformed()) return "a well-formed request got a bare 400 from Undertow, not our JSON error";
      bare.computeIfAbsent(req.why(), w -> new AtomicLong()).incrementAndGet();
      return null;
    }
    // If-None-Match: * (or a matching tag) gets 304 without a body, as HTTP says.
    if (r.status() == 304) {
      return new String(req.bytes(), StandardCharsets.ISO_8859_1).contains("If-None-Match") && r.body().length == 0 ? null
          : "304 without If-None-Match, or with a body";
    }
    if (!"application/json; charset=utf-8".equals(r.headers().get("content-type"))) {
      return "answer is not application/json; charset=utf-8";
    }
    if (!"nosniff".equals(r.headers().get("x-content-type-options"))) return "X-Content-Type-Options: nosniff missing";
    if (r.status() == 500) {
      if (!PER_MEETING_TASKS.matcher(rawPath(req.target())).matches()) return "500 outside the api-spec 4.4 quirk";
    }
    if (head) {
      return r.body().length == 0 ? null : "HEAD answered with a body";
    }
    if (mcp && r.status() == 202) return FuzzMcp.check(202, null, r.body().length, null);
    JsonNode json;
    try {
      json = MAPPER.readTree(r.body());
    } catch (IOException e) {
      return "body is not JSON";
    }
    if (json == null || !json.isObject()) return "body is not a JSON object";
    if (mcp && json.has("jsonrpc")) MCP_ANSWERS.merge(FuzzMcp.kind(r.status(), json), 1L, Long::sum);
    for (String marker : INTERNALS) {
      if (echoFree.contains(marker) && !requestText.contains(marker.toLowerCase(Locale.ROOT))) {
        return "body shows internals (" + marker.strip() + ")";
      }
    }
    if (r.status() >= 400) {
      String shape = errorShape(json, r.status());
      if (mcp) shape = FuzzMcp.check(r.status(), json, r.body().length, shape);
      if (shape != null) return shape;
      if (r.status() == 500) {
        String field = json.at("/error/field").asText("");
        if (!(field.equals("due_from") || field.equals("due_to")) || !Pattern.compile("[?&]" + field + "(=|&|$)").matcher(req.target()).find()) {
          return "500 that is not the due_from/due_to quirk";
        }
        quirk500.incrementAndGet();
      }
      if (r.status() == 401 && !"Bearer".equals(r.headers().get("www-authenticate"))) return "401 without WWW-Authenticate: Bearer";
      String allowed = mcp ? "POST" : "GET, HEAD"; // /mcp is POST only (Streamable HTTP)
      if (r.status() == 405 && !allowed.equals(r.headers().get("allow"))) return "405 without Allow: " + allowed;
      if (r.status() == 503 && !r.headers().containsKey("retry-after")) return "503 without Retry-After";
      // An error message may repeat the caller's own path; it never holds a row.
      for (String secret : forbidden(req.key())) {
        if (body.contains(secret) && !requestText.contains(secret.toLowerCase(Locale.ROOT))) {
          return "error body names something the key may not see: " + secret;
        }
      }
      return null;
    }
    if (r.status() != 200) return "unexpected success status " + r.status();
    if (mcp) {
      String rpc = FuzzMcp.check(200, json, r.body().length, null);
      if (rpc != null) return rpc;
    }
    // Success: the only echoes allowed are the search text and the id of an empty per-meeting task list.
    ObjectNode o = (ObjectNode) json;
    o.remove("query");
    if (PER_MEETING_TASKS.matcher(rawPath(req.target())).matches() && o.path("data").isArray() && o.path("data").isEmpty()) {
      o.remove("meeting_id");
    }
    String rest = o.toString();
    rowsChecked.incrementAndGet();
    for (String secret : forbidden(req.key())) {
      // A tool's answer may repeat its own arguments (an id it could not find), as an error body may.
      if (rest.contains(secret) && !(mcp && requestText.contains(secret.toLowerCase(Locale.ROOT)))) {
        return "LEAK: key " + req.key() + " sees '" + secret + "'";
      }
    }
    return null;
  }

  private static String errorShape(JsonNode json, int status) {
    List<String> top = new ArrayList<>();
    json.fieldNames().forEachRemaining(top::add);
    if (!top.equals(List.of("error"))) return "error body is not {\"error\": {...}}: " + top;
    JsonNode e = json.get("error");
    List<String> fields = new ArrayList<>();
    e.fieldNames().forEachRemaining(fields::add);
    if (!fields.equals(List.of("status", "code", "field", "message"))) return "error fields are " + fields;
    if (e.get("status").asInt() != status) return "error.status differs from the HTTP status";
    if (!e.get("field").isNull() && !e.get("field").isTextual()) return "error.field neither null nor text";
    if (e.get("message").asText().isBlank()) return "empty error message";
    return null;
  }

  private static Set<String> forbidden(String key) {
    return forbiddenByKey.getOrDefault(key, allSecrets);
  }

  // ------------------------------------------------------------------ the fixture's secrets

  private static synchronized void loadFixture() throws IOException {
    if (meetings != null) return;
    List<FixtureMeeting> ms = new ArrayList<>();
    List<String> companies = new ArrayList<>();
    try (InputStream in = FuzzTest.class.getResourceAsStream("/fixtures.ndjson")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank()) continue;
        JsonNode n = MAPPER.readTree(line);
        if (n.path("kind").asText().equals("company")) companies.add(n.get("id").asText());
        if (!n.path("kind").asText().equals("meeting")) continue;
        Set<String> visible = new HashSet<>();
        n.path("visible_to").forEach(v -> visible.add(v.asText().toLowerCase(Locale.ROOT)));
        Set<String> secrets = new HashSet<>();
        secrets.add(n.get("id").asText());
        secrets.add(n.get("title").asText());
        for (JsonNode p : n.path("protocols")) {
          secrets.add(p.get("id").asText());
          for (JsonNode t : p.path("action_items")) {
            secrets.add(t.get("id").asText());
            secrets.add(t.get("task").asText());
          }
        }
        for (JsonNode seg : n.path("transcript")) {
          String text = seg.get("text").asText();
          if (!text.contains("<") && !text.contains("\"")) secrets.add(text);
        }
        ms.add(new FixtureMeeting(n.get("id").asText(), n.get("workspace").asText(), visible, secrets));
      }
    }
    Map<String, String[]> keyScope = new LinkedHashMap<>(); // key -> {workspace, user or null}
    for (String k : List.of(ApiServer.ALL, ApiServer.MEETINGS, ApiServer.TASKS, ApiServer.TRANSCRIPTS)) {
      keyScope.put(k, new String[] {"acme", null});
    }
    keyScope.put(ApiServer.ANN, new String[] {"acme", "ann@acme.com"});
    keyScope.put(ApiServer.BOB, new String[] {"acme", "bob@acme.com"});
    keyScope.put(ApiServer.OTHER, new String[] {"other", null});
    Map<String, Set<String>> byKey = new HashMap<>();
    Set<String> all = new HashSet<>();
    for (FixtureMeeting m : ms) all.addAll(m.secrets);
    for (var e : keyScope.entrySet()) {
      Set<String> f = new HashSet<>();
      for (FixtureMeeting m : ms) {
        boolean sees = m.workspace.equals(e.getValue()[0]) && (e.getValue()[1] == null || m.visibleTo.contains(e.getValue()[1]));
        if (!sees) f.addAll(m.secrets);
      }
      byKey.put(e.getKey(), f);
    }
    // The revoked key, no key and garbage keys see nothing at all.
    allSecrets = all;
    forbiddenByKey = byKey;
    meetings = ms;
    companyIds = companies;
  }

  /**
   * Cursors of the change feed: one from before the fixture is imported again (every fixture
   * meeting then has an upsert in the feed, which each key may see only for its own meetings)
   * and one from now.
   */
  private static List<String> feedCursors() throws Exception {
    String before = api.cursor(ApiServer.ALL);
    try (InputStream in = FuzzTest.class.getResourceAsStream("/fixtures.ndjson")) {
      Path again = Files.write(Files.createTempFile(api.dir(), "fixtures-again-", ".ndjson"), in.readAllBytes());
      new Importer(api.store(), Importer.Progress.NONE).run(List.of(again));
    }
    assertEquals(meetings.size(), api.changes(ApiServer.ALL, before).size() + api.changes(ApiServer.OTHER, before).size(),
        "importing the fixture again is a change of each of its meetings");
    return List.of(before, api.cursor(ApiServer.ALL));
  }

  // ------------------------------------------------------------------ helpers

  private static String rawPath(String target) {
    int q = target.indexOf('?');
    return q < 0 ? target : target.substring(0, q);
  }

  private static String decodedLower(String target) {
    try {
      return URLDecoder.decode(target.replace("+", "%2B"), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
    } catch (RuntimeException e) {
      return target.toLowerCase(Locale.ROOT);
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 600 ? s.substring(0, 600) + "..." : s;
  }

  /** Writes to two streams: the real stderr and a capture of the server's log. */
  private static final class TeeStream extends OutputStream {
    private final OutputStream a, b;

    TeeStream(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public synchronized void write(int c) throws IOException {
      a.write(c);
      b.write(c);
    }

    @Override
    public synchronized void write(byte[] buf, int off, int len) throws IOException {
      a.write(buf, off, len);
      b.write(buf, off, len);
    }
  }
}
