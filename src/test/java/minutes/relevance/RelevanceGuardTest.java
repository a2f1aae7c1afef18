package minutes.relevance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import minutes.ApiServer;
import minutes.generate.QmsumCorpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The regression guard of search relevance (issue 49): the relevance benchmark on its small set
 * (every 10th meeting of the bundled data/qmsum/qmsum.jsonl.gz with its labelled questions and
 * topics), asked through the real server on this run's store, in every form and {@code match}
 * mode. No figure may fall more than 2 points (MRR: 0.02) below the one recorded in
 * src/test/resources/relevance-floor.tsv. When ranking changes for the better, record the new
 * figures with {@code bench/relevance.sh --write-floor} (docs/BENCHMARKS.md, "Relevance").
 */
class RelevanceGuardTest {
  static final QmsumSet SET = smallSet();

  @RegisterExtension
  static final ApiServer api = new ApiServer("/relevance/workspaces.ndjson",
      Map.of("MINUTES_HTTP_RATE_LIMIT_PER_MINUTE", "0"), out -> RelevanceWorkspace.write(out, "acme", null, SET));

  @Test
  void noFigureFallsMoreThanTwoPointsBelowItsRecordedValue() {
    Map<RelevanceTable.Row, Figures> now = RelevanceTable.measure(SET,
        new MinutesRun(api.uri("/").toString(), api.key(ApiServer.ALL), SET, 2), null);
    List<String> fallen = RelevanceTable.fallen(now, floor());
    assertTrue(fallen.isEmpty(), "relevance fell:\n" + String.join("\n", fallen) + "\n\nnow:\n"
        + RelevanceTable.markdown(now));
  }

  /** The floor records every row the guard measures, so that none passes for want of a value. */
  @Test
  void theFloorHoldsEveryRow() {
    List<String> recorded = floor().lines().skip(1).map(l -> l.split("\t", 4))
        .map(c -> c[0] + "\t" + c[1] + "\t" + c[2]).toList();
    assertEquals(RelevanceTable.rows(false).stream().map(RelevanceTable.Row::key).toList(), recorded);
  }

  private static String floor() {
    try (InputStream in = RelevanceGuardTest.class.getResourceAsStream("/relevance-floor.tsv")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static QmsumSet smallSet() {
    try {
      return RelevanceBench.load(QmsumCorpus.DEFAULT_PATH, true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
