import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * Search latency right after a start (issue 15 item 6), for bench/cold-start.sh: warms its own
 * HTTP client on /healthz first (so that only the server is cold), then sends N searches one
 * after another from a fixed list of words, pairs and phrases, and prints
 * {@code label n p50 p99 max} in ms. Any answer but 200 counts as failed and makes it exit 1.
 *
 * <p>Run: {@code java bench/ColdStart.java PORT KEY N LABEL}
 */
public class ColdStart {
  static final String[] WORDS = {"remote", "control", "design", "budget", "project", "meeting", "evaluation", "market",
      "prototype", "marketing", "interface", "battery", "speech", "data", "results", "plan", "team", "user", "cost",
      "button", "screen", "voice", "price", "system", "research", "report", "decision", "product", "energy", "kinetic"};

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    String key = args[1];
    int n = Integer.parseInt(args[2]);
    String label = args[3];
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    for (int i = 0; i < 300; i++) send(http, URI.create("http://127.0.0.1:" + port + "/healthz"), null);
    long[] micros = new long[n];
    int failed = 0;
    for (int i = 0; i < n; i++) {
      String q = query(i);
      URI uri = URI.create("http://127.0.0.1:" + port + "/api/v1/search?limit=20&q=" + URLEncoder.encode(q, StandardCharsets.UTF_8));
      long t0 = System.nanoTime();
      if (send(http, uri, key) != 200) failed++;
      micros[i] = (System.nanoTime() - t0) / 1000;
    }
    Arrays.sort(micros);
    System.out.printf(Locale.ROOT, "%s %d %.2f %.2f %.2f%n", label, n, micros[n / 2] / 1000.0,
        micros[Math.max(0, (int) Math.ceil(0.99 * n) - 1)] / 1000.0, micros[n - 1] / 1000.0);
    if (failed > 0) {
      System.err.println(failed + " searches did not answer 200");
      System.exit(1);
    }
  }

  /** The i-th query: a word, two words, or a quoted pair, in a fixed order. */
  static String query(int i) {
    String a = WORDS[i % WORDS.length], b = WORDS[(i * 7 + 3) % WORDS.length];
    return switch (i % 3) {
      case 0 -> a;
      case 1 -> a + " " + b;
      default -> "\"" + a + " " + b + "\"";
    };
  }

  static int send(HttpClient http, URI uri, String key) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60));
    if (key != null) b.header("Authorization", "Bearer " + key);
    return http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
