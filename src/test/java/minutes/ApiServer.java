package minutes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import minutes.config.Config;
import minutes.keys.Scope;
import minutes.keys.ApiKeys;
import minutes.store.Store;
import minutes.store.Importer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The real server for API tests, once per test class: a fresh database on the run's store (a
 * temporary SQLite file, or a PostgreSQL database: {@link TestStore}) loaded through the real
 * import, real keys, {@link App} on a free port, and an HTTP client. Use with
 * {@code @RegisterExtension static final ApiServer api = new ApiServer();}.
 */
public final class ApiServer implements BeforeAllCallback, AfterAllCallback {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Keys created for every server, by name. */
  public static final String ALL = "all", MEETINGS = "meetings", TASKS = "tasks", TRANSCRIPTS = "transcripts",
      ANN = "ann", BOB = "bob", OTHER = "other", REVOKED = "revoked";

  private final String fixture;
  private final Map<String, String> settings;
  private final MoreData more;
  private boolean sqlite; // on SQLite whatever the run's store
  private Path dir;
  private TestStore testStore;
  private Config config;
  private App app;
  private final Map<String, String> keys = new HashMap<>();
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public ApiServer() {
    this("/fixtures.ndjson");
  }

  public ApiServer(String fixtureResource) {
    this(fixtureResource, Map.of());
  }

  /**
   * A server with settings of its own, as an operator gives them: MINUTES_* variables, e.g.
   * {@code Map.of("MINUTES_METRICS_REQUIRE_KEY", "true")}, read by the real config loader.
   */
  public ApiServer(String fixtureResource, Map<String, String> settings) {
    this(fixtureResource, settings, out -> { });
  }

  /** As above, with more NDJSON lines written after the fixture's (e.g. data too large to keep as a file). */
  public ApiServer(String fixtureResource, Map<String, String> settings, MoreData more) {
    this.fixture = fixtureResource;
    this.settings = settings;
    this.more = more;
  }

  /** This server on SQLite whatever store the run is for, to compare answers of the two. */
  public ApiServer onSqlite() {
    sqlite = true;
    return this;
  }

  /** Writes NDJSON lines to import after the fixture's. */
  @FunctionalInterface
  public interface MoreData {
    void write(java.io.Writer out) throws IOException;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    dir = Files.createTempDirectory("minutes-test-");
    testStore = sqlite ? TestStore.createSqlite(dir) : TestStore.create(dir);
    Map<String, String> env = new HashMap<>(Map.of("MINUTES_HTTP_HOST", "127.0.0.1", "MINUTES_HTTP_PORT", "0",
        "MINUTES_INDEX_PATH", dir.resolve("index").toString(), "MINUTES_DB_AUTO_MIGRATE", "false",
        "MINUTES_DB_POOL_SIZE", "4",
        // Hundreds of servers start in the suite; WarmUpTest turns it on where it is the subject.
        "MINUTES_SEARCH_WARMUP_MS", "0"));
    env.putAll(testStore.env());
    env.putAll(settings);
    Path noFile = Files.createFile(dir.resolve("minutes.properties")); // never the working directory's config
    config = Config.load(noFile, env);
    Path data = dir.resolve("fixtures.ndjson");
    try (var in = ApiServer.class.getResourceAsStream(fixture)) {
      Files.copy(in, data);
    }
    try (var out = Files.newBufferedWriter(data, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND)) {
      more.write(out);
    }
    new Importer(store(), Importer.Progress.NONE).run(List.of(data));
    try (Connection c = store().write()) {
      keys.put(ALL, ApiKeys.create(c, "acme", EnumSet.allOf(Scope.class), null, "all").secret());
      keys.put(MEETINGS, ApiKeys.create(c, "acme", Set.of(Scope.MEETINGS_READ), null, null).secret());
      keys.put(TASKS, ApiKeys.create(c, "acme", Set.of(Scope.ACTION_ITEMS_READ), null, null).secret());
      keys.put(TRANSCRIPTS, ApiKeys.create(c, "acme", Set.of(Scope.TRANSCRIPTS_READ), null, null).secret());
      keys.put(ANN, ApiKeys.create(c, "acme", EnumSet.allOf(Scope.class), "ann@acme.com", null).secret());
      keys.put(BOB, ApiKeys.create(c, "acme", EnumSet.allOf(Scope.class), "bob@acme.com", null).secret());
      keys.put(OTHER, ApiKeys.create(c, "other", EnumSet.allOf(Scope.class), null, null).secret());
      ApiKeys.Created revoked = ApiKeys.create(c, "acme", EnumSet.allOf(Scope.class), null, null);
      ApiKeys.revoke(c, revoked.id());
      keys.put(REVOKED, revoked.secret());
    }
    app = new App(config).start();
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    if (app != null) app.close();
    if (testStore != null) testStore.close();
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** Stops the server now, as an operator's stop does (afterAll then has nothing left to stop). */
  public void stopServer() {
    app.close();
  }

  public String key(String name) {
    return keys.get(name);
  }

  public Config config() {
    return config;
  }

  /** The database this server answers from. */
  public Store store() {
    return testStore.store();
  }

  /** The test database behind {@link #store()}: its settings for a CLI run, its file on SQLite. */
  public TestStore testStore() {
    return testStore;
  }

  /** The test's own folder (database file, index, files a test writes), removed afterwards. */
  public Path dir() {
    return dir;
  }

