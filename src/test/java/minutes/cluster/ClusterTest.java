package minutes.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import minutes.App;
import minutes.RunsAlone;
import minutes.TestStore;
import minutes.cli.Cli;
import minutes.config.Config;
import minutes.json.Jackson;
import minutes.store.DataWatch;
import minutes.store.Importer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several nodes on one database (decisions.md "Cluster mode"), on the run's store: each node a
 * server with its own index and port; what any process writes is answered by every node, and
 * searchable on every node within 2 s; concurrent imports from several writers while the
 * nodes follow the change log leave every node's index exactly as the database.
 */
@RunsAlone("a node finds an import within 2 s and refuses a revoked key within 1 s")
class ClusterTest {
  private static final Duration SEARCHABLE_WITHIN = Duration.ofSeconds(2);

  @TempDir Path dir;
  private TestStore store;
  private Path props;
  private final List<App> nodes = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void database() throws Exception {
    store = TestStore.create(dir);
    props = store.withFixtures(dir, "index.path=" + dir.resolve("cli-index") + "\n");
  }

  @AfterEach
  void stop() {
    for (App node : nodes) node.close();
    store.close();
  }

  @Test
  void whatAnyProcessWritesEveryNodeAnswersWithinTwoSeconds() throws Exception {
    App a = node("a"), b = node("b");
    Run created = cli("keys", "create", "--workspace", "acme", "--scopes", "meetings:read");
    String key = created.lastLine();
    String id = created.out.split(" ")[2];
    for (App node : List.of(a, b)) assertEquals(200, get(node, "/api/v1/meetings", key).statusCode());

    Path file = dir.resolve("new.ndjson");
    Files.writeString(file, meeting(new java.util.UUID(7, 7).toString(), "Narwhal tusk review") + "\n");
    assertEquals(0, cli("import", file.toString()).code);
    long imported = System.nanoTime();
    for (App node : List.of(a, b)) {
      assertEquals(200, get(node, "/api/v1/meetings/" + new java.util.UUID(7, 7), key).statusCode(), "at once");
      awaitHits(node, key, "narwhal", List.of(new java.util.UUID(7, 7).toString()), imported);
    }

    assertEquals(0, cli("keys", "revoke", id).code);
    for (App node : List.of(a, b)) assertEquals(401, get(node, "/api/v1/meetings", key).statusCode(), "revoked at once");
  }

  /**
   * decisions.md "Deleting data" and "Change feed" in cluster mode: a delete made through the CLI
   * is answered by every node at once and gone from every node's search within 2 s, and a feed
   * cursor one node handed out is accepted by the other (they sign with the database's key).
   */
  @Test
  void aDeleteIsGoneFromEveryNodeAndEveryNodeAcceptsTheOthersCursors() throws Exception {
    App a = node("a"), b = node("b");
    String key = cli("keys", "create", "--workspace", "acme", "--scopes", "meetings:read").lastLine();
    String m1 = minutes.Fixtures.M1;
    for (App node : List.of(a, b)) awaitHits(node, key, "quarterly", List.of(m1), System.nanoTime());
    String fromA = Jackson.MAPPER.readTree(get(a, "/api/v1/changes", key).body()).get("next_cursor").asText();

    Path file = dir.resolve("delete.ndjson");
    Files.writeString(file, "{\"kind\":\"delete\",\"what\":\"meeting\",\"workspace\":\"acme\",\"id\":\"" + m1 + "\"}\n");
    assertEquals(0, cli("import", file.toString()).code);
    long deleted = System.nanoTime();
    for (App node : List.of(a, b)) {
      assertEquals(404, get(node, "/api/v1/meetings/" + m1, key).statusCode(), "at once");
      awaitHits(node, key, "quarterly", List.of(), deleted);
    }
    JsonNode onB = Jackson.MAPPER.readTree(get(b, "/api/v1/changes?since=" + fromA, key).body());
    assertEquals(1, onB.get("data").size(), onB.toString());
    assertEquals(m1, onB.at("/data/0/meeting_id").asText());
    assertEquals("delete", onB.at("/data/0/change").asText());
    HttpResponse<String> backOnA = get(a, "/api/v1/changes?since=" + onB.get("next_cursor").asText(), key);
    assertEquals(200, backOnA.statusCode(), backOnA.body());
    assertEquals(0, Jackson.MAPPER.readTree(backOnA.body()).get("data").size());
  }

