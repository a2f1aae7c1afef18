package minutes;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import minutes.http.Json;
import minutes.http.Params;
import minutes.http.Routes;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.search.index.SearchIndex;
import minutes.store.Db;
import minutes.store.Sql;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Searches the server runs on itself before it accepts requests, for {@code search.warmup_ms}
 * at most (and at most 3,000): words, word pairs and quoted neighbours taken from the first
 * workspace's titles and transcripts, each through the search route as a request runs it (read transaction, the index,
 * snippets, the JSON body), so that the JIT has compiled that path before the first client's
 * search. Without it the first thousand searches after a start had about twice the warm p99
 * (docs/BENCHMARKS.md, "Cold start"). Skipped when the index is not ready or the database
 * holds no meeting; a failed warm-up search ends the warm-up and is logged, never fatal.
 */
public final class SearchWarmUp {
  private static final Logger log = LoggerFactory.getLogger(SearchWarmUp.class);
  private static final String ROUTE = "/api/v1/search";
  private static final Pattern NOT_A_WORD = Pattern.compile("[^\\p{L}]+");
  /** Meetings whose titles and first transcript lines give the words. */
  private static final int MEETINGS = 20;
  private static final int SEGMENTS_PER_MEETING = 15;
  private static final int LONG_WORD = 6;
  /** Enough for the JIT; on a small database the warm-up ends here, long before its time. */
  private static final int MAX_SEARCHES = 3000;

  private SearchWarmUp() {}

  /** Runs the warm-up for at most {@code millis}; returns the number of searches run. */
  public static int run(Db db, SearchIndex index, Routes routes, int millis) {
    if (millis <= 0 || !index.ready()) return 0;
    long started = System.nanoTime();
    long deadline = started + millis * 1_000_000L;
    int searches = 0;
    try {
      Words words = words(db);
      if (words == null) return 0;
      Principal warmUp = new Principal("search-warm-up", words.workspaceId, null, Set.of(Scope.MEETINGS_READ), Set.of());
      for (int i = 0; i < MAX_SEARCHES && System.nanoTime() < deadline; i++) {
        Json.bytes(routes.call(ROUTE, warmUp, params(words.query(i)), Map.of()));
        searches++;
      }
      log.info("search warm-up: {} searches in {} ms", searches, (System.nanoTime() - started) / 1_000_000);
    } catch (Exception e) {
      log.warn("search warm-up stopped after {} searches: {}", searches, e.toString());
    }
    return searches;
  }

  private static Params params(String q) {
    return new Params(Map.of("q", new ArrayDeque<>(List.of(q)), "limit", new ArrayDeque<>(List.of("50"))));
  }

  /**
   * The words of one workspace in text order (so that neighbours make phrases that match), and
   * where the longer ones stand: queries start from those, as people's do. Starting from any word
   * made pairs of "the", "and" and "you", whose postings are so long that a cold server ran two
   * to four of them in two seconds at 20,000-100,000 meetings.
   */
  private record Words(long workspaceId, List<String> list, int[] longOnes) {
    /** The i-th query: a longer word, two of them, or one and its neighbour quoted, in turn. */
    String query(int i) {
      int at = longOnes[i % longOnes.length];
      String a = list.get(at);
      return switch (i % 3) {
        case 0 -> a;
        case 1 -> a + " " + list.get(longOnes[(i * 7 + 3) % longOnes.length]);
        default -> "\"" + a + " " + list.get((at + 1) % list.size()) + "\"";
      };
    }
  }

  private static Words words(Db db) throws SQLException {
    try (Connection c = db.read()) {
      record Meeting(long workspace, String id, String title) {}
      List<Meeting> meetings = new Sql("SELECT workspace_id, id, title FROM meeting"
          + " WHERE workspace_id = (SELECT min(workspace_id) FROM meeting) LIMIT ?", MEETINGS)
          .list(c, rs -> new Meeting(rs.getLong(1), rs.getString(2), rs.getString(3)));
      if (meetings.isEmpty()) return null;
      List<String> words = new ArrayList<>();
      for (Meeting m : meetings) addWords(m.title(), words);
      for (Meeting m : meetings) {
        new Sql("SELECT text FROM transcript_segment WHERE meeting_id = ? ORDER BY idx LIMIT ?", m.id(), SEGMENTS_PER_MEETING)
            .list(c, rs -> rs.getString(1)).forEach(text -> addWords(text, words));
      }
      int[] longOnes = java.util.stream.IntStream.range(0, words.size())
          .filter(i -> words.get(i).length() >= LONG_WORD).toArray();
      return longOnes.length == 0 ? null : new Words(meetings.getFirst().workspace(), words, longOnes);
    }
  }

  private static void addWords(String text, List<String> into) {
    for (String w : NOT_A_WORD.split(text)) {
      if (!w.isEmpty()) into.add(w.toLowerCase(Locale.ROOT));
    }
  }
}
