package minutes.cli;

import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import minutes.config.Config;
import minutes.formats.Format;
import minutes.formats.FormatConverter;
import minutes.formats.ImportOptions;
import minutes.languages.Languages;
import minutes.store.Emails;
import minutes.store.Ids;
import minutes.store.Importer;
import minutes.store.Store;
import minutes.store.Times;
import minutes.store.Vocabulary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code import [--format F] FILE...}: loads NDJSON (decisions.md), or transcript files and
 * notetakers' JSON converted into it ("Transcripts in and out"); all meetings land or none
 * does. Safe while the server runs: it keeps answering from its snapshot and sees the import
 * once committed.
 */
@Command(name = "import", description = "Import NDJSON, WebVTT, SubRip, Fathom or Fireflies files (- for standard input); all or nothing.")
final class ImportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE") List<String> files;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "ndjson",
      description = "ndjson (default), vtt, srt, fathom or fireflies.")
  String format;

  @Option(names = "--workspace", paramLabel = "SLUG", description = "The meetings' workspace (required but for ndjson).")
  String workspace;

  @Option(names = "--title", paramLabel = "TEXT", description = "vtt, srt: the title (default: the file name without extension).")
  String title;

  @Option(names = "--starts-at", paramLabel = "TIME", description = "vtt, srt: the start, an RFC 3339 date-time.")
  String startsAt;

  @Option(names = "--platform", paramLabel = "P", description = "teams, meet, zoom or upload (default).")
  String platform;

  @Option(names = "--id", paramLabel = "UUID", description = "vtt, srt: the meeting's id (default: named by the workspace and the file).")
  String id;

  @Option(names = "--language", paramLabel = "SUBTAG",
      description = "The meetings' language, a BCP 47 primary subtag such as en, de or zh (default: the source's own, else detected).")
  String language;

  @Option(names = "--strict", description = "vtt, srt: refuse a file with a block that is not read as written, "
      + "rather than skipping the block.")
  boolean strict;

  @Option(names = "--visible-to", paramLabel = "EMAIL", split = ",", description = "Users who see the meetings with personal keys.")
  List<String> visibleTo;

  @Override
  public Integer call() throws Exception {
    Config config = Cli.config(spec);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Format named = Format.named(format)
        .orElseThrow(() -> usage("--format must be " + Format.listed() + ", not '" + format + "'"));
    Format converted = named == Format.NDJSON ? null : named;
    ImportOptions options = converted == null ? noOptions() : options(converted);
    List<FormatConverter.Source> sources = new ArrayList<>();
    List<Path> temporary = new ArrayList<>();
    Path stdin = null;
    try {
      for (String f : files) {
        if (f.equals("-")) {
          // Both passes read the input, so standard input is kept on disk, never in memory.
          if (stdin == null) {
            stdin = Files.createTempFile("minutes-import-", ".stdin");
            temporary.add(stdin);
            try (InputStream in = System.in) {
              Files.copy(in, stdin, StandardCopyOption.REPLACE_EXISTING);
            }
          }
          sources.add(new FormatConverter.Source("stdin", stdin));
        } else {
          Path p = Path.of(f);
          if (!Files.isRegularFile(p)) throw new Cli.UserError("no such file: " + f);
          sources.add(new FormatConverter.Source(f, p));
        }
      }
      if (converted == null) return run(config, sources.stream().map(FormatConverter.Source::path).toList(), out, err);
      long started = System.nanoTime();
      FormatConverter converter = new FormatConverter(converted, options, strict);
      Path lines = Files.createTempFile("minutes-import-", ".ndjson");
      temporary.add(lines);
      try (OutputStream w = new BufferedOutputStream(Files.newOutputStream(lines), 1 << 16)) {
        converter.run(sources, w);
      }
      listLines(err, converter.skipLines(), converter.skipLineCount(), "lines about skipped blocks");
      if (converter.faults() > 0) {
        listLines(err, converter.errors(), converter.faults(), "faults");
        err.println("import refused: " + converter.faults() + " fault(s) in the " + format + " files; nothing was imported");
        return 1;
      }
      return run(config, List.of(lines), converter, started, out, err);
    } finally {
      for (Path t : temporary) Files.deleteIfExists(t);
    }
  }

  /** The options of a converted format, checked; an unusable one is a usage error naming it. */
  private ImportOptions options(Format f) {
    if (workspace == null) throw usage("--workspace is required with --format " + format);
    if (strict && !f.isCueFile()) throw usage("--strict applies to --format vtt and srt only");
    if (!f.isCueFile()) {
      if (title != null || startsAt != null || id != null) {
        throw usage("--title, --starts-at and --id name one meeting: they apply to --format vtt and srt only");
      }
    } else if (id != null && files.size() > 1) {
      throw usage("--id names one meeting: give one file with it");
    } else if (title == null && files.contains("-")) {
      throw usage("a transcript read from standard input needs --title");
    }
    Instant starts = startsAt == null ? null : Times.parseDateTime(startsAt);
    if (startsAt != null && starts == null) throw usage("--starts-at must be an RFC 3339 date-time such as 2026-03-02T09:30:00Z");
    if (platform != null && !Vocabulary.PLATFORMS.contains(platform)) {
      throw usage("--platform must be one of " + String.join(", ", Vocabulary.PLATFORMS));
    }
    if (language != null && !Languages.isSubtag(language)) throw usage("--" + Languages.expected("language"));
    if (id != null && !Ids.isUuid(id)) throw usage("--id must be a UUID such as 123e4567-e89b-12d3-a456-426614174000");
    List<String> readers = visibleTo == null ? List.of() : visibleTo.stream().map(String::strip).toList();
    for (String e : readers) if (!Emails.isEmail(e)) throw usage("--visible-to takes email addresses, not '" + e + "'");
    return new ImportOptions(workspace, title, starts, platform == null ? "upload" : platform,
        id == null ? null : Ids.canonical(id), readers, Instant.now(), language);
  }

  /** NDJSON names everything itself; an option meant for a converted format is a mistake. */
  private ImportOptions noOptions() {
    if (strict) throw usage("--strict applies to --format vtt and srt only");
    if (workspace != null || title != null || startsAt != null || platform != null || id != null || visibleTo != null
        || language != null) {
      throw usage("--workspace, --title, --starts-at, --platform, --id, --visible-to and --language apply to --format vtt, srt, "
          + "fathom and fireflies; an NDJSON line names its own");
    }
    return null;
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** The lines kept (the first few), then a line saying that there were more, if so; {@code what}: what they are. */
  private static void listLines(PrintWriter err, List<String> listed, long total, String what) {
    listed.forEach(err::println);
    if (listed.size() < total) err.println("... and more; only the first " + listed.size() + " " + what + " are listed");
  }

  static int run(Config config, List<Path> paths, PrintWriter out, PrintWriter err) throws Exception {
    return run(config, paths, null, System.nanoTime(), out, err);
  }

  /**
   * Imports NDJSON files; {@code converter}: the converter that wrote them (its sources are
   * named in faults and the summary), or null. {@code started}: when the work began, for the rate.
   */
  private static int run(Config config, List<Path> paths, FormatConverter converter, long started, PrintWriter out,
      PrintWriter err) throws Exception {
    ProgressLine bar = new ProgressLine(err);
    Importer importer = new Importer(Store.of(config), Duration.ofDays(config.changesRetentionDays()), (phase, lines, read, total) ->
        bar.show(phase, total == 0 ? 1 : (double) read / total,
            String.format("%,d lines, %,.1f of %,.1f MB", lines, read / 1e6, total / 1e6)));
    Importer.Summary s;
    try {
      s = importer.run(paths);
    } catch (Importer.Refused refused) {
      bar.done();
      listLines(err, refused.errors().stream().map(e -> converter == null ? e.toString() : e.in(converter.origin(e.line())))
          .toList(), refused.badLines(), "faults");
      err.println("import refused: " + refused.getMessage());
      return 1;
    }
    bar.done();
    if (converter == null) {
      out.printf("imported %,d lines: %,d workspaces, %,d users, %,d companies, %,d meetings, %,d tasks, %,d deletes "
              + "(%.1f MB in %.1f s: %,.0f meetings/s, %.1f MB/s)%n",
          s.lines(), s.workspaces(), s.users(), s.companies(), s.meetings(), s.tasks(), s.deletes(), s.bytes() / 1e6,
          s.seconds(), s.meetings() / Math.max(s.seconds(), 1e-9), s.bytes() / 1e6 / Math.max(s.seconds(), 1e-9));
    } else {
      double seconds = (System.nanoTime() - started) / 1e9;
      out.printf("imported %,d meetings with %,d tasks from %,d files%s%s (%.1f MB in %.1f s: %,.0f meetings/s, %.1f MB/s)%n",
          s.meetings(), s.tasks(), converter.files(),
          converter.withoutTranscript() == 0 ? "" : String.format(", %,d of them without a transcript", converter.withoutTranscript()),
          converter.skipped() == 0 ? "" : String.format(", %,d blocks skipped", converter.skipped()),
          converter.bytes() / 1e6, seconds,
          s.meetings() / Math.max(seconds, 1e-9), converter.bytes() / 1e6 / Math.max(seconds, 1e-9));
    }
    if (s.erasure().complete() && !s.erasure().done().isEmpty()) {
      out.printf("erased what the deletes removed: %s (%.1f s)%n", s.erasure().done(), s.erasure().seconds());
    } else if (!s.erasure().complete()) {
      // The data is in; only the bytes of what it deleted may still stand in the store's files.
      err.printf("the import is complete, but erasure is not: %s%n", s.erasure().done());
    }
    try {
      out.println(minutes.search.index.IndexBuilds.updateAfterImport(config));
    } catch (java.io.IOException e) {
      // The data is in: say so, or the user takes the import for failed (e.g. a read-only index folder).
      err.println("the import is complete, but the search index could not be updated: " + e.getMessage()
          + "; a running server catches up by itself, otherwise run `reindex` once that is fixed");
      return 1;
    }
    return s.erasure().complete() ? 0 : 1;
  }
}
