package minutes.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import minutes.ApiServer;
import minutes.GeneratedLists;
import minutes.Property;
import minutes.TestLines;
import minutes.store.Importer;
import minutes.store.Sql;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The change feed's cursor arithmetic against a model of what each key may learn
 * (decisions.md "Change feed"), on the real server: generated interleavings of imports
 * (meetings created, replaced with other visible_to, moved between workspaces, deleted, deleted
 * in a workspace they are not in) and of reads with generated page sizes (1 to 1000 and clamped
 * ones), followed with next_cursor until has_more is false, for workspace keys and personal keys
 * whose users differ only in ASCII case (the same person) or beyond it (two people).
 *
 * <p>The model: after each import, a key learns {@code upsert} of each meeting the import touched
 * that it sees afterwards, and {@code delete} of each it saw before and no longer does; nothing
 * of a meeting it never saw. The feed from any cursor must be exactly those changes, import by
 * import in commit order (in any order within one import), none skipped, none extra, none twice
 * (the spec asks at least once; with reads between commits this feed gives each once): from the
 * cursor taken before each import, read by a follower that reads some pages between imports, and
 * by one that reads concurrently with them. The model itself is checked against the database.
 */
class ChangeFeedPropertyTest {
  /** A server of its own: the properties send thousands of requests a key, which the rate limit would refuse. */
  @RegisterExtension
  static final ApiServer api = new ApiServer("/fixtures.ndjson", Map.of("MINUTES_HTTP_RATE_LIMIT_PER_MINUTE", "0"));

  /** visible_to spellings and whom each names: ASCII case does not count, other case does. */
  private static final Map<String, String> PERSON_OF_SPELLING = Map.of("ann@acme.com", "ann", "ANN@acme.com", "ann",
      "Ann@Acme.COM", "ann", "bob@acme.com", "bob", "Üll@acme.com", "Üll", "ÜLL@ACME.COM", "Üll", "üll@acme.com", "üll",
      "carl@other.test", "carl");
  private static final List<String> SPELLINGS = List.copyOf(new java.util.TreeSet<>(PERSON_OF_SPELLING.keySet()));
  /** How meeting_viewer stores each person's email (ASCII folded). */
  private static final Map<String, String> PERSON_OF_STORED = Map.of("ann@acme.com", "ann", "bob@acme.com", "bob",
      "Üll@acme.com", "Üll", "üll@acme.com", "üll", "carl@other.test", "carl");
  private static final List<String> WORKSPACES = List.of("acme", "other");

  /** A key: its name on the server, its workspace and person (null: the workspace's own key). */
  record Key(String name, String workspace, String person) {}

  private static final List<Key> KEYS = List.of(new Key(ApiServer.ALL, "acme", null), new Key(ApiServer.ANN, "acme", "ann"),
      new Key("ann-upper", "acme", "ann"), new Key(ApiServer.BOB, "acme", "bob"), new Key("Üll", "acme", "Üll"),
      new Key("üll", "acme", "üll"), new Key(ApiServer.OTHER, "other", null));
  /** Concurrent followers: the workspace key and a personal one. */
  private static final List<Key> CONCURRENT = List.of(KEYS.get(0), KEYS.get(4));

  private static final AtomicLong CASES = new AtomicLong();

  @BeforeAll
  static void users() throws Exception {
    Importer importer = new Importer(api.store(), Importer.Progress.NONE);
    importer.run(List.of(TestLines.file(api.dir(), "{\"kind\":\"user\",\"workspace\":\"acme\",\"email\":\"Üll@acme.com\"}",
        "{\"kind\":\"user\",\"workspace\":\"acme\",\"email\":\"üll@acme.com\"}")));
    api.createKey("ann-upper", "acme", "ANN@Acme.com");
    api.createKey("Üll", "acme", "Üll@acme.com");
    api.createKey("üll", "acme", "üll@acme.com");
  }

  /** One line of an import: meeting {@code meeting} (of the case's few) written or deleted in a workspace. */
  record Line(boolean delete, int meeting, int workspace, List<String> visibleTo) {}

