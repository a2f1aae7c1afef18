package minutes.http;

import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.ApiServer;
import minutes.RunsAlone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Load shedding over the real server, with one request in flight and one waiting allowed: a
 * third is answered 503 at once (never queued), /healthz and /metrics still answer, the waiting
 * one is answered once the first is done, or 503 when its turn comes past the wait limit, and
 * /metrics counts it all.
 *
 * <p>A request stays in flight, deterministically, while its body has not all arrived: the API
 * answers without reading it, but the exchange completes only when the body is in. The servers
 * run in this process, so the test reads the clock the queue's wait limit is measured on.
 */
@RunsAlone("requests that must be admitted meet a 1 ms queue wait")
class LoadSheddingTest {
  @RegisterExtension static final ApiServer api = server(3000);
  /** Its queued requests may wait 1 ms: a request seen queued is past that once the clock says so. */
  @RegisterExtension static final ApiServer impatient = server(1);

  private static ApiServer server(int maxQueueWaitMs) {
    return new ApiServer("/fixtures.ndjson", Map.of("MINUTES_HTTP_MAX_IN_FLIGHT", "1", "MINUTES_HTTP_MAX_QUEUED", "1",
        "MINUTES_HTTP_MAX_QUEUE_WAIT_MS", String.valueOf(maxQueueWaitMs)));
  }

  /** Polls /metrics (which is never shed) until the series has the value; bounded. */
  private static void awaitMetric(ApiServer server, String series, double value) throws InterruptedException {
    for (int i = 0; i < 500 && server.metric(series) != value; i++) Thread.sleep(10);
    assertEquals(value, server.metric(series), series);
  }

  private static Socket open(ApiServer server, String request) throws IOException {
    Socket s = new Socket("127.0.0.1", server.uri("/").getPort());
    s.setSoTimeout(30_000);
    s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
    return s;
  }

  private static String request(ApiServer server, String extraHeaders) {
    return "GET /api/v1/meetings HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + server.key(ALL) + "\r\n"
        + extraHeaders + "\r\n";
  }

  /** The status code of the next answer on the socket, its headers and body read to the end. */
  private static int status(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) throw new IOException("closed after: " + head);
      head.append((char) b);
    }
    Matcher length = Pattern.compile("(?im)^content-length: *(\\d+)").matcher(head);
    if (length.find()) in.readNBytes(Integer.parseInt(length.group(1)));
    return Integer.parseInt(head.substring(9, 12));
  }

  @Test
  void beyondInFlightAndQueuedIs503AtOnceWhileHealthAndMetricsAnswer() throws Exception {
    double shedBefore = api.metric("minutes_http_shed_total");
    try (Socket first = open(api, request(api, "Content-Length: 5\r\n"))) {
      assertEquals(200, status(first)); // answered, but in flight until its body is in
      awaitMetric(api, "minutes_http_in_flight", 1);
      try (Socket second = open(api, request(api, ""))) {
        awaitMetric(api, "minutes_http_queued", 1);

        ApiServer.Response third = api.get("/api/v1/meetings", ALL);
        ErrorShapeTest.assertErrorShape(third, 503, "unavailable");
        assertEquals(String.valueOf(LoadShedding.RETRY_AFTER_SECONDS), third.header("Retry-After"));
        ApiServer.Response unkeyed = api.get("/api/v1/openapi.json", null);
        assertEquals(503, unkeyed.status(), "everything but /healthz and /metrics is shed");
        assertEquals(200, api.get("/healthz", null).status());
        assertEquals(shedBefore + 2, api.metric("minutes_http_shed_total"));

        first.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
        first.getOutputStream().flush();
        assertEquals(200, status(second), "the waiting request is answered once the first is done");
      }
    }
    awaitMetric(api, "minutes_http_in_flight", 0);
    awaitMetric(api, "minutes_http_queued", 0);
    assertEquals(200, api.get("/api/v1/meetings", ALL).status());
  }

  @Test
  void aRequestWhoseTurnComesAfterTheQueueWaitLimitIs503() throws Exception {
    double shedBefore = impatient.metric("minutes_http_shed_total");
    try (Socket first = open(impatient, request(impatient, "Content-Length: 5\r\n"))) {
      assertEquals(200, status(first));
      awaitMetric(impatient, "minutes_http_in_flight", 1);
      try (Socket second = open(impatient, request(impatient, ""))) {
        awaitMetric(impatient, "minutes_http_queued", 1);
        long seenQueued = System.nanoTime(); // it arrived before this
        while (System.nanoTime() - seenQueued <= 1_000_000) Thread.onSpinWait(); // past its 1 ms
        first.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
        first.getOutputStream().flush();
        assertEquals(503, status(second), "its turn came too late: refused, not answered late");
      }
    }
    assertEquals(shedBefore + 1, impatient.metric("minutes_http_shed_total"));
    awaitMetric(impatient, "minutes_http_in_flight", 0);
    awaitMetric(impatient, "minutes_http_queued", 0);
    assertEquals(200, impatient.get("/api/v1/meetings", ALL).status(), "a request that starts at once is answered");
  }
}
