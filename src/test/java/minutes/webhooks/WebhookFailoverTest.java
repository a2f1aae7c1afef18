package minutes.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.ApiServer;
import minutes.CliRun;
import minutes.TestJvm;
import minutes.TestLines;
import minutes.TestStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code serve} processes on one database (the run's store): one delivers webhooks at a
 * time; kill -9 it in the middle of a delivery, and the other takes over within 30 s and sends
 * the same change again with the same webhook-id, signed as before (at least once, nothing lost).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WebhookFailoverTest {
  private static final Pattern SERVING = Pattern.compile("minutes is serving on http://127\\.0\\.0\\.1:(\\d+)");

  @TempDir Path dir;
  private TestStore store;
  private Path props;
  private Receiver receiver;
  private final List<Process> nodes = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void database() throws Exception {
    store = TestStore.create(dir);
    props = store.withFixtures(dir, "index.path=" + dir.resolve("index") + "\n");
    receiver = new Receiver();
  }

  @AfterEach
  void stop() throws Exception {
    for (Process p : nodes) {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
    if (receiver != null) receiver.close();
    if (store != null) store.close();
  }

  /** Starts a serve process with an index folder of its own; returns once it listens. */
  private void startNode(String name) throws Exception {
    Path config = dir.resolve(name + ".properties");
    Files.writeString(config, "http.port=0\n" + store.properties() + "index.path=" + dir.resolve("index-" + name)
        + "\nsearch.warmup_ms=0\n");
    Process p = new ProcessBuilder(TestJvm.command("serve", "--config", config.toString()))
        .redirectError(dir.resolve(name + ".log").toFile())
        .start();
    nodes.add(p);
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    for (String line; (line = out.readLine()) != null; ) {
      Matcher m = SERVING.matcher(line);
      if (m.find()) {
        ports.add(Integer.parseInt(m.group(1)));
        Thread.ofVirtual().start(() -> out.lines().forEach(l -> { })); // keep its output flowing
        return;
      }
    }
    throw new AssertionError(name + " did not start:\n" + Files.readString(dir.resolve(name + ".log")));
  }

  private double delivering(int node) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports.get(node) + "/metrics"))
        .build(), HttpResponse.BodyHandlers.ofString());
    return ApiServer.metric(r.body(), "minutes_webhook_delivering");
  }

  @Test
  void killingTheDeliveringNodeMidDeliveryLosesNothingAndTheOtherSendsTheSameIdWithin30s() throws Exception {
    CliRun key = CliRun.of(props, "keys", "create", "--workspace", "acme", "--scopes", "meetings:read");
    String keyId = key.out().replaceAll("(?s).*created key (key_[0-9a-f]+) .*", "$1");
    CountDownLatch release = new CountDownLatch(1);
    receiver.plan("/hook", new Receiver.Answer(200, Map.of(), release)); // the first delivery hangs
    CliRun created = CliRun.of(props, "webhooks", "create", "--key", keyId, "--url", receiver.url("/hook"));
    assertEquals(0, created.code(), created.err());
    startNode("a");
    startNode("b");
    String m = new UUID(50, 1).toString();
    assertEquals(0, CliRun.of(props, "import", TestLines.file(dir, TestLines.meeting(m, "zqfailover")).toString()).code());
    Receiver.Delivery first = receiver.await("/hook", 1, 30).get(0);

    int deliverer = delivering(0) == 1 ? 0 : 1;
    assertEquals(1, delivering(deliverer));
    assertEquals(0, delivering(1 - deliverer), "one node delivers at a time");
    nodes.get(deliverer).destroyForcibly(); // SIGKILL: no shutdown, the lease is not let go
    assertTrue(nodes.get(deliverer).waitFor(10, TimeUnit.SECONDS));
    long killed = System.nanoTime();
    release.countDown();

    List<Receiver.Delivery> both = receiver.await("/hook", 2, 45);
    long tookMs = (both.get(1).atNanos() - killed) / 1_000_000;
    assertTrue(tookMs < 30_000, "the other node delivered " + tookMs + " ms after the kill");
    assertEquals(first.id(), both.get(1).id(), "the same webhook-id: a receiver can tell it is the same change");
    assertEquals(first.body(), both.get(1).body());
    assertTrue(first.body().contains(m));
    String secret = created.lastLine();
    for (Map<String, Object> v : Receiver.verify(secret, both, dir)) assertNull(v.get("error"), v.toString());
    assertEquals(1, delivering(1 - deliverer));
    Thread.sleep(1000);
    assertEquals(2, receiver.received("/hook").size(), "delivered: not sent a third time");
  }
}
