package minutes.customers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import minutes.TestStore;
import minutes.http.Params;
import minutes.http.Request;
import minutes.json.Jackson;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.meetings.MeetingOrder;
import minutes.store.Db;
import minutes.store.Importer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GET /customers counted in the in-memory meeting order answers exactly as the SQL count ({@link CustomersSql}),
 * for workspace and personal keys, over random companies, domains, participants, visibility and
 * equal meeting times (ties), on the run's store.
 */
class CustomerCountsTest {
  private static final String[] DOMAINS = {"globex.com", "initech.com", "initech.de", "hooli.com", "a.example",
      "gmail.com", "umbrella.co"};
  private static final String[] VIEWERS = {"u@a.example", "U@A.example", "ü@a.example"};
  private static final String[] NAMES = {"Globex", "globex", "Ölwerk", "Zeta", "Alpha", "alpha", "Émile", "😀 Smile"};

  @TempDir Path dir;

  @Test
  void theSnapshotCountsAsSqlDoes() throws Exception {
    SplittableRandom random = new SplittableRandom(21);
    List<String> lines = new ArrayList<>(List.of(
        "{\"kind\":\"workspace\",\"slug\":\"a\",\"name\":\"A\",\"domains\":[\"a.example\"]}",
        "{\"kind\":\"workspace\",\"slug\":\"b\",\"name\":\"B\"}"));
    for (int c = 0; c < 14; c++) {
      ObjectNode company = Jackson.MAPPER.createObjectNode().put("kind", "company").put("workspace", c % 5 == 0 ? "b" : "a")
          .put("id", new UUID(7, c).toString()).put("name", NAMES[random.nextInt(NAMES.length)]);
      ArrayNode domains = company.putArray("domains");
      for (String d : DOMAINS) if (random.nextInt(4) == 0) domains.add(d);
      lines.add(Jackson.MAPPER.writeValueAsString(company));
    }
    for (int m = 0; m < 150; m++) {
      ObjectNode meeting = Jackson.MAPPER.createObjectNode().put("kind", "meeting").put("workspace", m % 7 == 0 ? "b" : "a")
          .put("id", new UUID(random.nextLong(), random.nextLong()).toString()).put("title", "M")
          .put("platform", "zoom").put("source", "calendar").put("status", "ready")
          // few distinct times, so that the latest meeting is often a tie
          .put("created_at", "2026-0" + (1 + random.nextInt(3)) + "-01T10:00:00Z");
      if (random.nextInt(3) > 0) meeting.put("starts_at", "2026-0" + (1 + random.nextInt(4)) + "-15T09:00:00Z");
      ArrayNode participants = meeting.putArray("participants");
      for (int p = random.nextInt(5); p > 0; p--) {
        ObjectNode who = participants.addObject().put("display_name", "P").put("source", "calendar");
        if (random.nextInt(6) > 0) who.put("email", "p" + p + "@" + DOMAINS[random.nextInt(DOMAINS.length)]);
      }
      ArrayNode viewers = meeting.putArray("visible_to");
      for (String v : VIEWERS) if (random.nextInt(3) == 0) viewers.add(v);
      lines.add(Jackson.MAPPER.writeValueAsString(meeting));
    }
    Path file = Files.write(dir.resolve("data.ndjson"), lines);
    try (TestStore store = TestStore.createMigrated(dir)) {
      new Importer(store.store(), Importer.Progress.NONE).run(List.of(file));
      try (Db db = Db.open(store.store(), 2); MeetingOrder order = new MeetingOrder(db); Connection c = db.read()) {
        order.build();
        c.setAutoCommit(false);
        CustomersApi api = new CustomersApi(order);
        int compared = 0, withMeetings = 0;
        for (Principal who : List.of(new Principal("k1", 1, null, Set.of(Scope.MEETINGS_READ), Set.of()),
            new Principal("k2", 1, "U@a.example", Set.of(Scope.MEETINGS_READ), Set.of()),
            new Principal("k3", 1, "ü@a.example", Set.of(Scope.MEETINGS_READ), Set.of()),
            new Principal("k4", 1, "nobody@a.example", Set.of(Scope.MEETINGS_READ), Set.of()),
            new Principal("k5", 2, null, Set.of(Scope.MEETINGS_READ), Set.of()))) {
          CustomersApi.CustomerList fromMemory = api.list(new Request(who, new Params(Map.of()), Map.of(), c, OptionalLong.empty()));
          assertEquals(CustomersSql.list(c, who), fromMemory, who.toString());
          compared++;
          withMeetings += (int) fromMemory.data().stream().filter(x -> x.meetingCount() > 0).count();
        }
        assertEquals(5, compared);
        // Equal empty lists prove nothing: the seeded data gives most keys companies with meetings.
        assertTrue(withMeetings >= 10, "companies with meetings over all keys: " + withMeetings);
        assertTrue(api.list(new Request(new Principal("k1", 1, null, Set.of(), Set.of()), new Params(Map.of()), Map.of(), c, OptionalLong.empty()))
            .data().stream().anyMatch(x -> x.meetingCount() == 0), "a workspace key also lists companies without meetings");
      }
    }
  }
}
