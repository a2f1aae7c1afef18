package minutes.formats;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns transcript files and notetakers' JSON into meeting lines of the import format, so that
 * the import stores them as it stores NDJSON: checked, in one transaction, replacing what the
 * same source made before. A file in the wrong shape is reported by file, line (or JSON path)
 * and what was expected, and the conversion goes on to report the other files too; a block of a
 * cue file that cannot be read is skipped and reported unless strict ({@link Skips}). Memory holds
 * one transcript file, or one JSON object, at a time. Not thread-safe; one per import.
 */
public final class FormatConverter {
  /** Faults beyond this are counted, not listed. */
  static final int MAX_REPORTED = 100;

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .registerModule(new BlackbirdModule());

  /** The formats besides the import's own NDJSON. */
  public enum Format {
    VTT, SRT, FATHOM, FIREFLIES;

    /** The format of a {@code --format} value, e.g. {@code vtt}. */
    public static Optional<Format> named(String name) {
      for (Format f : values()) if (f.name().toLowerCase(Locale.ROOT).equals(name)) return Optional.of(f);
      return Optional.empty();
    }

    /** True for the formats where one file is one meeting's transcript. */
    public boolean isCueFile() {
      return this == VTT || this == SRT;
    }
  }

  /** A file to convert: what to call it in messages, and where it is. */
  public record Source(String name, Path path) {}

  private final Format format;
  private final ImportOptions options;
  private final List<String> origins = new ArrayList<>();
  private final List<String> errors = new ArrayList<>();
  private final Skips skips;
  private long faults, bytes, files, withoutTranscript;

  /** {@code strict}: a cue file block that is not read as written refuses the file rather than being skipped. */
  public FormatConverter(Format format, ImportOptions options, boolean strict) {
    this.format = format;
    this.options = options;
    this.skips = new Skips(strict);
  }

  /** Writes a meeting line per meeting of the sources to {@code out}, in UTF-8, one per line. */
  public void run(List<Source> sources, OutputStream out) throws IOException {
    try (SequenceWriter lines = MAPPER.writer().withRootValueSeparator("\n")
        .without(SerializationFeature.FLUSH_AFTER_WRITE_VALUE).writeValues(out)) {
      for (Source s : sources) {
        bytes += Files.size(s.path());
        files++;
        try {
          if (format.isCueFile()) {
            byte[] file = Files.readAllBytes(s.path());
            String name = s.path().getFileName().toString().replaceFirst("\\.[^.]*$", "");
            write(lines, s.name(), TranscriptFiles.meeting(CueFormat.valueOf(format.name()), s.name(), name, file, options,
                skips));
          } else {
            try (InputStream in = Files.newInputStream(s.path())) {
              JsonSource.forEach(s.name(), in, o -> object(lines, o));
            }
          }
        } catch (FormatError e) {
          fault(e);
        }
      }
    }
  }

  private void object(SequenceWriter lines, JsonObject o) {
    try {
      if (format == Format.FATHOM) {
        for (JsonObject m : Fathom.meetings(o)) write(lines, where(m), Fathom.meeting(m, options));
      } else {
        for (JsonObject t : Fireflies.transcripts(o)) write(lines, where(t), Fireflies.meeting(t, options));
      }
    } catch (FormatError e) {
      fault(e); // the other objects are still checked, so that one run reports them all
    }
  }

  private static String where(JsonObject o) {
    return o.file() + ":" + o.line() + (o.path().isEmpty() ? "" : ": " + o.path());
  }

  private void write(SequenceWriter lines, String origin, MeetingLine meeting) {
    try {
      lines.write(meeting);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    origins.add(origin);
    if (meeting.transcript().isEmpty()) withoutTranscript++;
  }

  private void fault(FormatError e) {
    if (faults++ < MAX_REPORTED) errors.add(e.toString());
  }

  /** Where the meeting on line {@code n} (from 1) of the output came from: a file, with its line and path for JSON. */
  public String origin(long n) {
    return origins.get((int) n - 1);
  }

  /** The faults found, at most {@link #MAX_REPORTED}; none means every source converted. */
  public List<String> errors() {
    return errors;
  }

  public long faults() {
    return faults;
  }

  /** The lines saying what was skipped or changed in cue files, at most {@link #MAX_REPORTED}. */
  public List<String> skipLines() {
    return skips.listed();
  }

  /** How many such lines there were, listed or not. */
  public long skipLineCount() {
    return skips.lines();
  }

  /** The blocks of cue files skipped. */
  public long skipped() {
    return skips.skipped();
  }

  /** The meetings converted without a transcript (a notetaker's object without one, or cues without text). */
  public long withoutTranscript() {
    return withoutTranscript;
  }

  /** The sources read. */
  public long files() {
    return files;
  }

  /** The bytes of the sources read. */
  public long bytes() {
    return bytes;
  }
}
