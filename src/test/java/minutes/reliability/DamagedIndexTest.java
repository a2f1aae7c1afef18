package minutes.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import minutes.App;
import minutes.TestStore;
import minutes.cli.Cli;
import minutes.config.Config;
import minutes.keys.ApiKeys;
import minutes.keys.Scope;
import minutes.search.index.OtherFormat;
import minutes.store.Importer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A damaged search index (issue 5, part 3), or one of another format (issue 31): whatever is
 * wrong with its files, the server never answers 500 nor serves from it; it says so in one log line and rebuilds from the database;
 * {@code reindex} repairs it as well while no server runs. Also: the database and the index
 * are private to their owner on creation.
 */
class DamagedIndexTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String M1 = minutes.Fixtures.M1;

  @TempDir Path dir;
  private TestStore store;
  private Config config;
  private Path props;
  private String key;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** The ways an index file goes bad: bit rot in a large file, a torn header, a lost file, a cut file. */
  enum Damage { FLIPPED_BYTES_IN_LARGEST_FILE, GARBAGE_SEGMENTS_FILE, DELETED_FILE, TRUNCATED_FILE, CURRENT_NAMES_NOTHING }

  private void load() throws Exception {
    props = dir.resolve("minutes.properties");
    store = TestStore.create(dir);
    Files.writeString(props, "http.port=0\n" + store.properties() + "index.path=" + dir.resolve("index")
        + "\nsearch.warmup_ms=0\n"); // the warm-up is SearchWarmUpTest's; here it would only take 2 s a start
    config = Config.load(props, java.util.Map.of());
    Path data = dir.resolve("fixtures.ndjson");
    try (var in = DamagedIndexTest.class.getResourceAsStream("/fixtures.ndjson")) {
      Files.copy(in, data);
    }
    new Importer(store.store(), Importer.Progress.NONE).run(List.of(data));
    minutes.search.index.IndexBuilds.updateAfterImport(config); // builds the first index, as `import` does
    try (Connection c = store.store().write()) {
      key = ApiKeys.create(c, "acme", EnumSet.allOf(Scope.class), null, null).secret();
    }
  }

  @org.junit.jupiter.api.AfterEach
  void dropDatabase() {
    if (store != null) store.close();
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void aDamagedIndexIsRebuiltNeverServed(Damage damage) throws Exception {
    load();
    damage(damage);
    try (App app = new App(config).start()) {
      awaitRebuiltAndServed(app, damage.toString());
    }
  }

  /**
   * An index of another format (another Lucene, a codec Lucene no longer knows, another layout
   * or analysis, a missing or cut format file) is rebuilt in the background as a damaged one is,
   * never opened: Lucene's codec lookup would otherwise fail in a way no rebuild follows.
   */
  @ParameterizedTest
  @EnumSource(OtherFormat.class)
  void anIndexOfAnotherFormatIsRebuiltNeverOpened(OtherFormat other) throws Exception {
    load();
    Path root = config.indexPath();
    String old = Files.readString(root.resolve("CURRENT")).strip();
    other.applyTo(root.resolve(old));
    try (App app = new App(config).start()) {
      awaitRebuiltAndServed(app, other.toString());
      assertNotEquals(old, Files.readString(root.resolve("CURRENT")).strip(), other + ": served as it was");
    }
  }

  /**
   * Searches until the rebuilt index answers: meanwhile only 503s (with /healthz, when it says
   * 503 too, naming the search index), never a 500 nor a hit from the bad index.
   */
  private void awaitRebuiltAndServed(App app, String what) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      HttpResponse<String> r = get(app, "/api/v1/search?q=quarterly");
      assertTrue(r.statusCode() == 200 || r.statusCode() == 503, what + ": " + r.statusCode() + " " + r.body());
      if (r.statusCode() == 200) {
        JsonNode hits = MAPPER.readTree(r.body()).get("data");
        assertEquals(1, hits.size(), what + ": " + r.body());
        assertEquals(M1, hits.get(0).get("meeting_id").asText());
        break;
      }
      HttpResponse<String> health = get(app, "/healthz");
      if (health.statusCode() != 200) {
        assertEquals(503, health.statusCode(), what + ": " + health.body());
        assertTrue(health.body().contains("search index"), what + ": " + health.body());
      }
      if (System.nanoTime() > deadline) fail(what + ": search still 503 after 60 s: " + r.body());
      Thread.sleep(100);
    }
    assertEquals(200, get(app, "/healthz").statusCode());
  }

  @Test
  void reindexRepairsADamagedIndexWhileNoServerRuns() throws Exception {
    load();
    damage(Damage.FLIPPED_BYTES_IN_LARGEST_FILE);
    StringWriter out = new StringWriter(), err = new StringWriter();
    int code = Cli.run(new String[] {"reindex", "--config", props.toString()}, new PrintWriter(out, true),
        new PrintWriter(err, true));
    assertEquals(0, code, err.toString());
    try (App app = new App(config).start()) {
      HttpResponse<String> r = get(app, "/api/v1/search?q=quarterly");
      assertEquals(200, r.statusCode(), r.body());
      assertEquals(M1, MAPPER.readTree(r.body()).at("/data/0/meeting_id").asText());
    }
  }

  @Test
  void databaseAndIndexArePrivateToTheirOwner() throws Exception {
    load();
    if (!store.isPostgres()) assertEquals(Set.of("OWNER_READ", "OWNER_WRITE"), perms(store.sqliteFile()));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(config.indexPath())));
  }

  private static Set<String> perms(Path p) throws IOException {
    return Files.getPosixFilePermissions(p).stream().map(Enum::name).collect(java.util.stream.Collectors.toSet());
  }

  private void damage(Damage damage) throws IOException {
    Path root = config.indexPath();
    Path gen = root.resolve(Files.readString(root.resolve("CURRENT")).strip());
    List<Path> files;
    try (Stream<Path> s = Files.list(gen)) {
      files = s.filter(p -> !p.getFileName().toString().equals("write.lock"))
          .sorted(Comparator.comparingLong((Path p) -> p.toFile().length()).reversed()).toList();
    }
    switch (damage) {
      case FLIPPED_BYTES_IN_LARGEST_FILE -> {
        Path largest = files.get(0);
        try (RandomAccessFile f = new RandomAccessFile(largest.toFile(), "rw")) {
          long at = f.length() / 2;
          f.seek(at);
          int b = f.read();
          f.seek(at);
          f.write(b ^ 0xFF); // one byte, mid-file: only a checksum notices
        }
      }
      case GARBAGE_SEGMENTS_FILE -> {
        for (Path p : files) if (p.getFileName().toString().startsWith("segments_")) Files.writeString(p, "garbage");
      }
      case DELETED_FILE -> Files.delete(files.get(0));
      case TRUNCATED_FILE -> {
        try (RandomAccessFile f = new RandomAccessFile(files.get(0).toFile(), "rw")) {
          f.setLength(f.length() / 3);
        }
      }
      case CURRENT_NAMES_NOTHING -> Files.writeString(root.resolve("CURRENT"), "gen-999999\n");
    }
  }

  private HttpResponse<String> get(App app, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
        .header("Authorization", "Bearer " + key).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
