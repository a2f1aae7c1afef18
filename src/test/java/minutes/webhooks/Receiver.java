package minutes.webhooks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import minutes.NodeTool;

/**
 * A webhook receiver for the tests: a real HTTP server on a free port that records every POST
 * (headers, body, when) per path and answers as the test says (200 unless told otherwise), and
 * that checks signatures with the npm standardwebhooks package, an independent implementation.
 */
final class Receiver implements AutoCloseable {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** One delivery as received. */
  record Delivery(String id, String timestamp, String signature, String contentType, String body, long atNanos) {}

  /** How to answer: a status, headers, and a latch the answer waits on first (null: none). */
  record Answer(int status, Map<String, String> headers, CountDownLatch hold) {
    static Answer of(int status) {
      return new Answer(status, Map.of(), null);
    }
  }

  private final HttpServer server;
  private final Map<String, List<Delivery>> received = new ConcurrentHashMap<>();
  private final Map<String, ConcurrentLinkedQueue<Answer>> planned = new ConcurrentHashMap<>();

  Receiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/", ex -> {
      String path = ex.getRequestURI().getPath();
      byte[] body = ex.getRequestBody().readAllBytes();
      var h = ex.getRequestHeaders();
      received.computeIfAbsent(path, p -> java.util.Collections.synchronizedList(new ArrayList<>())).add(new Delivery(
          h.getFirst("webhook-id"), h.getFirst("webhook-timestamp"), h.getFirst("webhook-signature"),
          h.getFirst("Content-Type"), new String(body, StandardCharsets.UTF_8), System.nanoTime()));
      ConcurrentLinkedQueue<Answer> queue = planned.get(path);
      Answer a = queue == null || queue.isEmpty() ? Answer.of(200) : queue.poll();
      if (a.hold() != null) {
        try {
          a.hold().await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      a.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
      ex.sendResponseHeaders(a.status(), -1);
      ex.close();
    });
    server.start();
  }

  String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  /** The next answers to give on {@code path}, in order; then 200. */
  void plan(String path, Answer... answers) {
    planned.computeIfAbsent(path, p -> new ConcurrentLinkedQueue<>()).addAll(List.of(answers));
  }

  List<Delivery> received(String path) {
    List<Delivery> list = received.get(path);
    if (list == null) return List.of();
    synchronized (list) {
      return List.copyOf(list);
    }
  }

  /** Waits (up to {@code seconds}) until {@code path} received at least {@code n} deliveries. */
  List<Delivery> await(String path, int n, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    while (received(path).size() < n && System.nanoTime() < deadline) Thread.sleep(20);
    List<Delivery> got = received(path);
    if (got.size() < n) throw new AssertionError(path + ": " + got.size() + " deliveries within " + seconds + " s, not " + n);
    return got;
  }

  /** Each delivery's payload as the npm standardwebhooks verifier returns it, or {"error": ...}; fails if node fails. */
  static List<Map<String, Object>> verify(String secret, List<Delivery> deliveries, Path dir) throws Exception {
    List<Map<String, Object>> input = new ArrayList<>();
    for (Delivery d : deliveries) {
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("webhook-id", d.id());
      headers.put("webhook-timestamp", d.timestamp());
      headers.put("webhook-signature", d.signature());
      input.add(Map.of("headers", headers, "body", d.body()));
    }
    Path file = Files.createTempFile(dir, "deliveries-", ".json");
    MAPPER.writeValue(file.toFile(), input);
    NodeTool.Run run = NodeTool.node(Map.of("WEBHOOK_SECRET", secret), "verify-webhooks.mjs", file.toAbsolutePath().toString());
    if (run.exit() != 0) throw new AssertionError("verify-webhooks.mjs failed: " + run.err());
    return MAPPER.readValue(run.out(), MAPPER.getTypeFactory().constructCollectionType(List.class, Map.class));
  }

  @Override
  public void close() {
    server.stop(0);
  }

  static <T> List<T> map(List<Delivery> ds, Function<Delivery, T> f) {
    return ds.stream().map(f).toList();
  }
}
