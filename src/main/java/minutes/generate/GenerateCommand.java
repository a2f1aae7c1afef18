package minutes.generate;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import minutes.formats.ImportWriter.Counts;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code generate}: writes import NDJSON, either the demo data set or N synthetic meetings for
 * benchmarks. Exit code 0 when written, 1 when the corpus cannot be read or the output written.
 */
@Command(
    name = "generate",
    description = {
      "Write import NDJSON built from the bundled QMSum meetings: the demo data set (--demo) or"
          + " N synthetic meetings for benchmarks (--meetings), the same bytes for the same seed.",
      "Prints meetings, tasks, size and time to stderr."
    })
public final class GenerateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @ArgGroup(exclusive = true, multiplicity = "1")
  What what;

  /** Exactly one of the two: what to write. */
  static final class What {
    @Option(names = "--meetings", paramLabel = "N", description = "Number of synthetic meetings.")
    Integer meetings;

    @Option(
        names = "--demo",
        description = "Write the demo data set instead (the sizing options are ignored).")
    boolean demo;
  }

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "1",
      description = "Random seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--tasks-per-meeting",
      paramLabel = "N",
      defaultValue = "20",
      description =
          "Average action items per meeting; the total is exactly meetings x N"
              + " (default: ${DEFAULT-VALUE}).")
  int tasksPerMeeting;

  @Option(
      names = "--transcript-kb",
      paramLabel = "MIN-MAX",
      defaultValue = "0",
      converter = KbRangeConverter.class,
      description =
          "Transcript text per meeting in KiB, e.g. 40-100; 0 for no transcripts (default: ${DEFAULT-VALUE})."
              + " The NDJSON is about 2.5 times larger, as every segment carries speaker and times.")
  KbRange transcriptKb;

  @Option(
      names = "--workspaces",
      paramLabel = "N",
      defaultValue = "1",
      description = "Workspaces; the first gets 70%% of the meetings (default: ${DEFAULT-VALUE}).")
  int workspaces;

  @Option(
      names = "--qmsum",
      paramLabel = "FILE",
      defaultValue = QmsumCorpus.DEFAULT_FILE,
      description = "The QMSum corpus (default: ${DEFAULT-VALUE}).")
  Path qmsum;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      defaultValue = "-",
      description = "Output file, - for stdout (default: ${DEFAULT-VALUE}).")
  String out;

  /** Users per workspace of a synthetic run; personal keys are tried with these. */
  private static final int USERS_PER_WORKSPACE = 5;

  /** A size range in KiB; 0-0 means none. */
  record KbRange(int min, int max) {}

  static final class KbRangeConverter implements ITypeConverter<KbRange> {
    @Override
    public KbRange convert(String value) {
      String[] parts = value.strip().split("-", -1);
      try {
        int min = Integer.parseInt(parts[0].strip());
        int max = parts.length == 2 ? Integer.parseInt(parts[1].strip()) : min;
        if (parts.length <= 2 && min >= 0 && max >= min) {
          return new KbRange(min, max);
        }
      } catch (NumberFormatException e) {
        // reported below, with the expected form
      }
      throw new TypeConversionException(
          "'" + value + "' is not a size range in KiB: expected MIN-MAX (e.g. 40-100), or 0");
    }
  }

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    CorpusGenerator.Options options = null;
    if (!what.demo) {
      try {
        options =
            new CorpusGenerator.Options(
                what.meetings, seed, tasksPerMeeting, transcriptKb.min(), transcriptKb.max(),
                workspaces, USERS_PER_WORKSPACE);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
    }
    long started = System.nanoTime();
    QmsumCorpus corpus;
    try {
      corpus = QmsumCorpus.load(qmsum);
    } catch (IOException e) {
      err.println("generate: cannot read the QMSum corpus " + qmsum + ": " + describe(e));
      err.flush();
      return 1;
    }
    boolean stdout = out.equals("-");
    Counts counts;
    long bytes;
    try (CountingStream counting =
            new CountingStream(
                stdout ? new FileOutputStream(FileDescriptor.out) : Files.newOutputStream(Path.of(out)),
                !stdout);
        Writer writer =
            new BufferedWriter(new OutputStreamWriter(counting, StandardCharsets.UTF_8), 1 << 16)) {
      counts =
          what.demo
              ? DemoData.write(corpus, writer)
              : new CorpusGenerator(corpus).write(options, writer);
      writer.flush();
      bytes = counting.count;
    } catch (IOException e) {
      err.println("generate: cannot write " + (stdout ? "to stdout" : out) + ": " + describe(e));
      err.flush();
      return 1;
    } catch (IllegalArgumentException e) {
      err.println("generate: cannot make the demo from " + qmsum + ": " + e.getMessage());
      err.flush();
      return 1;
    }
    err.printf(
        Locale.ROOT,
        "generate: %d meetings, %d tasks, %.1f MB in %.1f s%n",
        counts.meetings(),
        counts.tasks(),
        bytes / 1e6,
        (System.nanoTime() - started) / 1e9);
    err.flush();
    return 0;
  }

  private static String describe(IOException e) {
    return switch (e) {
      case NoSuchFileException missing -> "no such file or directory";
      case AccessDeniedException denied -> "permission denied";
      default -> e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    };
  }

  /** Counts the bytes written; leaves stdout open when closed, as others may still write. */
  private static final class CountingStream extends FilterOutputStream {
    private final boolean closeTarget;
    long count;

    CountingStream(OutputStream target, boolean closeTarget) {
      super(target);
      this.closeTarget = closeTarget;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }

    @Override
    public void close() throws IOException {
      if (closeTarget) {
        super.close();
      } else {
        flush();
      }
    }
  }
}
