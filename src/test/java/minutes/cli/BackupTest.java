package minutes.cli;

import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import minutes.ApiServer;
import minutes.App;
import minutes.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code backup} while the server answers, and a server started on the copy answering the same. */
class BackupTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  @TempDir Path dir;

  private int backup(Path out, StringWriter stdout, StringWriter stderr) throws Exception {
    Path config = dir.resolve("minutes.properties");
    Files.writeString(config, api.testStore().properties() + "index.path=" + api.config().indexPath() + "\n");
    return Cli.run(new String[] {"backup", "--config", config.toString(), "--out", out.toString()},
        new PrintWriter(stdout, true), new PrintWriter(stderr, true));
  }

  @Test
  void aCopyTakenWhileServingRestoresToAServerThatAnswersTheSame() throws Exception {
    assumeFalse(api.testStore().isPostgres(), "backup copies SQLite; PostgreSQL is backed up with its own tools");
    StringWriter out = new StringWriter(), err = new StringWriter();
    Path copy = dir.resolve("backup");
    assertEquals(0, backup(copy, out, err), err.toString());
    assertTrue(out.toString().contains("backed up database"), out.toString());
    assertTrue(Files.isRegularFile(copy.resolve("index/CURRENT")), "index copied");

    String path = "/api/v1/search?q=quarterly%20planning";
    Config restored = Config.load(Files.createFile(dir.resolve("restored.properties")), java.util.Map.of(
        "MINUTES_HTTP_PORT", "0", "MINUTES_DB_PATH", copy.resolve("minutes.db").toString(),
        "MINUTES_INDEX_PATH", copy.resolve("index").toString(), "MINUTES_DB_AUTO_MIGRATE", "false",
        "MINUTES_SEARCH_WARMUP_MS", "0")); // the warm-up is SearchWarmUpTest's; here it would only take 2 s
    String copied = Files.readString(copy.resolve("index/CURRENT")).strip();
    try (App app = new App(restored).start()) {
      assertEquals(copied, Files.readString(copy.resolve("index/CURRENT")).strip(),
          "the copy is served as it is, not rebuilt (its format file copied too)");
      HttpResponse<String> r = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
              .header("Authorization", "Bearer " + api.key(ALL)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), r.body());
      assertEquals(api.get(path, ALL).body(), r.body());
    }
  }

  @Test
  void onPostgresItRefusesAndNamesWhatBacksUpTheStore() throws Exception {
    assumeTrue(api.testStore().isPostgres(), "the PostgreSQL run");
    StringWriter out = new StringWriter(), err = new StringWriter();
    assertEquals(1, backup(dir.resolve("pg"), out, err));
    assertTrue(err.toString().contains("pg_dump") && err.toString().contains("reindex"), err.toString());
    assertTrue(Files.notExists(dir.resolve("pg")), "nothing written");
  }

  @Test
  void anExistingFolderIsRefused() throws Exception {
    assumeFalse(api.testStore().isPostgres(), "on PostgreSQL backup refuses before looking at the folder");
    StringWriter out = new StringWriter(), err = new StringWriter();
    Files.createDirectories(dir.resolve("taken"));
    assertEquals(1, backup(dir.resolve("taken"), out, err));
    assertTrue(err.toString().contains("already exists"), err.toString());
  }
}
