package minutes.relevance;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The relevance benchmark of bench/relevance.sh (issue 49, item 1); not a test. Modes:
 * <ul>
 *   <li>{@code workspace DATA OUT [--small]}: writes the QMSum meetings as an import (workspace
 *       {@value #SLUG}) for the real CLI to import;</li>
 *   <li>{@code measure BASE KEY DATA [--small] [--out FILE] [--write-floor FILE] [--threads N]}:
 *       asks the server at BASE with KEY every labelled query in every form and mode, computes the
 *       BM25 reference on the same texts, prints the Markdown table (and writes it to FILE);
 *       {@code --write-floor} writes the minutes rows as the regression guard's recorded values.</li>
 * </ul>
 * DATA is QMSum's folder (with train/ and val/) or the bundled data/qmsum/qmsum.jsonl.gz;
 * {@code --small} keeps every {@value #SMALL_EVERY}th meeting, the regression guard's subset.
 */
public final class RelevanceBench {
  static final String SLUG = "qmsum";
  /** The small set: every 10th meeting in name order, 20 of the 197 (AMI, ICSI and parliament alike). */
  static final int SMALL_EVERY = 10;

  private RelevanceBench() {}

  public static void main(String[] args) throws Exception {
    try {
      run(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    }
  }

  private static void run(String[] args) throws Exception {
    List<String> rest = new ArrayList<>(List.of(args));
    boolean small = rest.remove("--small");
    Map<String, String> options = new LinkedHashMap<>();
    for (String option : List.of("--out", "--write-floor", "--threads")) {
      int at = rest.indexOf(option);
      if (at >= 0) {
        if (at + 1 >= rest.size()) usage(option + " needs a value");
        options.put(option, rest.remove(at + 1));
        rest.remove(at);
      }
    }
    String mode = rest.isEmpty() ? "" : rest.get(0);
    switch (mode) {
      case "workspace" -> {
        if (rest.size() != 3) usage("workspace DATA OUT");
        QmsumSet set = load(Path.of(rest.get(1)), small);
        try (Writer out = Files.newBufferedWriter(Path.of(rest.get(2)), StandardCharsets.UTF_8)) {
          RelevanceWorkspace.write(out, SLUG, "QMSum meetings (relevance benchmark)", set);
        }
        System.err.printf("%d meetings (%d segments), %d questions, %d topics%n", set.meetings().size(),
            set.meetings().stream().mapToInt(m -> m.turns().size()).sum(),
            set.queries(QmsumSet.Kind.QUESTION).size(), set.queries(QmsumSet.Kind.TOPIC).size());
      }
      case "measure" -> {
        if (rest.size() != 4) usage("measure BASE KEY DATA");
        QmsumSet set = load(Path.of(rest.get(3)), small);
        int threads = Integer.parseInt(options.getOrDefault("--threads", "2"));
        long start = System.nanoTime();
        MinutesRun minutes = new MinutesRun(rest.get(1), rest.get(2), set, threads);
        Map<RelevanceTable.Row, Figures> figures;
        try (Bm25Reference bm25 = new Bm25Reference(set)) {
          figures = RelevanceTable.measure(set, minutes, bm25);
        }
        String table = RelevanceTable.markdown(figures) + "\n" + noHits(set, minutes) + "\n";
        System.out.print(table);
        System.err.printf("measured in %.0f s%n", (System.nanoTime() - start) / 1e9);
        if (options.containsKey("--out")) Files.writeString(Path.of(options.get("--out")), table);
        if (options.containsKey("--write-floor")) {
          Map<RelevanceTable.Row, Figures> minutesRows = new LinkedHashMap<>(figures);
          minutesRows.keySet().removeIf(row -> row.engine().startsWith("BM25"));
          Files.writeString(Path.of(options.get("--write-floor")), RelevanceTable.floor(minutesRows));
        }
      }
      case "questions" -> {
        if (rest.size() != 4) usage("questions DATA OUT N");
        List<String> lines = fiveWordQuestions(load(Path.of(rest.get(1)), small), Integer.parseInt(rest.get(3)));
        Files.write(Path.of(rest.get(2)), lines, StandardCharsets.UTF_8);
      }
      default -> usage("a mode: workspace, measure or questions");
    }
  }

  /**
   * The search benchmark's question load (bench/search-bench.sh): the last five words of every
   * {@code n}th-or-so QMSum question of at least five words, where a question names its topic
   * ("discuss about the remote's buttons"), up to {@code n} of them, in the set's order.
   */
  static List<String> fiveWordQuestions(QmsumSet set, int n) {
    List<String> out = new ArrayList<>();
    for (QmsumSet.Query q : set.queries(QmsumSet.Kind.QUESTION)) {
      List<String> words = QueryForms.words(q.text());
      if (words.size() >= 5 && out.size() < n) out.add(String.join(" ", words.subList(words.size() - 5, words.size())));
    }
    return out;
  }

  /** What "no hit" means for the questions as asked with {@code match=all}, in a sentence. */
  private static String noHits(QmsumSet set, MinutesRun minutes) {
    List<QmsumSet.Query> questions = set.queries(QmsumSet.Kind.QUESTION);
    int[] none = minutes.noHits(questions, QueryForms.ASKED);
    double n = questions.size() / 100.0;
    return String.format(java.util.Locale.ROOT, "Questions as asked, match=all: %d of %d (%.1f %%) find no meeting;"
        + " %d (%.1f %%) hold a word that alone finds no meeting (a typo, a name nobody said), the other %d"
        + " (%.1f %%) only words that occur, but never all in one field (title, minutes or transcript) of one meeting.",
        none[0], questions.size(), none[0] / n, none[1], none[1] / n, none[0] - none[1], (none[0] - none[1]) / n);
  }

  /** The labelled set at {@code data}, or its small subset; a clear error when it is not there. */
  static QmsumSet load(Path data, boolean small) throws IOException {
    if (!Files.exists(data)) {
      throw new IllegalArgumentException("no QMSum data at " + data.toAbsolutePath().normalize()
          + ": give QMSum's folder holding train/ and val/ (its data/ALL), or the bundled data/qmsum/qmsum.jsonl.gz");
    }
    QmsumSet set = QmsumSet.load(data);
    return small ? set.everyNth(SMALL_EVERY) : set;
  }

  private static void usage(String problem) {
    throw new IllegalArgumentException(problem + "; usage: RelevanceBench workspace DATA OUT [--small] | "
        + "measure BASE KEY DATA [--small] [--out FILE] [--write-floor FILE] [--threads N] | questions DATA OUT N");
  }
}
