package minutes.formats;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The file formats, by the one name that {@code import --format} and the transcript's
 * {@code ?format=} give each: NDJSON, the import format itself; the cue files WebVTT and SubRip,
 * imported (converted into NDJSON) and exported; Fathom's and Fireflies' JSON, imported. A cue
 * file format reads its cues as segments and writes segments as cues, with the content type an
 * answer in it has. Thread-safe.
 */
public enum Format {
  NDJSON(null, null, null, null),
  VTT("text/vtt; charset=utf-8", WebVtt::read, CueText::webVtt, WebVtt::write),
  SRT("application/x-subrip; charset=utf-8", SubRip::read, CueText::subRip, SubRip::write),
  FATHOM(null, null, null, null),
  FIREFLIES(null, null, null, null);

  /** Reads the cues of a file (its name, its lines), reporting what it skips; refuses a file not in its format. */
  interface Reader {
    List<RawCue> read(String file, String[] lines, Skips skips);
  }

  // Null but for the cue file formats.
  private final String contentType;
  final Reader cues;
  /** A cue's text as what each voice in it said. */
  final Function<String, List<CueText.Part>> parts;
  private final Function<List<Cue>, String> writer;

  Format(String contentType, Reader cues,
      Function<String, List<CueText.Part>> parts, Function<List<Cue>, String> writer) {
    this.contentType = contentType;
    this.cues = cues;
    this.parts = parts;
    this.writer = writer;
  }

  /** The format of a name, e.g. {@code vtt}; empty for a name of no format (e.g. {@code json}, the API's own). */
  public static Optional<Format> named(String name) {
    return Arrays.stream(values()).filter(f -> f.label().equals(name)).findFirst();
  }

  /** The names of the formats, as a message lists them: {@code ndjson, vtt, srt, fathom or fireflies}. */
  public static String listed() {
    List<String> names = Arrays.stream(values()).map(Format::label).toList();
    return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.getLast();
  }

  /** The names of the cue file formats, the ones an answer can be written in, e.g. {@code vtt}. */
  public static List<String> cueFiles() {
    return Arrays.stream(values()).filter(Format::isCueFile).map(Format::label).toList();
  }

  /** The name, e.g. {@code vtt}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** True for the cue file formats (WebVTT, SubRip), where one file is one meeting's transcript. */
  public boolean isCueFile() {
    return cues != null;
  }

  /** The content type of an answer in a cue file format. */
  public String contentType() {
    requireCueFile();
    return contentType;
  }

  /** The cue file of these cues, in UTF-8. */
  public byte[] write(List<Cue> cues) {
    requireCueFile();
    return writer.apply(cues).getBytes(StandardCharsets.UTF_8);
  }

  private void requireCueFile() {
    if (!isCueFile()) throw new IllegalStateException(this + " is not a cue file format");
  }

  /** The lines of a text, escaped; blank ones are left out, as a blank line would end the cue. */
  static void appendLines(String text, StringBuilder out, BiConsumer<String, StringBuilder> escape) {
    boolean first = true;
    for (String line : text.lines().filter(l -> !l.isBlank()).toList()) {
      if (!first) out.append('\n');
      escape.accept(line, out);
      first = false;
    }
  }

  /** A speaker's name on one line. */
  static String oneLine(String name) {
    return name.replaceAll("\\s+", " ");
  }
}
