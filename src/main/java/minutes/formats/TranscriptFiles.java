package minutes.formats;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import minutes.formats.ImportWriter.Meeting;
import minutes.formats.ImportWriter.Segment;

/**
 * A WebVTT or SubRip file as one meeting (decisions.md "Transcripts in and out"): a segment per
 * voice in each cue, the speaker from the voice span, else from a {@code Name: } prefix when
 * most cues of the file have one (as Zoom writes them), else unknown. Stateless.
 */
final class TranscriptFiles {
  /** A prefix longer than this, or of more words, is the start of a sentence rather than a name. */
  private static final int MAX_NAME_CHARS = 80, MAX_NAME_WORDS = 8;

  private TranscriptFiles() {}

  /** {@code name}: the file's name without its extension, the title unless the options give one. */
  static Meeting meeting(Format format, String file, String name, byte[] bytes, ImportOptions o, Skips skips) {
    String[] lines = lines(decode(file, bytes));
    List<RawCue> cues = format.cues.read(file, lines, skips);
    if (cues.isEmpty()) throw new FormatError(file, lines.length, null, "expected at least one cue, found none");
    List<List<CueText.Part>> parts = new ArrayList<>(cues.size());
    int spoken = 0, prefixed = 0;
    for (RawCue c : cues) {
      List<CueText.Part> p = format.parts.apply(c.payload());
      parts.add(p);
      if (p.isEmpty()) continue;
      spoken++;
      if (p.getFirst().speaker() == null && prefixEnd(p.getFirst().text()) > 0) prefixed++;
    }
    boolean byPrefix = prefixed * 2 > spoken;
    List<Segment> segments = new ArrayList<>(cues.size());
    long lastEnd = 0;
    for (int i = 0; i < cues.size(); i++) {
      RawCue c = cues.get(i);
      lastEnd = Math.max(lastEnd, c.endMs());
      for (CueText.Part p : parts.get(i)) {
        String speaker = p.speaker(), text = p.text();
        int end = speaker == null && byPrefix ? prefixEnd(text) : -1;
        if (end > 0) {
          speaker = text.substring(0, end).strip();
          text = text.substring(end + 1).strip();
        }
        segments.add(new Segment(speaker == null ? ConvertedMeetings.UNKNOWN_SPEAKER : speaker, null, c.startMs(), c.endMs(), text));
      }
    }
    String id = o.id() != null ? o.id() : NameBasedIds.of(bytes, o.workspace());
    Instant ends = o.startsAt() == null ? null : o.startsAt().plusMillis(lastEnd);
    return ConvertedMeetings.line(o, id, o.title() != null ? o.title() : name, o.startsAt(), ends, null, o.now(), List.of(),
        List.of(), segments, null);
  }

  /**
   * Where the colon of a leading {@code Name: } is, or -1: a colon followed by a space and more
   * text, after a short name (see {@link #MAX_NAME_CHARS}).
   */
  static int prefixEnd(String text) {
    int colon = text.indexOf(':');
    if (colon <= 0 || colon > MAX_NAME_CHARS || colon + 2 >= text.length() || text.charAt(colon + 1) != ' ') return -1;
    int words = 1;
    for (int i = 0; i < colon; i++) if (text.charAt(i) == ' ' && ++words > MAX_NAME_WORDS) return -1;
    return text.substring(0, colon).isBlank() ? -1 : colon;
  }

  /**
   * The file's text: UTF-8 (a byte order mark dropped), or UTF-16 with its byte order mark;
   * anything else is refused at its line, saying how to convert it.
   */
  static String decode(String file, byte[] bytes) {
    if (bytes.length >= 2 && (bytes[0] & 0xff) == 0xfe && (bytes[1] & 0xff) == 0xff) {
      return new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16BE);
    }
    if (bytes.length >= 2 && (bytes[0] & 0xff) == 0xff && (bytes[1] & 0xff) == 0xfe) {
      return new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16LE);
    }
    String text = new String(bytes, StandardCharsets.UTF_8); // the JDK's fast path; it replaces bad bytes with U+FFFD
    if (text.indexOf('\uFFFD') >= 0) refuseMalformed(file, bytes); // a U+FFFD the file itself holds passes
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  private static void refuseMalformed(String file, byte[] bytes) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    if (decoder.decode(in, CharBuffer.allocate(bytes.length), true).isError()) {
      int line = 1;
      for (int i = 0; i < in.position(); i++) if (bytes[i] == '\n') line++;
      String converted = file.matches(".*\\.[^./]+") ? file.replaceFirst("(\\.[^./]+)$", ".utf8$1") : file + ".utf8";
      throw new FormatError(file, line, null, "expected text in UTF-8, found a byte sequence that is not: the file is not "
          + "UTF-8 (nor UTF-16 with a byte order mark); convert it, e.g. from Windows-1252: iconv -f WINDOWS-1252 -t UTF-8 "
          + shellWord(file) + " > " + shellWord(converted));
    }
  }

  /** A file name as a shell reads it back: as it is, or in single quotes. */
  private static String shellWord(String name) {
    return name.matches("[A-Za-z0-9._/+-]+") ? name : "'" + name.replace("'", "'\\''") + "'";
  }

  /** Lines ended by CR LF, LF or CR, without their ends; an empty text is one empty line (the readers read line 1). */
  static String[] lines(String text) {
    String[] lines = text.lines().toArray(String[]::new);
    return lines.length == 0 ? new String[] {""} : lines;
  }
}
