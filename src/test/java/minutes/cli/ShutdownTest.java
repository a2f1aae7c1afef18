package minutes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.TestJvm;
import minutes.TestStore;
import minutes.store.Importer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} as a real process receiving real signals: SIGTERM lets requests in flight
 * finish (bounded by http.shutdown_seconds) and exits 0; a second SIGTERM exits at once.
 * A request is kept in flight by a client that announces a body and never sends all of it.
 */
// A server that never starts (or never stops) must fail this class, not hang the build; a separate
// thread because reading the server's output does not answer to an interrupt.
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ShutdownTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Pattern SERVING = Pattern.compile("minutes is serving on http://127\\.0\\.0\\.1:(\\d+)");

  @TempDir Path dir;
  private TestStore store;
  private Process server;
  private Socket stalled;

  @BeforeEach
  void database() throws Exception {
    Path data = dir.resolve("fixtures.ndjson");
    try (var in = ShutdownTest.class.getResourceAsStream("/fixtures.ndjson")) {
      Files.copy(in, data);
    }
    store = TestStore.create(dir);
    new Importer(store.store(), Importer.Progress.NONE).run(List.of(data));
  }

  @AfterEach
  void stop() throws Exception {
    if (stalled != null) stalled.close();
    if (server != null && server.isAlive()) {
      server.destroyForcibly();
      server.waitFor(10, TimeUnit.SECONDS);
    }
    if (store != null) store.close();
  }

  /** Starts serve with the given drain bound and returns its port. */
  private int start(int shutdownSeconds) throws Exception {
    Path config = dir.resolve("minutes.properties");
    Files.writeString(config, "http.port=0\n" + store.properties() + "index.path=" + dir.resolve("index")
        + "\nhttp.shutdown_seconds=" + shutdownSeconds + "\nsearch.warmup_ms=0\n");
    server = new ProcessBuilder(TestJvm.command("serve", "--config", config.toString()))
        .redirectError(dir.resolve("server.log").toFile())
        .start();
    BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    for (String line; (line = out.readLine()) != null; ) {
      Matcher m = SERVING.matcher(line);
      if (m.find()) return Integer.parseInt(m.group(1));
    }
    throw new AssertionError("server did not start:\n" + log());
  }

  private String log() throws Exception {
    return Files.readString(dir.resolve("server.log"));
  }

  private void signal() throws Exception {
    assertEquals(0, new ProcessBuilder("kill", "-TERM", Long.toString(server.pid())).start().waitFor());
  }

  /**
   * Sends a request whose announced body never fully arrives: it stays in flight until the server
   * gives up. Returns once it is answered (without reading the body): from then on it is in flight.
   */
  private void stallARequest(int port) throws Exception {
    stalled = new Socket("127.0.0.1", port);
    OutputStream o = stalled.getOutputStream();
    o.write("GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789".getBytes(StandardCharsets.US_ASCII));
    o.flush();
    stalled.setSoTimeout(30_000);
    byte[] statusLine = stalled.getInputStream().readNBytes("HTTP/1.1 200".length());
    assertEquals("HTTP/1.1 200", new String(statusLine, StandardCharsets.US_ASCII));
  }

  @Test
  void sigtermFinishesWithoutRequestsInFlightAndExitsZero() throws Exception {
    start(10);
    signal();
    assertTrue(server.waitFor(15, TimeUnit.SECONDS), "stopped");
    assertEquals(0, server.exitValue());
    String log = log();
    assertTrue(log.matches("(?s).*INFO App - minutes \\S+ listening on http://127\\.0\\.0\\.1:\\d+, ready in \\d+ ms "
        + "\\(\\d+ ms since the JVM started\\); http\\.host=127\\.0\\.0\\.1 .*db\\.(path|url)=.*http\\.shutdown_seconds=10 .*"), log);
    assertTrue(log.contains("SIGTERM: stopping gracefully"), log);
    assertTrue(log.contains("minutes stopped in"), log);
    assertFalse(log.contains("still running"), log);
  }

  @Test
  void sigtermWaitsForARequestInFlightUpToTheBound() throws Exception {
    int port = start(3);
    stallARequest(port);
    long signalled = System.nanoTime();
    signal();
    // While draining, a new request is told to come back, in the error shape, and the connection closes.
    // The signal arrives asynchronously: poll until the server answers 503 (200 until then, nothing else).
    HttpResponse<String> refused = null;
    for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5); System.nanoTime() < deadline; Thread.sleep(20)) {
      try (HttpClient client = HttpClient.newHttpClient()) { // a fresh connection each time
        refused = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz")).build(),
            HttpResponse.BodyHandlers.ofString());
      }
      assertTrue(refused.statusCode() == 200 || refused.statusCode() == 503, refused.statusCode() + " " + refused.body());
      if (refused.statusCode() == 503) break;
    }
    assertEquals(503, refused.statusCode(), "draining within 5 s of SIGTERM");
    assertEquals("unavailable", MAPPER.readTree(refused.body()).at("/error/code").asText(), refused.body());
    assertTrue(refused.headers().firstValue("Retry-After").isPresent());
    assertFalse(server.waitFor(1, TimeUnit.SECONDS), "waits for the request in flight");
    assertTrue(server.waitFor(15, TimeUnit.SECONDS), "but not longer than http.shutdown_seconds");
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - signalled);
    assertTrue(seconds >= 3 && seconds < 12, seconds + " s");
    assertEquals(0, server.exitValue());
    assertTrue(log().contains("stopping with 1 request(s) still running after 3 s"), log());
  }

  @Test
  void aSecondSigtermExitsAtOnce() throws Exception {
    int port = start(60);
    stallARequest(port);
    signal();
    assertFalse(server.waitFor(1, TimeUnit.SECONDS), "the first signal drains");
    signal();
    assertTrue(server.waitFor(5, TimeUnit.SECONDS), "the second signal exits at once");
    assertEquals(128 + 15, server.exitValue());
    assertTrue(log().contains("second SIGTERM: exiting now"), log());
  }
}
