package minutes.search;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;
import minutes.ApiServer;
import minutes.RunsAlone;
import minutes.TestStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * docs/SEARCH.md's "One search, step by step" names exactly the project classes whose code runs
 * in one plain search, route to JSON, as a trace of a real one shows them (issue 45 item 4): the
 * real server answers {@code GET /api/v1/search?q=budget} while a JFR recording traces every
 * method of every class of {@code src/main} ({@code jdk.MethodTrace}, JDK 25); the classes that
 * ran on the server's request threads, less the shared front that every route passes alike, are
 * the classes the page counts, on either store. On a JDK without that event the test is skipped.
 */
@RunsAlone("its JFR trace of every request thread also saw a neighbour's server")
class SearchPathTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

  /** The shared front: it wraps every route alike (SEARCH.md says so), so the walk does not count it. */
  static final Set<String> FRONT = Set.of("Server", "AccessLog", "Metrics", "Drain", "LoadShedding", "ErrorMapper",
      "ChangesApi"); // ChangesApi.mayBeHeld: LoadShedding asks it of every request whether it may be held
  private static final Pattern COUNT = Pattern.compile("A plain search runs (\\d+) project classes: ([^.]+)\\.");
  /** The classes one store adds: "On SQLite it also runs A and B." */
  private static final String ALSO = "On %s it also runs ([^.]+)\\.";
  /** The classes the admission step runs when its look at the schema is due: a trace may hold them or not. */
  private static final Pattern SOMETIMES = Pattern.compile("When it reads the schema again \\(once a second\\) it also runs ([^.]+)\\.");
  private static final Path CLASSES = Path.of("target", "classes");

  @Test
  void theWalkNamesEveryClassAPlainSearchRuns(@TempDir Path dir) throws IOException {
    assumeTrue(FlightRecorder.getFlightRecorder().getEventTypes().stream()
        .anyMatch(t -> t.getName().equals("jdk.MethodTrace")), "this JDK traces no methods (JDK 25 does)");
    String path = "/api/v1/search?q=" + URLEncoder.encode("budget", StandardCharsets.UTF_8);
    assertEquals(200, api.get(path, ALL).status()); // classes loaded and linked: the trace is of a warm search
    Set<String> ran = new TreeSet<>();
    try (Recording r = new Recording()) {
      r.enable("jdk.MethodTrace").with("filter", String.join(";", projectClasses()));
      r.start();
      assertEquals(200, api.get(path, ALL).status());
      r.stop();
      Path file = dir.resolve("search.jfr");
      r.dump(file);
      for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
        if (!e.getEventType().getName().equals("jdk.MethodTrace") || !onRequestThread(e)) continue;
        String type = ((RecordedMethod) e.getValue("method")).getType().getName();
        ran.add(type.substring(type.lastIndexOf('.') + 1).replaceAll("\\$.*", ""));
      }
    }
    assertTrue(ran.containsAll(Set.of("SearchApi", "MeetingSearch")), "the trace holds the search itself: " + ran);
    ran.removeAll(FRONT);

    String doc = Files.readString(Path.of("docs", "SEARCH.md")).replace('\n', ' ');
    Matcher count = COUNT.matcher(doc);
    assertTrue(count.find(), "SEARCH.md says how many project classes a plain search runs");
    Set<String> named = names(count.group(2));
    assertEquals(Integer.parseInt(count.group(1)), named.size(), "the count is the number of classes named");
    Matcher also = Pattern.compile(String.format(ALSO, TestStore.postgres() ? "PostgreSQL" : "SQLite")).matcher(doc);
    if (also.find()) named.addAll(names(also.group(1)));
    Matcher sometimes = SOMETIMES.matcher(doc);
    assertTrue(sometimes.find(), "SEARCH.md names what a search runs when the schema is read again");
    Set<String> due = names(sometimes.group(1));
    assertTrue(projectClasses().stream().map(c -> c.substring(c.lastIndexOf('.') + 1)).toList().containsAll(due),
        "the classes named for a schema read exist: " + due);
    due.removeAll(named); // what runs on every search of this store is named as such
    ran.removeAll(due);
    assertEquals(ran, named, "SEARCH.md names the classes a plain search runs on this store (the trace on the left)");
  }

  private static Set<String> names(String list) {
    return new TreeSet<>(List.of(list.trim().split(",\\s*(?:and\\s+)?|\\s+and\\s+")));
  }

  /** Undertow's I/O and worker threads, where a request runs; not the index's sync thread, not the client's. */
  private static boolean onRequestThread(RecordedEvent e) {
    return e.getThread() != null && e.getThread().getJavaName() != null && e.getThread().getJavaName().startsWith("XNIO-");
  }

  /** Every class compiled from src/main, by binary name. */
  private static List<String> projectClasses() throws IOException {
    try (Stream<Path> files = Files.walk(CLASSES)) {
      return files.map(CLASSES::relativize).map(Path::toString).filter(f -> f.endsWith(".class"))
          .map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.')).sorted().toList();
    }
  }
}
