package minutes.formats;

import java.util.ArrayList;
import java.util.List;

/**
 * What the cue file readers do with a block they cannot read as written (decisions.md
 * "Transcript files as written"): by default the block is skipped, or a cue's end before its
 * start is set to its start, and a line {@code FILE:LINE: ...} says so; with {@code --strict}
 * the file is refused there instead. Lists the first {@link FormatConverter#MAX_REPORTED} lines and
 * counts all. Not thread-safe; one per import.
 */
final class Skips {
  private final boolean strict;
  private final List<String> listed = new ArrayList<>();
  private long lines, skipped;

  Skips(boolean strict) {
    this.strict = strict;
  }

  /** A block left out: {@code why} says what was expected there. */
  void skip(String file, int line, String why) {
    if (strict) throw new FormatError(file, line, null, why);
    skipped++;
    list(file + ":" + line + ": skipped: " + why);
  }

  /** A cue, on the timing line {@code line}, that ends before it starts; its end becomes its start. */
  void endBeforeStart(String file, int line, String timing) {
    if (strict) throw new FormatError(file, line, null, "the cue ends before it starts: " + FormatError.quote(timing));
    list(file + ":" + line + ": end before start; end set to start");
  }

  private void list(String line) {
    if (lines++ < FormatConverter.MAX_REPORTED) listed.add(line);
  }

  /** The lines kept (the first few). */
  List<String> listed() {
    return listed;
  }

  /** All the lines, listed or not. */
  long lines() {
    return lines;
  }

  /** The blocks skipped. */
  long skipped() {
    return skipped;
  }
}