  /** A command run as an operator runs it next to this server: on its database and its index folder. */
  public CliRun cli(String... args) {
    Path file = dir.resolve("cli.properties");
    try {
      if (!Files.exists(file)) Files.writeString(file, testStore.properties() + "index.path=" + config.indexPath() + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return CliRun.of(file, args);
  }

  /** Creates a key with every scope (a personal one when {@code userEmail} is set) and names it for {@link #get}. */
  public String createKey(String name, String workspace, String userEmail) throws java.sql.SQLException {
    try (Connection c = store().write()) {
      ApiKeys.Created created = ApiKeys.create(c, workspace, EnumSet.allOf(Scope.class), userEmail, name);
      keys.put(name, created.secret());
      return created.id();
    }
  }

  public URI uri(String pathAndQuery) {
    try {
      return new URI("http://127.0.0.1:" + app.port() + pathAndQuery);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(pathAndQuery, e);
    }
  }

  /** GET with the named key ({@code null}: no Authorization header). */
  public Response get(String pathAndQuery, String keyName) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(pathAndQuery)).GET();
    if (keyName != null) b.header("Authorization", "Bearer " + keys.get(keyName));
    return send(b);
  }

  /** Any method with raw headers, for error and protocol tests. */
  public Response send(String method, String pathAndQuery, Map<String, String> headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(pathAndQuery)).method(method, HttpRequest.BodyPublishers.noBody());
    headers.forEach(b::header);
    return send(b);
  }

  /** POST with a body and raw headers (for /mcp), checked against openapi.json like every answer. */
  public Response post(String pathAndQuery, Map<String, String> headers, String body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(pathAndQuery))
        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    headers.forEach(b::header);
    return send(b);
  }

  /**
   * Sends, decodes gzip, and checks the answer against openapi.json, so that the document
   * cannot drift from what the server does: a mismatch fails the test.
   */
  private Response send(HttpRequest.Builder b) {
    try {
      HttpRequest request = b.timeout(Duration.ofSeconds(30)).build();
      HttpResponse<byte[]> r = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
      byte[] raw = r.body();
      if (r.headers().firstValue("Content-Encoding").orElse("").equals("gzip")) {
        try (var in = new GZIPInputStream(new ByteArrayInputStream(raw))) {
          raw = in.readAllBytes();
        }
      }
      Response response = new Response(r.statusCode(), r.headers(), new String(raw, StandardCharsets.UTF_8));
      OpenApiCheck.assertConforms(request.method(), request.uri().getRawPath(), response.status(), response.headers(),
          response.body());
      return response;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The change feed's cursor for now (GET /changes without since) for the named key. */
  public String cursor(String keyName) {
    Response r = get("/api/v1/changes", keyName);
    if (r.status() != 200) throw new AssertionError("GET /api/v1/changes: " + r.status() + " " + r.body());
    return r.json().get("next_cursor").asText();
  }

  /** Every change after {@code cursor} the named key sees, as "id change", following next_cursor to the end. */
  public List<String> changes(String keyName, String cursor) {
    List<String> seen = new java.util.ArrayList<>();
    for (String next = cursor; ; ) {
      Response r = get("/api/v1/changes?since=" + next, keyName);
      if (r.status() != 200) throw new AssertionError("GET /api/v1/changes: " + r.status() + " " + r.body());
      r.json().get("data").forEach(c -> seen.add(c.get("meeting_id").asText() + " " + c.get("change").asText()));
      if (!r.json().get("has_more").asBoolean()) return seen;
      next = r.json().get("next_cursor").asText();
    }
  }

  /** The meetings a search finds for the named key, best first. */
  public List<String> hits(String keyName, String q) {
    Response r = get("/api/v1/search?q=" + q, keyName);
    if (r.status() != 200) throw new AssertionError("GET /api/v1/search?q=" + q + ": " + r.status() + " " + r.body());
    return column(r.json(), "meeting_id");
  }

  /**
   * Waits (up to 10 s) until a search finds exactly these meetings, e.g. until the server applied
   * an import; fails if it never does, or if it took longer than {@code within} from {@code sinceNanos}.
   */
  public void awaitHits(String keyName, String q, List<String> expected, long sinceNanos, Duration within)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!hits(keyName, q).equals(expected) && System.nanoTime() < deadline) Thread.sleep(20);
    if (!hits(keyName, q).equals(expected)) {
      throw new AssertionError("search for " + q + " found " + hits(keyName, q) + ", not " + expected);
    }
    long took = System.nanoTime() - sinceNanos;
    if (took > within.toNanos()) throw new AssertionError(q + ": as expected only after " + took / 1_000_000 + " ms");
  }

  /** One field of every row of an answer's {@code data}, in order. */
  public static List<String> column(JsonNode body, String field) {
    List<String> values = new java.util.ArrayList<>();
    body.get("data").forEach(row -> values.add(row.get(field).asText()));
    return values;
  }

  /** Field names of a JSON object, in the order the server wrote them. */
  public static List<String> fields(JsonNode object) {
    List<String> names = new java.util.ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** A received answer. */
  /** The value of one series in this server's /metrics (asked without a key). */
  public double metric(String series) {
    return metric(get("/metrics", null).body(), series);
  }

  /** The value of one series, e.g. {@code minutes_index_documents}, in a /metrics body. */
  public static double metric(String metrics, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(metrics);
    if (!m.find()) throw new AssertionError("no series " + series + " in:\n" + metrics);
    return Double.parseDouble(m.group(1));
  }

  public record Response(int status, HttpHeaders headers, String body) {
    public JsonNode json() {
      try {
        return MAPPER.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON (status " + status + "): " + body, e);
      }
    }

    public String header(String name) {
      return headers.firstValue(name).orElse(null);
    }
  }
}
