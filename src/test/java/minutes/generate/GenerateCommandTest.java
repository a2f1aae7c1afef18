package minutes.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import minutes.StoreIndependent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@StoreIndependent
class GenerateCommandTest {
  @TempDir Path dir;
  @TempDir static Path shared;
  private static Path smallCorpus;

  /** Three meetings of the real corpus: the synthetic runs need no more, and load fast. */
  @BeforeAll
  static void smallCorpus() throws IOException {
    smallCorpus = shared.resolve("small.jsonl.gz");
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
            new GZIPInputStream(Files.newInputStream(QmsumCorpus.DEFAULT_PATH)), StandardCharsets.UTF_8));
        Writer out = new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(smallCorpus)), StandardCharsets.UTF_8)) {
      for (int i = 0; i < 3; i++) {
        out.write(in.readLine() + "\n");
      }
    }
  }

  private record Run(int exit, String err) {}

  private static Run run(String... args) {
    StringWriter err = new StringWriter();
    int exit = new CommandLine(new GenerateCommand()).setErr(new PrintWriter(err, true)).execute(args);
    return new Run(exit, err.toString());
  }

  @Test
  void writesSyntheticMeetingsAndASummary() throws IOException {
    Path out = dir.resolve("bench.ndjson");
    Run r = run("--meetings", "12", "--seed", "4", "--tasks-per-meeting", "3", "--transcript-kb", "1-2",
        "--workspaces", "2", "--qmsum", smallCorpus.toString(), "--out", out.toString());
    assertEquals(0, r.exit(), r.err());
    List<String> lines = Files.readAllLines(out);
    assertEquals(12, lines.stream().filter(l -> l.startsWith("{\"kind\":\"meeting\"")).count());
    assertTrue(r.err().matches("generate: 12 meetings, 36 tasks, \\d+\\.\\d MB in \\d+\\.\\d s\\R"), r.err());
  }

  @Test
  void demoNeedsItsMeetings() {
    // The demo itself is checked in DemoDataTest; here only that --demo reaches it.
    Run r = run("--demo", "--qmsum", smallCorpus.toString(), "--out", dir.resolve("demo.ndjson").toString());
    assertEquals(1, r.exit());
    assertOneLine(r.err());
    assertTrue(r.err().contains("no QMSum meeting named"), r.err());
  }

  @Test
  void refusesBadUsage() {
    assertEquals(2, run().exit(), "--meetings or --demo is required");
    assertEquals(2, run("--meetings", "3", "--demo").exit());
    assertEquals(2, run("--meetings", "3", "--transcript-kb", "100-40").exit());
    assertEquals(2, run("--meetings", "3", "--transcript-kb", "lots").exit());
    assertEquals(2, run("--meetings", "-3").exit());
  }

  @Test
  void failsWithOneLineOnIoErrors() {
    Run unwritable = run("--meetings", "2", "--qmsum", smallCorpus.toString(),
        "--out", dir.resolve("missing/dir/x.ndjson").toString());
    assertEquals(1, unwritable.exit());
    assertOneLine(unwritable.err());
    Run noCorpus = run("--meetings", "2", "--qmsum", dir.resolve("none.jsonl.gz").toString(),
        "--out", dir.resolve("x.ndjson").toString());
    assertEquals(1, noCorpus.exit());
    assertOneLine(noCorpus.err());
  }

  private static void assertOneLine(String err) {
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.startsWith("generate: cannot "), err);
    assertFalse(err.contains("Exception"), err);
  }
}
