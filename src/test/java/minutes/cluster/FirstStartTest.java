package minutes.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.TestJvm;
import minutes.TestStore;
import minutes.store.Sql;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nodes started together on one empty PostgreSQL database (issue 12): one loads the demo data
 * and prints the demo key, the others wait for it and serve the same data; the demo is loaded
 * once, not once per node.
 */
class FirstStartTest {
  private static final Pattern SERVING = Pattern.compile("minutes is serving on http://127\\.0\\.0\\.1:(\\d+)");
  private static final Pattern DEMO_KEY = Pattern.compile("^\\s+(mk_[A-Za-z0-9_-]{43,})$");

  @TempDir Path dir;
  private final List<Process> nodes = new ArrayList<>();
  private TestStore store;

  @AfterEach
  void stop() throws Exception {
    for (Process p : nodes) p.destroy();
    for (Process p : nodes) p.waitFor(20, TimeUnit.SECONDS);
    if (store != null) store.close();
  }

  @Test
  void nodesStartedTogetherOnAnEmptyDatabaseLoadTheDemoOnce() throws Exception {
    assumeTrue(TestStore.postgres(), "several nodes share a PostgreSQL database");
    store = TestStore.create(dir);
    for (String name : List.of("a", "b", "c")) {
      Path config = dir.resolve(name + ".properties");
      Files.writeString(config, "http.port=0\n" + store.properties() + "index.path=" + dir.resolve("index-" + name)
          + "\nsearch.warmup_ms=0\n");
      nodes.add(new ProcessBuilder(TestJvm.command("serve", "--config", config.toString()))
          .redirectError(dir.resolve(name + ".log").toFile()).start());
    }
    List<String> demoKeys = new ArrayList<>();
    List<Integer> ports = new ArrayList<>();
    for (Process node : nodes) {
      BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
      for (String line; (line = out.readLine()) != null; ) {
        Matcher key = DEMO_KEY.matcher(line);
        if (key.find()) demoKeys.add(key.group(1));
        Matcher serving = SERVING.matcher(line);
        if (serving.find()) {
          ports.add(Integer.parseInt(serving.group(1)));
          break;
        }
      }
    }
    assertEquals(3, ports.size(), "every node serves");
    assertEquals(1, demoKeys.size(), "one node loaded the demo and printed its key: " + demoKeys);
    try (Connection c = store.store().write()) {
      assertEquals(1, new Sql("SELECT count(*) FROM api_key").count(c), "one demo key");
      assertEquals(30, new Sql("SELECT count(*) FROM meeting").count(c), "the 30 demo meetings");
      assertEquals(30, new Sql("SELECT count(*) FROM change_log").count(c), "each imported once");
    }
    HttpClient http = HttpClient.newHttpClient();
    List<String> answers = new ArrayList<>();
    for (int port : ports) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/meetings"))
          .header("Authorization", "Bearer " + demoKeys.get(0)).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), r.body());
      answers.add(r.body());
    }
    assertTrue(answers.get(0).contains("\"total\":27"), "the demo workspace's meetings: " + answers.get(0));
    assertEquals(List.of(answers.get(0), answers.get(0), answers.get(0)), answers, "every node answers the same");
  }
}
