package minutes.formats;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The two cue file formats, WebVTT and SubRip: their cues read as segments and segments written
 * as cues, with the content type an answer in the format has. Thread-safe.
 */
public enum CueFormat {
  VTT("text/vtt; charset=utf-8", WebVtt::read, CueText::webVtt, WebVtt::write),
  SRT("application/x-subrip; charset=utf-8", SubRip::read, CueText::subRip, SubRip::write);

  private final String contentType;
  private final BiFunction<String, String[], List<RawCue>> reader;
  private final Function<String, List<CueText.Part>> text;
  private final Function<List<Cue>, String> writer;

  CueFormat(String contentType, BiFunction<String, String[], List<RawCue>> reader,
      Function<String, List<CueText.Part>> text, Function<List<Cue>, String> writer) {
    this.contentType = contentType;
    this.reader = reader;
    this.text = text;
    this.writer = writer;
  }

  public String contentType() {
    return contentType;
  }

  /** The cues of a file's lines, by line; a file that is not in this format is refused at its first line. */
  List<RawCue> cues(String file, String[] lines) {
    return reader.apply(file, lines);
  }

  /** A cue's text as what each voice in it said. */
  List<CueText.Part> parts(String payload) {
    return text.apply(payload);
  }

  /** The file of these cues, in UTF-8. */
  public byte[] write(List<Cue> cues) {
    return writer.apply(cues).getBytes(StandardCharsets.UTF_8);
  }

  /** The lines of a text, escaped; blank ones are left out, as a blank line would end the cue. */
  static void appendLines(String text, StringBuilder out, BiConsumer<String, StringBuilder> escape) {
    boolean first = true;
    for (String line : text.split("\r\n|\r|\n")) {
      if (line.isBlank()) continue;
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
