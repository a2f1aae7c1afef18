package minutes.search.index;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import minutes.search.text.SearchAnalyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.util.Version;

/**
 * The index-format contract: what a generation's files were written with (this code's document
 * layout and analysis, the codec's name, Lucene's version), recorded in the file {@value #FILE}
 * of the generation when it is created, and compared with this code's own before Lucene reads
 * anything of the generation. Any difference, a missing or garbled file included, means the
 * generation is rebuilt from the database, never opened: so a Lucene upgrade (whose codecs
 * may not read an older index, or whose lookup no longer knows its codec) is a rebuild in the
 * background, not a failing search. Immutable.
 */
record IndexFormat(String layout, String analysis, String codec, String lucene) {
  static final String FILE = "minutes-format";

  /** What this code writes and reads. */
  static final IndexFormat CURRENT =
      new IndexFormat(MeetingDocument.LAYOUT, SearchAnalyzer.VERSION, MinutesCodec.NAME, Version.LATEST.toString());

  /** A generation written with another format than {@link #CURRENT}: rebuild it, do not open it. */
  static final class Other extends IOException {
    /**
     * What differs, as a clause about the generation that names no version nor path ("it was
     * written by another version of Lucene"): what /healthz and search's 503 say while it is
     * rebuilt. The message (for the log) has the values too.
     */
    final String differs;

    Other(Path dir, String differs, String detail) {
      super(dir.getFileName() + " was written with another index format (" + detail + ")");
      this.differs = differs;
    }
  }

  /** Records this format in a new generation's folder, whole or not at all. */
  void writeTo(Path dir) throws IOException {
    IndexDirs.writeAtomically(dir.resolve(FILE), "layout=" + layout + "\nanalysis=" + analysis + "\ncodec=" + codec
        + "\nlucene=" + lucene + "\n");
  }

  /** Throws {@link Other} unless the generation in {@code dir} records exactly {@link #CURRENT}. */
  static void check(Path dir) throws IOException {
    String text;
    try {
      text = Files.readString(dir.resolve(FILE), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new Other(dir, "it records no index format", "it records none");
    }
    Map<String, String> fields = new HashMap<>();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) fields.put(line.substring(0, eq), line.substring(eq + 1));
    }
    IndexFormat found = new IndexFormat(fields.get("layout"), fields.get("analysis"), fields.get("codec"), fields.get("lucene"));
    if (!found.equals(CURRENT)) {
      throw new Other(dir, found.differsFrom(CURRENT), "it records " + found + ", this code writes " + CURRENT);
    }
  }

  /**
   * What differs between this recorded format and {@code now}, as clauses about the generation
   * joined by "and", each naming what differs but not its values (/healthz answers without a
   * key): "it was written by another version of Lucene and its texts were analysed by another
   * version of minutes". A record missing any field is an incomplete one, whatever the rest says.
   */
  String differsFrom(IndexFormat now) {
    if (layout == null || analysis == null || codec == null || lucene == null) {
      return "its index format record is incomplete";
    }
    List<String> parts = new ArrayList<>();
    if (!lucene.equals(now.lucene)) parts.add("it was written by another version of Lucene");
    if (!codec.equals(now.codec)) {
      // Risk: Codec.availableCodecs is Lucene's codec lookup by name (SPI), which an upgrade that
      // retires a codec changes; only this message's wording depends on it (HealthWhileRebuildingTest).
      parts.add(Codec.availableCodecs().contains(codec) ? "it was written with another codec"
          : "it was written with a codec this version of Lucene does not know");
    }
    if (!layout.equals(now.layout)) parts.add("its documents were laid out by another version of minutes");
    if (!analysis.equals(now.analysis)) parts.add("its texts were analysed by another version of minutes");
    return String.join(" and ", parts);
  }
}
