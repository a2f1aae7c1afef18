package minutes.changes;

import static minutes.ApiServer.ALL;
import static minutes.ApiServer.ANN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import minutes.ApiServer;
import minutes.TestLines;
import minutes.store.Importer;
import minutes.store.Sql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * At least once, never a skipped change, while imports run (decisions.md "Change feed"): a
 * client takes a cursor, lists the meetings, then follows the feed while several writers import
 * at once (new meetings, replacements that narrow and widen visible_to, deletes), applying each
 * change to its copy. Once the writers are done and it has read to the end, its copy is exactly
 * the database's set, for a workspace key and for a personal key, on the run's store.
 */
class ChangesWhileImportingTest {
  @RegisterExtension static final ApiServer api = new ApiServer();
  private static final List<List<String>> VISIBILITY = List.of(List.of(), List.of("ann@acme.com"),
      List.of("ann@acme.com", "bob@acme.com"), List.of("bob@acme.com"));

  @Test
  void aFollowerEndsWithExactlyTheDatabasesMeetingsWhileImportsRunConcurrently() throws Exception {
    Map<String, Copy> copies = Map.of(ALL, new Copy(ALL), ANN, new Copy(ANN));
    for (Copy c : copies.values()) c.start();

    int writers = 3, importsEach = 8;
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicInteger pagesWhileWriting = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
    try {
      Future<?> follower = pool.submit(() -> {
        while (writing.get()) {
          for (Copy c : copies.values()) c.follow();
          pagesWhileWriting.incrementAndGet();
        }
        return null;
      });
      List<Future<?>> imports = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        imports.add(pool.submit(() -> {
          write(writer, importsEach);
          return null;
        }));
      }
      for (Future<?> f : imports) f.get(120, TimeUnit.SECONDS);
      writing.set(false);
      follower.get(60, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
    assertTrue(pagesWhileWriting.get() >= 3, "the follower read while the imports ran: " + pagesWhileWriting.get());
    for (Copy c : copies.values()) c.follow();

    try (Connection c = api.store().write()) {
      Set<String> workspace = new HashSet<>(new Sql("""
          SELECT m.id FROM meeting m JOIN workspace w ON w.id = m.workspace_id WHERE w.slug = 'acme'""")
          .list(c, rs -> rs.getString(1)));
      Set<String> ann = new HashSet<>(new Sql("""
          SELECT m.id FROM meeting m JOIN workspace w ON w.id = m.workspace_id
          JOIN meeting_viewer v ON v.meeting_id = m.id WHERE w.slug = 'acme' AND v.email = 'ann@acme.com'""")
          .list(c, rs -> rs.getString(1)));
      copies.get(ALL).assertSame(workspace);
      copies.get(ANN).assertSame(ann);
      assertTrue(workspace.size() > 6 && ann.size() > 2, "the writers left meetings behind: " + workspace.size());
    }
  }

  /** One writer: imports that add meetings of its own, replace some with other visible_to, delete others. */
  private static void write(int writer, int imports) throws Exception {
    Random random = new Random(writer);
    List<String> mine = new ArrayList<>();
    for (int i = 0; i < imports; i++) {
      List<String> lines = new ArrayList<>();
      for (int n = 0; n < 6; n++) {
        String id = new UUID(100 + writer, i * 10L + n).toString();
        mine.add(id);
        lines.add(TestLines.meeting("acme", id, "zqw" + writer, VISIBILITY.get(random.nextInt(VISIBILITY.size())), null));
      }
      for (int n = 0; n < 3 && mine.size() > 6; n++) {
        String old = mine.get(random.nextInt(mine.size() - 6));
        lines.add(random.nextBoolean() ? TestLines.delete("meeting", "acme", old)
            : TestLines.meeting("acme", old, "zqw" + writer, VISIBILITY.get(random.nextInt(VISIBILITY.size())), null));
      }
      Path file = TestLines.file(api.dir(), lines.toArray(String[]::new));
      new Importer(api.store(), Importer.Progress.NONE).run(List.of(file));
    }
  }

  /** A client's copy of the meeting ids one key sees: listed once, then kept by the feed. */
  private static final class Copy {
    final String key;
    final Set<String> ids = new HashSet<>();
    String cursor;

    Copy(String key) {
      this.key = key;
    }

    /** decisions.md: take the cursor, then list what is needed, then follow from the cursor. */
    void start() {
      cursor = api.cursor(key);
      for (int offset = 0; ; offset += 200) {
        JsonNode page = api.get("/api/v1/meetings?limit=200&offset=" + offset, key).json();
        ids.addAll(ApiServer.column(page, "id"));
        if (page.get("data").size() < 200) return;
      }
    }

    /** Fails naming what the copy lacks and what it holds too many, unless it is {@code truth}. */
    void assertSame(Set<String> truth) {
      Set<String> missing = new HashSet<>(truth), extra = new HashSet<>(ids);
      missing.removeAll(ids);
      extra.removeAll(truth);
      assertEquals(Set.of(), missing, key + ": meetings the feed never brought");
      assertEquals(Set.of(), extra, key + ": meetings the feed never took away");
    }

    /** Reads the feed to its end now, applying each change in order. */
    void follow() {
      while (true) {
        ApiServer.Response r = api.get("/api/v1/changes?limit=7&since=" + cursor, key);
        assertEquals(200, r.status(), r.body());
        for (JsonNode change : r.json().get("data")) {
          String id = change.get("meeting_id").asText();
          if (change.get("change").asText().equals("upsert")) ids.add(id);
          else ids.remove(id);
        }
        cursor = r.json().get("next_cursor").asText();
        if (!r.json().get("has_more").asBoolean()) return;
      }
    }
  }
}