  /**
   * A search checks its key against what the node has heard (store.DataWatch on PostgreSQL), not
   * with a statement of its own: a key revoked through the CLI, or revoked by deleting its user,
   * or deleted with its workspace, must stop searching on every node within
   * DataWatch.TRUST_MILLIS of the command's return (the notice takes milliseconds; the bound
   * is what a stalled listener may take), while the keys that stay valid keep searching. Each
   * key searches on both nodes first, so that a node knows it before it is revoked.
   */
  @Test
  void aRevokedOrDeletedKeyStopsSearchingOnEveryNodePromptly() throws Exception {
    App a = node("a"), b = node("b");
    Run revoked = cli("keys", "create", "--workspace", "acme", "--scopes", "meetings:read");
    String personal = cli("keys", "create", "--workspace", "acme", "--scopes", "meetings:read", "--user", "ann@acme.com")
        .lastLine();
    String otherWorkspace = cli("keys", "create", "--workspace", "other", "--scopes", "meetings:read").lastLine();
    String staying = cli("keys", "create", "--workspace", "acme", "--scopes", "meetings:read").lastLine();
    List<String> all = List.of(revoked.lastLine(), personal, otherWorkspace, staying);
    for (App node : List.of(a, b)) {
      for (String key : all) assertEquals(200, search(node, key), "before");
    }

    cli("keys", "revoke", revoked.out.split(" ")[2]);
    awaitRefused(List.of(a, b), revoked.lastLine(), System.nanoTime());
    Path file = dir.resolve("deletes.ndjson");
    Files.writeString(file, "{\"kind\":\"delete\",\"what\":\"user\",\"workspace\":\"acme\",\"email\":\"ann@acme.com\"}\n");
    cli("import", file.toString());
    awaitRefused(List.of(a, b), personal, System.nanoTime());
    Files.writeString(file, "{\"kind\":\"delete\",\"what\":\"workspace\",\"workspace\":\"other\"}\n");
    cli("import", file.toString());
    awaitRefused(List.of(a, b), otherWorkspace, System.nanoTime());
    for (App node : List.of(a, b)) assertEquals(200, search(node, staying), "a key nobody revoked");
  }

  private int search(App node, String key) throws Exception {
    return get(node, "/api/v1/search?q=planning", key).statusCode();
  }

  /** Every node refuses {@code key}'s search within DataWatch.TRUST_MILLIS of {@code since}, and from then on. */
  private void awaitRefused(List<App> nodes, String key, long since) throws Exception {
    for (App node : nodes) {
      while (search(node, key) != 401 && System.nanoTime() - since < Duration.ofSeconds(10).toNanos()) Thread.sleep(5);
      long took = System.nanoTime() - since;
      assertTrue(took <= DataWatch.TRUST_MILLIS * 1_000_000, "refused after " + took / 1_000_000 + " ms");
      for (int i = 0; i < 5; i++) assertEquals(401, search(node, key), "stays refused");
    }
  }

