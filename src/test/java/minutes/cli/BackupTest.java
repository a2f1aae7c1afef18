package minutes.cli;

import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    Files.writeString(config, "db.path=" + api.config().dbPath() + "\nindex.path=" + api.config().indexPath() + "\n");
    return Cli.run(new String[] {"backup", "--config", config.toString(), "--out", out.toString()},
        new PrintWriter(stdout, true), new PrintWriter(stderr, true));
  }

  @Test
  void aCopyTakenWhileServingRestoresToAServerThatAnswersTheSame() throws Exception {
    StringWriter out = new StringWriter(), err = new StringWriter();
    Path copy = dir.resolve("backup");
    assertEquals(0, backup(copy, out, err), err.toString());
    assertTrue(out.toString().contains("backed up database"), out.toString());
    assertTrue(Files.isRegularFile(copy.resolve("index/CURRENT")), "index copied");

    String path = "/api/v1/search?q=quarterly%20planning";
    Config restored = new Config("127.0.0.1", 0, copy.resolve("minutes.db"), copy.resolve("index"), false, 2, false,
        "private, no-store", false, 10, java.util.List.of(), null);
    try (App app = new App(restored).start()) {
      HttpResponse<String> r = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
              .header("Authorization", "Bearer " + api.key(ALL)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), r.body());
      assertEquals(api.get(path, ALL).body(), r.body());
    }
  }

  @Test
  void anExistingFolderIsRefused() throws Exception {
    StringWriter out = new StringWriter(), err = new StringWriter();
    Files.createDirectories(dir.resolve("taken"));
    assertEquals(1, backup(dir.resolve("taken"), out, err));
    assertTrue(err.toString().contains("already exists"), err.toString());
  }
}
