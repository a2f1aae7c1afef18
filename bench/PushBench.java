import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 47's push figures, for bench/push-bench.sh.
 *
 * <p>{@code latency POLL_PORT KEY RECEIVER_PORT ROUNDS -- IMPORT COMMAND...}: listens for webhook
 * deliveries on RECEIVER_PORT, and ROUNDS times holds a long-poll ({@code wait=30}) on POLL_PORT,
 * runs the import command (a file of one new meeting, rewritten each round) and measures from the
 * command's exit to the long-poll's answer and to the webhook's delivery. Prints p50, p95 and max
 * of each in ms; a negative figure is an answer that came before the command had exited (the
 * import commits, then updates its own search index and closes before it exits).
 *
 * <p>{@code load PORT KEY ROUNDS SEARCHES HELD STREAMS}: ROUNDS times, SEARCHES searches one after
 * another with nothing held, and the same with HELD long-polls and STREAMS streams open (held
 * from before the searches to after them), alternating which comes first; prints p50 and p99 and
 * their ratios (medians over the rounds).
 */
public class PushBench {
  static final String[] WORDS = {"remote", "control", "design", "budget", "project", "meeting", "evaluation", "market",
      "prototype", "marketing", "interface", "battery", "speech", "data", "results", "plan", "team", "user", "cost"};
  static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10)).build();
  /** The held long-polls and streams: a client of their own, so that the searches' client is not theirs. */
  static final HttpClient heldClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10)).build();
  /** Seconds a long-poll of the load waits: they end, unrenewed, before the next quiet window. */
  static final int WAIT = 20;

  public static void main(String[] args) throws Exception {
    if (args[0].equals("latency")) latency(args);
    else load(args);
  }

  static void latency(String[] args) throws Exception {
    int port = Integer.parseInt(args[1]);
    String key = args[2];
    int receiverPort = Integer.parseInt(args[3]);
    int rounds = Integer.parseInt(args[4]);
    List<String> command = List.of(args).subList(6, args.length);
    LinkedBlockingQueue<Long> deliveries = new LinkedBlockingQueue<>();
    HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", receiverPort), 0);
    receiver.createContext("/", ex -> {
      deliveries.add(System.nanoTime());
      ex.getRequestBody().readAllBytes();
      ex.sendResponseHeaders(200, -1);
      ex.close();
    });
    receiver.start();
    Pattern cursorField = Pattern.compile("\"next_cursor\":\"([^\"]+)\"");
    double[] poll = new double[rounds], hook = new double[rounds];
    String file = command.get(command.size() - 1);
    for (int i = 0; i < rounds; i++) {
      Matcher m = cursorField.matcher(get("http://127.0.0.1:" + port + "/api/v1/changes", key).body());
      if (!m.find()) throw new IllegalStateException("no cursor");
      CompletableFuture<HttpResponse<String>> held = http.sendAsync(request(
          "http://127.0.0.1:" + port + "/api/v1/changes?wait=30&since=" + m.group(1), key), HttpResponse.BodyHandlers.ofString());
      CompletableFuture<Long> answeredAt = held.thenApply(r -> System.nanoTime());
      Thread.sleep(300); // held by now
      java.nio.file.Files.writeString(java.nio.file.Path.of(file), String.format(Locale.ROOT,
          "{\"kind\":\"meeting\",\"workspace\":\"bench-push\",\"id\":\"%s\",\"title\":\"push bench %d\","
              + "\"platform\":\"zoom\",\"source\":\"calendar\",\"status\":\"ready\",\"starts_at\":\"2026-12-05T08:00:00Z\","
              + "\"created_at\":\"2026-12-05T07:00:00Z\",\"visible_to\":[],\"participants\":[],\"protocols\":[]}%n",
          new java.util.UUID(4747, System.nanoTime()), i));
      deliveries.clear();
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (p.waitFor() != 0) throw new IllegalStateException("import failed");
      long returned = System.nanoTime();
      long answered = answeredAt.get(30, TimeUnit.SECONDS);
      HttpResponse<String> r = held.get();
      if (!r.body().contains("\"upsert\"")) throw new IllegalStateException("no change in " + r.body());
      poll[i] = (answered - returned) / 1e6; // negative: answered before the command had exited
      Long at = deliveries.poll(30, TimeUnit.SECONDS);
      if (at == null) throw new IllegalStateException("no webhook delivery within 30 s");
      hook[i] = (at - returned) / 1e6;
    }
    receiver.stop(0);
    System.out.printf(Locale.ROOT, "long-poll after import: p50 %.0f ms, p95 %.0f ms, max %.0f ms (%d rounds)%n",
        pct(poll, 50), pct(poll, 95), pct(poll, 100), rounds);
    System.out.printf(Locale.ROOT, "webhook after import: p50 %.0f ms, p95 %.0f ms, max %.0f ms%n",
        pct(hook, 50), pct(hook, 95), pct(hook, 100));
  }

  static void load(String[] args) throws Exception {
    int port = Integer.parseInt(args[1]);
    String key = args[2];
    int rounds = Integer.parseInt(args[3]), searches = Integer.parseInt(args[4]);
    int held = Integer.parseInt(args[5]), streams = Integer.parseInt(args[6]);
    String base = "http://127.0.0.1:" + port;
    for (int i = 0; i < 300; i++) search(base, key, i); // warm both sides
    List<double[]> none = new ArrayList<>(), with = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      // Alternating which comes first, so that a drift of the machine's load favours neither.
      if (round % 2 == 0) none.add(searches(base, key, searches));
      AtomicBoolean open = new AtomicBoolean(true);
      List<InputStream> bodies = new ArrayList<>();
      String cursor = get(base + "/api/v1/changes", key).body().replaceAll(".*\"next_cursor\":\"([^\"]+)\".*", "$1");
      for (int i = 0; i < held; i++) holdOn(base + "/api/v1/changes?wait=" + WAIT + "&since=" + cursor, key, open);
      for (int i = 0; i < streams; i++) {
        bodies.add(heldClient.send(request(base + "/api/v1/changes/stream", key), HttpResponse.BodyHandlers.ofInputStream()).body());
      }
      // Until every one waits (not only arrived): their first reads are not what is measured.
      awaitMetric(base, "minutes_changes_waiting", held + streams, true);
      with.add(searches(base, key, searches));
      open.set(false);
      for (InputStream b : bodies) b.close();
      // The long-polls end at their deadline, unrenewed: the next quiet window starts after them.
      awaitMetric(base, "minutes_changes_held", 0, false);
      if (round % 2 == 1) none.add(searches(base, key, searches));
    }
    for (int round = 0; round < rounds; round++) {
      System.out.printf(Locale.ROOT, "round %d: none p50 %.2f p99 %.2f · held %d + %d streams p50 %.2f p99 %.2f ms%n",
          round + 1, none.get(round)[0], none.get(round)[1], held, streams, with.get(round)[0], with.get(round)[1]);
    }
    double p50None = median(none, 0), p99None = median(none, 1), p50With = median(with, 0), p99With = median(with, 1);
    System.out.printf(Locale.ROOT, "search p50 %.2f against %.2f ms (%.2fx), p99 %.2f against %.2f ms (%.2fx), "
        + "with %d long-polls and %d streams held against none, medians of %d rounds of %d%n",
        p50With, p50None, p50With / p50None, p99With, p99None, p99With / p99None, held, streams, rounds, searches);
  }

  /** A long-poll renewed each time it is answered, while {@code open}; on a client of their own, as other clients' would be. */
  static CompletableFuture<?> holdOn(String url, String key, AtomicBoolean open) {
    return heldClient.sendAsync(request(url, key), HttpResponse.BodyHandlers.discarding())
        .thenCompose(r -> open.get() ? holdOn(url, key, open) : CompletableFuture.completedFuture(null));
  }

  /** Waits until the series is at least (or, with {@code atLeast} false, at most) {@code n}. */
  static void awaitMetric(String base, String series, int n, boolean atLeast) throws Exception {
    Pattern p = Pattern.compile("(?m)^" + series + " (\\S+)$");
    for (int i = 0; i < 1200; i++) {
      Matcher m = p.matcher(get(base + "/metrics", null).body());
      if (m.find() && (atLeast ? Double.parseDouble(m.group(1)) >= n : Double.parseDouble(m.group(1)) <= n)) return;
      Thread.sleep(100);
    }
    throw new IllegalStateException(series + " never reached " + n);
  }

  static double[] searches(String base, String key, int n) throws Exception {
    double[] ms = new double[n];
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      search(base, key, i);
      ms[i] = (System.nanoTime() - t0) / 1e6;
    }
    return new double[] {pct(ms, 50), pct(ms, 99)};
  }

  static void search(String base, String key, int i) throws Exception {
    String q = WORDS[i % WORDS.length] + (i % 3 == 0 ? " " + WORDS[(i * 7) % WORDS.length] : "");
    HttpResponse<String> r = get(base + "/api/v1/search?limit=20&q=" + URLEncoder.encode(q, StandardCharsets.UTF_8), key);
    if (r.statusCode() != 200) throw new IllegalStateException("search " + r.statusCode() + ": " + r.body());
  }

  static HttpRequest request(String url, String key) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(90));
    if (key != null) b.header("Authorization", "Bearer " + key);
    return b.build();
  }

  static HttpResponse<String> get(String url, String key) throws Exception {
    return http.send(request(url, key), HttpResponse.BodyHandlers.ofString());
  }

  static double median(List<double[]> rounds, int at) {
    double[] v = rounds.stream().mapToDouble(r -> r[at]).sorted().toArray();
    return v[v.length / 2];
  }

  static double pct(double[] values, int p) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v[Math.min(v.length - 1, (int) Math.ceil(p / 100.0 * v.length) - 1)];
  }
}
