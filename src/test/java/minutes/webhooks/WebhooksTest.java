package minutes.webhooks;

import static minutes.TestLines.delete;
import static minutes.TestLines.meeting;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import minutes.ApiServer;
import minutes.CliRun;
import minutes.RunsAlone;
import minutes.TestLines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Webhooks (decisions.md "Push") through the real CLI and the real server, on the run's store,
 * with a real receiver: every delivery's signature checked by the npm standardwebhooks package,
 * what a key's webhook hears against what its /changes shows, retries with the same webhook-id,
 * 410, a revoked key, and the operator's mistakes.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@RunsAlone("a retry comes 5 to 6.5 s after a failed delivery")
class WebhooksTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static Receiver receiver;

  @BeforeAll
  static void listen() throws Exception {
    receiver = new Receiver();
  }

  @AfterAll
  static void stop() {
    receiver.close();
  }

  /** Creates a webhook with the CLI; returns {id, secret}. */
  private static String[] create(String keyId, String path) {
    CliRun r = api.cli("webhooks", "create", "--key", keyId, "--url", receiver.url(path), "--name", "test " + path);
    assertEquals(0, r.code(), r.err());
    String secret = r.lastLine();
    assertTrue(secret.matches("whsec_[A-Za-z0-9+/]{43}="), secret);
    String id = r.out().replaceAll("(?s).*created webhook (wh_[0-9a-f]+) .*", "$1");
    assertTrue(id.matches("wh_[0-9a-f]{12}"), r.out());
    return new String[] {id, secret};
  }

  @Test
  void aWebhookHearsWhatItsKeysFeedShowsSignedTheStandardWay() throws Exception {
    String allKey = api.createKey("wh-all", "acme", null), bobKey = api.createKey("wh-bob", "acme", "bob@acme.com");
    String allCursor = api.cursor("wh-all"), bobCursor = api.cursor("wh-bob");
    String[] all = create(allKey, "/all"), bob = create(bobKey, "/bob");
    String annOnly = new UUID(49, 1).toString(), bobs = new UUID(49, 2).toString();
    importLines(meeting(annOnly, "zqhookann", "ann@acme.com"), meeting(bobs, "zqhookbob", "bob@acme.com"));
    importLines(delete("meeting", "acme", annOnly));
    List<String> expectedAll = api.changes("wh-all", allCursor), expectedBob = api.changes("wh-bob", bobCursor);
    assertEquals(List.of(annOnly + " upsert", bobs + " upsert", annOnly + " delete"), expectedAll);
    assertEquals(List.of(bobs + " upsert"), expectedBob);

    List<Receiver.Delivery> toAll = receiver.await("/all", 3, 30), toBob = receiver.await("/bob", 1, 30);
    Thread.sleep(1000); // nothing more may come
    assertEquals(3, receiver.received("/all").size());
    assertEquals(1, receiver.received("/bob").size(), "bob's webhook never hears of ann's meeting, nor of its delete");
    assertFalse(receiver.received("/bob").get(0).body().contains(annOnly));
    assertEquals(expectedAll, heard(toAll));
    assertEquals(expectedBob, heard(toBob));

    List<Map<String, Object>> verified = Receiver.verify(all[1], toAll, api.dir());
    for (int i = 0; i < toAll.size(); i++) {
      assertNull(verified.get(i).get("error"), "standardwebhooks refused delivery " + i + ": " + verified.get(i));
      assertEquals(MAPPER.readValue(toAll.get(i).body(), Map.class), verified.get(i));
    }
    assertTrue(Receiver.verify(bob[1], toAll, api.dir()).stream().allMatch(v -> v.get("error") != null),
        "another webhook's secret does not verify them");
    assertNull(Receiver.verify(bob[1], toBob, api.dir()).get(0).get("error"));

    Receiver.Delivery first = toAll.get(0);
    assertEquals("application/json", first.contentType());
    JsonNode body = MAPPER.readTree(first.body());
    assertEquals(List.of("type", "timestamp", "data"), ApiServer.fields(body));
    assertEquals("meeting.upserted", body.get("type").asText());
    assertEquals(List.of("meeting_id", "changed_at", "cursor"), ApiServer.fields(body.get("data")));
    assertEquals(body.get("timestamp").asText(), body.at("/data/changed_at").asText());
    assertEquals("meeting.deleted", MAPPER.readTree(toAll.get(2).body()).get("type").asText());
    // The cursor is /changes's: after the last delivery there is nothing more for the key.
    String cursor = MAPPER.readTree(toAll.get(2).body()).at("/data/cursor").asText();
    assertEquals(List.of(), api.changes("wh-all", cursor));
    assertEquals(3, new HashSet<>(Receiver.map(toAll, Receiver.Delivery::id)).size(), "one webhook-id per change");
    assertTrue(Math.abs(Long.parseLong(first.timestamp()) - System.currentTimeMillis() / 1000) < 120);

    String list = api.cli("webhooks", "list").out();
    assertTrue(list.lines().anyMatch(l -> l.startsWith(all[0]) && l.contains(" active ") && l.contains(allKey)), list);
    assertFalse(list.contains(all[1]), "list never shows a secret");
  }

  @Test
  void aFailedDeliveryIsRetriedWithTheSameIdAndListSaysWhyMeanwhile() throws Exception {
    String key = api.createKey("wh-retry", "acme", null);
    receiver.plan("/retry", Receiver.Answer.of(500));
    String[] hook = create(key, "/retry");
    importLines(meeting(new UUID(49, 3).toString(), "zqhookretry"));
    List<Receiver.Delivery> first = receiver.await("/retry", 1, 30);
    Thread.sleep(500);
    String list = api.cli("webhooks", "list").out();
    assertTrue(list.lines().anyMatch(l -> l.startsWith(hook[0]) && l.contains(" failing ")
        && l.contains("the receiver answered 500")), list);
    assertEquals("ok", api.get("/healthz", null).json().get("status").asText(), "a failing receiver is no server fault");
    List<Receiver.Delivery> both = receiver.await("/retry", 2, 30);
    assertEquals(first.get(0).id(), both.get(1).id(), "the retry carries the same webhook-id");
    assertEquals(first.get(0).body(), both.get(1).body());
    long waitedMs = (both.get(1).atNanos() - both.get(0).atNanos()) / 1_000_000;
    assertTrue(waitedMs >= 5000 && waitedMs < 5500 + 1000, "retried after " + waitedMs + " ms (5 s, up to 10 % more)");
    assertNull(Receiver.verify(hook[1], both, api.dir()).get(1).get("error"));
    Thread.sleep(500);
    list = api.cli("webhooks", "list").out();
    assertTrue(list.lines().anyMatch(l -> l.startsWith(hook[0]) && l.contains(" active ")), list);
    assertTrue(api.metric("minutes_webhook_deliveries_total{outcome=\"failed\"}") >= 1);
  }

  @Test
  void a410DisablesAtOnceUntilEnabledAndARevokedKeyStopsItsWebhook() throws Exception {
    String key = api.createKey("wh-gone", "acme", null);
    receiver.plan("/gone", Receiver.Answer.of(410));
    String[] hook = create(key, "/gone");
    String m = new UUID(49, 4).toString();
    importLines(meeting(m, "zqhookgone"));
    receiver.await("/gone", 1, 30);
    awaitListed(hook[0], " disabled ", "410");
    importLines(meeting(new UUID(49, 5).toString(), "zqhookgone2"));
    Thread.sleep(1500);
    assertEquals(1, receiver.received("/gone").size(), "nothing is sent to a disabled webhook");

    assertEquals(0, api.cli("webhooks", "enable", hook[0]).code());
    List<Receiver.Delivery> after = receiver.await("/gone", 3, 30);
    assertEquals(after.get(0).id(), after.get(1).id(), "it goes on from the change it stopped at");

    CliRun revoked = api.cli("keys", "revoke", key);
    assertEquals(0, revoked.code(), revoked.err());
    importLines(meeting(new UUID(49, 6).toString(), "zqhookgone3"));
    awaitListed(hook[0], " disabled ", "revoked");
    assertEquals(3, receiver.received("/gone").size(), "a revoked key's webhook hears nothing more");
  }

  @Test
  void theOperatorsMistakesAreOneLineAndExit1() throws Exception {
    String key = api.createKey("wh-cli", "acme", null);
    for (String url : List.of("ftp://example.com/x", "file:///etc/passwd", "example.com/hook", "http://", "not a url")) {
      CliRun r = api.cli("webhooks", "create", "--key", key, "--url", url);
      assertEquals(1, r.code(), url + ": " + r.out());
      assertEquals(1, r.err().strip().lines().count(), r.err());
      assertTrue(r.err().contains("--url"), r.err());
    }
    CliRun unknownKey = api.cli("webhooks", "create", "--key", "key_000000000000", "--url", "https://example.com/h");
    assertEquals(1, unknownKey.code());
    assertEquals("error: no key with id key_000000000000 (see: keys list)", unknownKey.err().strip());
    for (String command : List.of("delete", "enable")) {
      CliRun r = api.cli("webhooks", command, "wh_000000000000");
      assertEquals(1, r.code());
      assertEquals("error: no webhook with id wh_000000000000 (see: webhooks list)", r.err().strip());
    }
    String[] hook = create(key, "/deleted");
    assertEquals(0, api.cli("webhooks", "delete", hook[0]).code());
    assertFalse(api.cli("webhooks", "list").out().contains(hook[0]));
  }

  /** Waits (bounded) until `webhooks list` shows the webhook with both texts on its line. */
  private static void awaitListed(String id, String state, String why) throws InterruptedException {
    String list = "";
    for (int i = 0; i < 150; i++) {
      list = api.cli("webhooks", "list").out();
      if (list.lines().anyMatch(l -> l.startsWith(id) && l.contains(state) && l.contains(why))) return;
      Thread.sleep(100);
    }
    throw new AssertionError(id + " not listed as" + state + "(" + why + "):\n" + list);
  }

  /** Deliveries as "meeting_id change", as {@link ApiServer#changes} lists them. */
  private static List<String> heard(List<Receiver.Delivery> deliveries) throws Exception {
    List<String> out = new ArrayList<>();
    for (Receiver.Delivery d : deliveries) {
      JsonNode b = MAPPER.readTree(d.body());
      out.add(b.at("/data/meeting_id").asText() + " " + (b.get("type").asText().equals("meeting.deleted") ? "delete" : "upsert"));
    }
    return out;
  }

  private static void importLines(String... lines) {
    CliRun r = api.cli("import", TestLines.file(api.dir(), lines).toString());
    assertEquals(0, r.code(), r.err());
  }
}
