package minutes.search;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.TestStore;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.search.index.SearchIndex;
import minutes.search.query.SearchHit;
import minutes.store.Db;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The search tests' fixture: meetings of two workspaces imported into a real store (SQLite or
 * PostgreSQL, as the run says), a search index built from it, and keys of each kind; built
 * once per test class. Also the helpers that search it and read the hits. Its fields are
 * static, shared by every class built on it: such classes never run at the same time.
 */
@ResourceLock("minutes.search.SearchFixture")
public abstract class SearchFixture {
  @TempDir public static Path dir;
  public static Db db;
  public static TestStore testStore;
  public static SearchIndex index;
  public static Principal acme, other, ann, bob;

  public static final String LONG_TAIL;

  static {
    StringBuilder b = new StringBuilder();
    while (b.length() < 60_000) b.append("we talked about nothing in particular for quite a while today. ");
    LONG_TAIL = b.toString();
  }

  @BeforeAll
  public static void setUp() throws Exception {
    new SearchData()
        .workspace("acme", "ann@acme.com", "bob@acme.com")
        .workspace("other", "carl@other.com")
        .meeting("acme", "budget", "Budget review with Müller", "2026-03-02T09:00:00Z", List.of("Ann@Acme.com"),
            "# Decisions\n- **Launch** the [beta](https://example.com/beta) in `April`\n- __Café__ opens",
            "Welcome to the budget review.", "I will send <script>alert(\"x\")</script> & the forecast tomorrow.")
        .meeting("acme", "zeppelin-once", "Airship chat", "2026-03-01T09:00:00Z", List.of("bob@acme.com"),
            null, "A zeppelin flew over the office.", "Then lunch.")
        .meeting("acme", "zeppelin-often", "Airship deep dive", "2026-02-01T09:00:00Z", List.of("bob@acme.com"),
            null, "zeppelin zeppelin zeppelin.", "The zeppelin again, zeppelin everywhere.")
        .meeting("acme", "title-old", "Harbour logistics", "2026-01-05T09:00:00Z", List.of(), null, "Nothing here.",
            "To be, or not to be, that is the question.")
        .meeting("acme", "title-new", "Harbour logistics follow-up", "2026-01-20T09:00:00Z", List.of(), null, "Still nothing.")
        .meeting("acme", "upload", "Recorded interview", null, List.of("ann@acme.com", "bob@acme.com"), null,
            LONG_TAIL + "finally the unicornword appeared near the very end of it all.")
        .meeting("acme", "emoji", "Emoji", "2026-01-02T09:00:00Z", List.of(), null,
            "x" + "\uD83D\uDE42".repeat(1500) + " needleword " + "\uD83D\uDE42".repeat(1500) + " tailword")
        // Each ranked best by another field (RankSimilarity: about 0.8, 0.83 and 0.35 against 0.5, 0.5 and 0.19).
        .meeting("acme", "best-protocol", "Quokka notes", "2026-04-01T09:00:00Z", List.of(),
            "quokka quokka quokka quokka", "one quokka.")
        .meeting("acme", "best-transcript", "Wildlife talk", "2026-04-02T09:00:00Z", List.of(), "a quokka",
            "quokka quokka quokka quokka quokka.")
        .meeting("acme", "best-title", "Quokka census", "2026-04-03T09:00:00Z", List.of(), null,
            LONG_TAIL + "and a quokka.")
        // "walrus" and "the tusk" apart in short minutes, "walrus the tusk" at the end of a longer transcript.
        .meeting("acme", "walrus", "Arctic fauna", "2026-01-04T09:00:00Z", List.of(),
            "A walrus swam by; the tusk was long.", "krill ".repeat(300) + "I saw a walrus the tusk of which was long.")
        .meeting("acme", "umlaut-viewer", "Okapi sighting", "2026-01-03T09:00:00Z", List.of("ülla@acme.com"), null,
            "An okapiword was seen.")
        .meeting("other", "secret", "Budget review with Müller", "2026-03-03T09:00:00Z", List.of("carl@other.com"),
            "Other workspace minutes about the zeppelin budget.", "zeppelin budget Müller")
        .importInto((testStore = TestStore.createMigrated(dir)).store(), dir);
    db = Db.open(testStore.store(), 4);
    index = SearchIndex.open(dir.resolve("index"), db);
    assertFalse(index.ready());
    index.syncOnce(); // builds the first generation
    index.syncOnce(); // opens it
    assertTrue(index.ready());
    long acmeId = workspaceId("acme"), otherId = workspaceId("other");
    acme = new Principal("k1", acmeId, null, EnumSet.allOf(Scope.class), Set.of());
    other = new Principal("k2", otherId, null, EnumSet.allOf(Scope.class), Set.of());
    ann = new Principal("k3", acmeId, "ANN@acme.com", EnumSet.allOf(Scope.class), Set.of());
    bob = new Principal("k4", acmeId, "bob@acme.com", EnumSet.allOf(Scope.class), Set.of());
  }

  @AfterAll
  public static void tearDown() {
    if (index != null) index.close();
    if (db != null) db.close();
    if (testStore != null) testStore.close();
  }

  public static long workspaceId(String slug) throws Exception {
    try (Connection c = db.read()) {
      return Db.workspaceId(c, slug).orElseThrow();
    }
  }

  public static List<SearchHit> search(SearchIndex index, Principal p, String q, int limit) throws Exception {
    try (Connection c = db.read()) {
      c.setAutoCommit(false);
      try {
        return SearchData.search(index, c, p, q, limit);
      } finally {
        c.rollback();
      }
    }
  }

  public static List<SearchHit> search(Principal p, String q) throws Exception {
    return search(index, p, q, 50);
  }

  public static List<String> ids(List<SearchHit> hits) {
    return hits.stream().map(SearchHit::meetingId).toList();
  }

  /** The snippet as a reader sees it: tags removed, entities decoded. */
  public static String visible(String snippet) {
    return snippet.replace("<mark>", "").replace("</mark>", "").replace("&lt;", "<").replace("&gt;", ">")
        .replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&");
  }

  public static List<String> marked(String snippet) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("<mark>(.*?)</mark>").matcher(snippet);
    while (m.find()) out.add(m.group(1));
    return out;
  }
}
