package minutes.formats;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The two cue file formats, WebVTT and SubRip: their cues read as segments and segments written
 * as cues, with the content type an answer in the format has. Thread-safe.
 */
public enum CueFormat {
  VTT("text/vtt; charset=utf-8", WebVtt::read, CueText::webVtt, WebVtt::write),
  SRT("application/x-subrip; charset=utf-8", SubRip::read, CueText::subRip, SubRip::write);

  /** Reads the cues of a file (its name, its lines), reporting what it skips; refuses a file not in its format. */
  interface Reader {
    List<RawCue> read(String file, String[] lines, Skips skips);
  }

  private final String contentType;
  final Reader cues;
  /** A cue's text as what each voice in it said. */
  final Function<String, List<CueText.Part>> parts;
  private final Function<List<Cue>, String> writer;

  CueFormat(String contentType, Reader cues,
      Function<String, List<CueText.Part>> parts, Function<List<Cue>, String> writer) {
    this.contentType = contentType;
    this.cues = cues;
    this.parts = parts;
    this.writer = writer;
  }

  public String contentType() {
    return contentType;
  }

  /** The file of these cues, in UTF-8. */
  public byte[] write(List<Cue> cues) {
    return writer.apply(cues).getBytes(StandardCharsets.UTF_8);
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