  /** Whom a meeting is visible to now: its workspace and the people its visible_to names. */
  record Seen(String workspace, Set<String> people) {
    boolean by(Key k) {
      return workspace.equals(k.workspace()) && (k.person() == null || people.contains(k.person()));
    }
  }

  record Change(String meetingId, String change) {}

  // 12 interleavings of up to 4 imports, each feed read by 7 keys from every cursor, between the
  // imports and during them: about 400 followed feeds, 10-15 s (an import costs 100-250 ms). Every
  // case is drawn alike (size unused): the imports are what costs, and the bounds below are set for this mix.
  @Test
  void everyKeyLearnsExactlyWhatItMayFromAnyCursor() {
    Map<String, Integer> met = new TreeMap<>();
    Property.forAll("every key learns exactly what it may from any cursor", 12, 0,
        c -> check(imports(c), pageSizes(c), pagesBetween(c), met));
    System.out.println("ChangeFeedPropertyTest met " + met);
    assertTrue(met.getOrDefault("import brings several", 0) >= 10, "imports that bring a key several changes: " + met);
    assertTrue(met.getOrDefault("import brings none", 0) >= 10, "imports that bring a key none: " + met);
  }

  /** One interleaving: the imports, the followers' page sizes and the pages read between imports. */
  private static void check(List<List<Line>> imports, List<Integer> pageSizes, List<Integer> pagesBetween,
      Map<String, Integer> met) throws Exception {
    long attempt = CASES.incrementAndGet();
    List<String> ids = new ArrayList<>();
    for (int m = 0; m < MEETINGS; m++) ids.add(new UUID(0x5EED_0000L + attempt, m + 1).toString());

    Map<String, Seen> state = new HashMap<>(); // the model: this case's meetings that exist
    Map<Key, List<List<Change>>> expected = new LinkedHashMap<>(); // per key, per import
    Map<Key, List<String>> cursors = new LinkedHashMap<>(); // per key, before each import and after the last
    Map<Key, Follower> live = new LinkedHashMap<>();
    for (Key k : KEYS) {
      expected.put(k, new ArrayList<>());
      cursors.put(k, new ArrayList<>(List.of(api.cursor(k.name()))));
      live.put(k, new Follower(k, cursors.get(k).get(0), pageSizes));
    }
    Map<Key, Follower> concurrent = new LinkedHashMap<>();
    for (Key k : CONCURRENT) concurrent.put(k, new Follower(k, cursors.get(k).get(0), pageSizes));
    ExecutorService importer = Executors.newSingleThreadExecutor();
    try {
      for (int i = 0; i < imports.size(); i++) {
        Map<String, Seen> before = new HashMap<>(state);
        List<String> ndjson = new ArrayList<>();
        Set<String> changed = apply(imports.get(i), ids, state, ndjson);
        java.nio.file.Path file = TestLines.file(api.dir(), ndjson.toArray(String[]::new));
        Future<?> running = importer.submit(() -> new Importer(api.store(), Importer.Progress.NONE).run(List.of(file)));
        // Some pages read while the import commits (bounded: the followers would otherwise spin on 2 cores).
        for (int page = 0; page < 8 && !running.isDone(); page++) concurrent.values().forEach(f -> f.read(1));
        running.get(60, TimeUnit.SECONDS);
        for (Key k : KEYS) {
          List<Change> learnt = learnt(k, changed, before, state);
          expected.get(k).add(learnt);
          cursors.get(k).add(api.cursor(k.name()));
          live.get(k).read(pagesBetween.get(i % pagesBetween.size()));
          met.merge("import brings " + (learnt.isEmpty() ? "none" : learnt.size() == 1 ? "one" : "several"), 1, Integer::sum);
        }
      }
    } finally {
      importer.shutdownNow();
    }
    assertModelIsTheDatabase(ids, state);

    for (Key k : KEYS) {
      List<List<Change>> perImport = expected.get(k);
      for (int from = 0; from < cursors.get(k).size(); from++) {
        Follower f = new Follower(k, cursors.get(k).get(from), pageSizes);
        f.readToEnd();
        assertFeed(perImport.subList(from, perImport.size()), f.seen, k + " from the cursor before import " + from);
      }
      Follower f = live.get(k);
      f.readToEnd();
      assertFeed(perImport, f.seen, k + " reading " + pagesBetween + " pages between imports");
      met.merge("follower read " + (f.pages < 3 ? "1-2" : f.pages < 10 ? "3-9" : "10 or more") + " pages", 1, Integer::sum);
    }
    for (Follower f : concurrent.values()) {
      f.readToEnd();
      assertFeed(expected.get(f.key), f.seen, f.key + " reading while the imports ran");
    }
  }

