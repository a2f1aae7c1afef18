package minutes.search.text;

import java.io.IOException;

/**
 * The segments of a transcript as character ranges of its joined text, read forward once: what
 * {@link SegmentMatches} needs to tell which segment a match lies in. The index's stored segment
 * table is one; {@link #of} makes one of plain ranges. Not thread-safe.
 */
public interface SegmentRanges {
  /** Moves to the next segment; false after the last. */
  boolean next() throws IOException;

  /** The current segment's position in the transcript, -1 before the first. */
  int index();

  /** The current segment's first character in the joined text. */
  int start();

  /** The current segment's end (exclusive) in the joined text. */
  int end();

  /**
   * The current segment's length as its rank counts it: its characters with each run of
   * whitespace one space and none at its ends, as the index holds a transcript's text.
   */
  default int length() {
    return end() - start();
  }

  /**
   * Segments whose ranges of {@code text} are {@code ranges[2i]} to {@code ranges[2i + 1]}, in
   * order, as written (their whitespace not collapsed).
   */
  static SegmentRanges of(int[] ranges, CharSequence text) {
    return new SegmentRanges() {
      private int at = -1;

      @Override
      public boolean next() {
        if (2 * (at + 1) >= ranges.length) return false;
        at++;
        return true;
      }

      @Override
      public int index() {
        return at;
      }

      @Override
      public int start() {
        return ranges[2 * at];
      }

      @Override
      public int end() {
        return at < 0 ? 0 : ranges[2 * at + 1];
      }

      @Override
      public int length() {
        StringBuilder collapsed = new StringBuilder();
        MarkdownText.appendCollapsed(collapsed, text.subSequence(start(), end()));
        return collapsed.length();
      }
    };
  }
}