  /**
   * Writers on connections of their own, as imports from several machines are, big and small
   * at once, so that change_log numbers are handed out in one order and would be committed in
   * another if writers did not take turns. Each writer replaces its own meetings with every
   * import, so the final state is known whatever the order between writers. A last import
   * marks the end: once a node finds it, it must already show everything before it, since a
   * node follows the log in order; a number passed before its import committed would show as
   * a missing or stale meeting.
   */
  @Test
  void concurrentWritersNeverLetANodePassANumber() throws Exception {
    List<App> following = List.of(node("a"), node("b"));
    String key = cli("keys", "create", "--workspace", "acme", "--scopes", "meetings:read").lastLine();
    int writers = 4, importsEach = 5;
    Map<String, String> finalWord = new ConcurrentHashMap<>(); // meeting id -> the word of its last title
    List<String> replacedWords = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int writer = w;
      threads.add(new Thread(() -> {
        try {
          int size = writer % 2 == 0 ? 30 : 1;
          for (int i = 0; i < importsEach; i++) {
            List<String> lines = new ArrayList<>();
            for (int n = 0; n < size; n++) {
              String id = new java.util.UUID(1000 + writer, n).toString();
              String word = "ov" + writer + "i" + i + "n" + n;
              lines.add(meeting(id, "Overlap " + word));
              String before = finalWord.put(id, word);
              if (before != null) replacedWords.add(before);
            }
            Path file = Files.write(dir.resolve("w" + writer + "-" + i + ".ndjson"), lines);
            new Importer(store.store(), Importer.Progress.NONE).run(List.of(file));
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) t.join();
    if (failure.get() != null) throw new AssertionError("an import failed", failure.get());

    Path last = Files.writeString(dir.resolve("last.ndjson"), meeting(new java.util.UUID(9, 9).toString(), "Overlap endmark") + "\n");
    new Importer(store.store(), Importer.Progress.NONE).run(List.of(last));
    long imported = System.nanoTime(); // "searchable within 2 s" counts from when the import returns
    for (App node : following) {
      awaitHits(node, key, "endmark", List.of(new java.util.UUID(9, 9).toString()), imported);
      for (Map.Entry<String, String> e : finalWord.entrySet()) {
        assertEquals(List.of(e.getKey()), hits(node, key, e.getValue()), "node " + node.port() + ": " + e.getValue());
      }
      for (String word : replacedWords) assertEquals(List.of(), hits(node, key, word), "replaced: " + word);
      assertEquals(finalWord.size() + 1, hits(node, key, "overlap&limit=100").size(), "none lost or doubled");
    }
  }

  private static String meeting(String id, String title) {
    return "{\"kind\":\"meeting\",\"workspace\":\"acme\",\"id\":\"" + id + "\",\"title\":\"" + title
        + "\",\"platform\":\"zoom\",\"source\":\"calendar\",\"status\":\"ready\",\"starts_at\":\"2026-05-01T09:00:00Z\","
        + "\"created_at\":\"2026-04-30T12:00:00Z\"}";
  }

  private App node(String name) throws Exception {
    Map<String, String> env = new HashMap<>(store.env());
    env.putAll(Map.of("MINUTES_HTTP_PORT", "0", "MINUTES_INDEX_PATH", dir.resolve("index-" + name).toString(),
        "MINUTES_DB_POOL_SIZE", "4", "MINUTES_SEARCH_WARMUP_MS", "0"));
    App node = new App(Config.load(Files.createFile(dir.resolve(name + ".properties")), env)).start();
    nodes.add(node);
    return node;
  }

  private HttpResponse<String> get(App node, String path, String key) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port() + path))
        .header("Authorization", "Bearer " + key).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The meeting ids a search on the node finds, best first. */
  private List<String> hits(App node, String key, String query) throws Exception {
    HttpResponse<String> r = get(node, "/api/v1/search?q=" + query, key);
    assertEquals(200, r.statusCode(), r.body());
    List<String> found = new ArrayList<>();
    for (JsonNode hit : Jackson.MAPPER.readTree(r.body()).get("data")) found.add(hit.get("meeting_id").asText());
    return found;
  }

  /** Waits until the node's search for {@code word} finds exactly these meetings; it must within 2 s of {@code since}. */
  private void awaitHits(App node, String key, String word, List<String> expected, long since) throws Exception {
    List<String> found = hits(node, key, word);
    while (!found.equals(expected) && System.nanoTime() - since < SEARCHABLE_WITHIN.toNanos() + Duration.ofSeconds(8).toNanos()) {
      Thread.sleep(20);
      found = hits(node, key, word);
    }
    assertEquals(expected, found, "node on port " + node.port() + ", search for " + word);
    long took = System.nanoTime() - since;
    assertTrue(took <= SEARCHABLE_WITHIN.toNanos(), word + " searchable after " + took / 1_000_000 + " ms");
  }

  private Run cli(String... args) {
    String[] withConfig = java.util.Arrays.copyOf(args, args.length + 2);
    withConfig[args.length] = "--config";
    withConfig[args.length + 1] = props.toString();
    StringWriter out = new StringWriter(), err = new StringWriter();
    int code = Cli.run(withConfig, new PrintWriter(out, true), new PrintWriter(err, true));
    assertEquals(0, code, err.toString());
    return new Run(code, out.toString());
  }

  private record Run(int code, String out) {
    String lastLine() {
      String[] lines = out.strip().split("\n");
      return lines[lines.length - 1].trim();
    }
  }
}