  /**
   * The model of one import: applies its lines to {@code state} and adds them as NDJSON to
   * {@code ndjson}; returns the meetings it changed (written, or deleted where they were: a
   * delete naming another workspace changes nothing).
   */
  private static Set<String> apply(List<Line> lines, List<String> ids, Map<String, Seen> state, List<String> ndjson) {
    Set<String> changed = new HashSet<>();
    for (Line l : lines) {
      String id = ids.get(l.meeting());
      String workspace = WORKSPACES.get(l.workspace());
      if (l.delete()) {
        ndjson.add(TestLines.delete("meeting", workspace, id));
        if (state.containsKey(id) && state.get(id).workspace().equals(workspace)) {
          state.remove(id);
          changed.add(id);
        }
      } else {
        ndjson.add(TestLines.meeting(workspace, id, "zqfeed", l.visibleTo(), null));
        Set<String> people = new HashSet<>();
        l.visibleTo().forEach(v -> people.add(PERSON_OF_SPELLING.get(v)));
        state.put(id, new Seen(workspace, people));
        changed.add(id);
      }
    }
    return changed;
  }

  /** What key {@code k} learns of an import: upsert of what it sees after, delete of what it saw before only. */
  private static List<Change> learnt(Key k, Set<String> changed, Map<String, Seen> before, Map<String, Seen> after) {
    List<Change> learnt = new ArrayList<>();
    for (String id : changed) {
      if (after.containsKey(id) && after.get(id).by(k)) learnt.add(new Change(id, "upsert"));
      else if (before.containsKey(id) && before.get(id).by(k)) learnt.add(new Change(id, "delete"));
    }
    return learnt;
  }

  /**
   * {@code seen} must be the changes of each import in turn: the same changes in any order within
   * one import, nothing between, before or after.
   */
  private static void assertFeed(List<List<Change>> perImport, List<Change> seen, String who) {
    Comparator<Change> order = Comparator.comparing(Change::meetingId).thenComparing(Change::change);
    int at = 0;
    for (int i = 0; i < perImport.size(); i++) {
      List<Change> want = new ArrayList<>(perImport.get(i));
      List<Change> got = new ArrayList<>(seen.subList(Math.min(at, seen.size()), Math.min(at + want.size(), seen.size())));
      want.sort(order);
      got.sort(order);
      assertEquals(want, got, who + ": import " + i + " of " + perImport + ", seen " + seen);
      at += want.size();
    }
    assertEquals(at, seen.size(), who + ": more than the imports brought: " + seen);
  }

  /** The model's meetings are the database's: workspace and who may see each, none more. */
  private static void assertModelIsTheDatabase(List<String> ids, Map<String, Seen> model) throws Exception {
    Map<String, Seen> stored = new HashMap<>();
    try (Connection c = api.store().write()) {
      new Sql("SELECT m.id, w.slug, v.email FROM meeting m JOIN workspace w ON w.id = m.workspace_id"
          + " LEFT JOIN meeting_viewer v ON v.meeting_id = m.id WHERE m.id IN (" + "?,".repeat(ids.size() - 1) + "?)",
          ids.toArray()).list(c, rs -> {
            String workspace = rs.getString(2), viewer = rs.getString(3);
            Seen s = stored.computeIfAbsent(rs.getString(1), id -> new Seen(workspace, new HashSet<>()));
            if (viewer != null) s.people().add(PERSON_OF_STORED.get(viewer));
            return null;
          });
    }
    assertEquals(model, stored, "the model of the imports is the database");
  }

  /** Follows the feed for one key from a cursor, each page with the next of the generated sizes. */
  private static final class Follower {
    final Key key;
    final List<Integer> pageSizes;
    final List<Change> seen = new ArrayList<>();
    String cursor;
    int pages;

    Follower(Key key, String cursor, List<Integer> pageSizes) {
      this.key = key;
      this.cursor = cursor;
      this.pageSizes = pageSizes;
    }

    /** Reads up to {@code n} pages; true when the last said has_more false. */
    boolean read(int n) {
      for (int i = 0; i < n; i++) {
        int limit = pageSizes.get(pages % pageSizes.size());
        ApiServer.Response r = api.get("/api/v1/changes?limit=" + limit + "&since=" + cursor, key.name());
        assertEquals(200, r.status(), r.body());
        JsonNode page = r.json();
        assertTrue(page.get("data").size() <= Math.max(1, Math.min(limit, 1000)), "a page within the clamped limit");
        page.get("data").forEach(c -> seen.add(new Change(c.get("meeting_id").asText(), c.get("change").asText())));
        cursor = page.get("next_cursor").asText();
        pages++;
        if (!page.get("has_more").asBoolean()) return true;
      }
      return false;
    }

    void readToEnd() {
      while (!read(1)) { }
    }
  }

  /** Meetings per case: few, so that imports touch the same ones again. */
  private static final int MEETINGS = 6;

  /**
   * 1 to 4 imports of 1 to 5 lines: deletes one in four, the second workspace one in five, up to 3
   * viewers. The first import of a case writes 2 to 5 distinct meetings of the first workspace, so
   * that every case has an import that brings the workspace key several changes and the other
   * workspace's key none: drawn by chance only, those fell below the bounds about once in 1,000
   * runs (a simulation of this generator; CI met 3 of 147 on 2026-12-07), a coverage check failing by luck.
   */
  private static List<List<Line>> imports(Property.Case c) {
    List<List<Line>> imports = new ArrayList<>();
    List<Integer> meetings = new ArrayList<>();
    for (int m = 0; m < MEETINGS; m++) meetings.add(m);
    Collections.shuffle(meetings, c.random());
    List<Line> first = new ArrayList<>();
    for (int m : meetings.subList(0, c.between(2, 5))) first.add(new Line(false, m, 0, viewers(c)));
    imports.add(first);
    for (int i = c.between(0, 3); i > 0; i--) {
      List<Line> lines = new ArrayList<>();
      for (int l = c.between(1, 5); l > 0; l--) {
        boolean delete = c.nextInt(4) == 0;
        int meeting = c.between(0, MEETINGS - 1), workspace = c.nextInt(5) == 0 ? 1 : 0;
        lines.add(new Line(delete, meeting, workspace, viewers(c)));
      }
      imports.add(lines);
    }
    return imports;
  }

  /** 0 to 3 visible_to spellings. */
  private static List<String> viewers(Property.Case c) {
    List<String> visibleTo = new ArrayList<>();
    for (int v = c.between(0, 3); v > 0; v--) visibleTo.add(c.pick(SPELLINGS));
    return visibleTo;
  }

  /**
   * 1 to 6 page sizes: mostly small (1-3, six in nine), so that pages end inside an import's
   * changes; larger ones (4-1000, the small ones likelier); and the maximum and ones clamped into 1..1000.
   */
  private static List<Integer> pageSizes(Property.Case c) {
    List<Integer> sizes = new ArrayList<>();
    for (int n = c.between(1, 6); n > 0; n--) {
      sizes.add(switch (GeneratedLists.weighted(c, 6, 2, 1)) {
        case 0 -> c.between(1, 3);
        case 1 -> GeneratedLists.smallMostly(c, 4, 1000);
        default -> c.pick(List.of(0, -5, 1000, 1001, 5000));
      });
    }
    return sizes;
  }

  /** How many pages (0-3) the live follower reads after each import before the next one; 1 to 5 numbers, used in turn. */
  private static List<Integer> pagesBetween(Property.Case c) {
    List<Integer> pages = new ArrayList<>();
    for (int n = c.between(1, 5); n > 0; n--) pages.add(c.between(0, 3));
    return pages;
  }
}
