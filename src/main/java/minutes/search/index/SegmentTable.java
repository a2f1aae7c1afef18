package minutes.search.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import minutes.search.text.SegmentRanges;

/**
 * A transcript's segments in order, the {@link MeetingDocument#SEGMENTS} value of an indexed
 * meeting, in Lucene's variable-length numbers and strings: the speakers' names; the length of
 * the ranges, then per segment its range in the joined text (the gap since the previous one's
 * end, its length); the length of the details, then per segment its speaker (an index into the
 * names) and whether the index holds its text verbatim, its start (a zig-zag difference from the
 * previous start), its end (0: none, else 1 + the zig-zag length) and, unless verbatim, its text;
 * then, for every {@link #STRIDE}th segment, where its details begin and the start before it
 * (differences from the previous such pair). Ranges and the rest are apart because a search walks
 * the ranges up to its last match ({@link #next}) but reads the rest only for the few segments it
 * shows ({@link #details}), and the strides let it jump to them: a rare word's first match may
 * lie in the last of a thousand segments. Written once ({@link #add}, {@link #bytes}), read
 * forward only. Not thread-safe.
 */
public final class SegmentTable implements SegmentRanges {
  /** Segments between two entries of the jump table. */
  static final int STRIDE = 64;

  /** A segment's speaker and times; {@code text}: its own text when the joined text does not hold it verbatim, else null. */
  public record Detail(String speaker, long startMs, Long endMs, String text) {}

  private final List<String> speakers = new ArrayList<>();
  // Writing:
  private ByteArrayData.Output rangesOut, detailsOut, jumpsOut;
  private final Map<String, Integer> speakerIndex = new HashMap<>();
  private long jumpAt, jumpStartMs, lastStartMs;
  // Reading:
  private ByteArrayData.Input ranges, details, jumps;
  private int detailsIndex = -1, detailsBase, jumpIndex;
  private long detailsStartMs;
  /** The segment read last (or written last): its position (-1 before the first) and range. */
  private int index = -1, start, end;

  /** An empty table to {@link #add} to. */
  SegmentTable() {
    rangesOut = new ByteArrayData.Output();
    detailsOut = new ByteArrayData.Output();
    jumpsOut = new ByteArrayData.Output();
  }

  /** A stored table to read with {@link #next} and {@link #details}. */
  SegmentTable(byte[] stored) throws IOException {
    if (stored.length == 0) return; // a meeting without transcript: no segment
    ByteArrayData.Input in = new ByteArrayData.Input(stored);
    for (int n = in.readVInt(); n > 0; n--) speakers.add(in.readString());
    int length = in.readVInt();
    ranges = new ByteArrayData.Input(stored, in.position(), in.position() + length);
    in.skipBytes(length);
    length = in.readVInt();
    detailsBase = in.position();
    details = new ByteArrayData.Input(stored, detailsBase, detailsBase + length);
    jumps = new ByteArrayData.Input(stored, detailsBase + length, stored.length);
  }

  /**
   * The next segment: characters [start, end) of the joined text, after the previous one's
   * end; {@code text}: null when the joined text holds it verbatim, else its own text.
   */
  void add(int start, int end, String speaker, long startMs, Long endMs, String text) throws IOException {
    if (++index > 0 && index % STRIDE == 0) {
      jumpsOut.writeVLong(detailsOut.size() - jumpAt);
      jumpsOut.writeZLong(lastStartMs - jumpStartMs);
      jumpAt = detailsOut.size();
      jumpStartMs = lastStartMs;
    }
    Integer s = speakerIndex.computeIfAbsent(speaker, name -> {
      speakers.add(name);
      return speakers.size() - 1;
    });
    rangesOut.writeVInt(start - this.end);
    rangesOut.writeVInt(end - start);
    detailsOut.writeVLong((long) s << 1 | (text == null ? 1 : 0));
    detailsOut.writeZLong(startMs - lastStartMs);
    detailsOut.writeVLong(endMs == null ? 0 : 1 + zigZag(endMs - startMs));
    if (text != null) detailsOut.writeString(text);
    this.end = end;
    lastStartMs = startMs;
  }

  /** The stored form of the segments added. */
  byte[] bytes() throws IOException {
    ByteArrayData.Output out = new ByteArrayData.Output();
    out.writeVInt(speakers.size());
    for (String name : speakers) out.writeString(name);
    out.writeVInt(rangesOut.size());
    out.append(rangesOut);
    out.writeVInt(detailsOut.size());
    out.append(detailsOut);
    out.append(jumpsOut);
    return out.toArray();
  }

  @Override
  public boolean next() throws IOException {
    if (ranges == null || ranges.atEnd()) return false;
    start = end + ranges.readVInt();
    end = start + ranges.readVInt();
    index++;
    return true;
  }

  @Override
  public int index() {
    return index;
  }

  @Override
  public int start() {
    return start;
  }

  @Override
  public int end() {
    return end;
  }

  /**
   * What the table says of segment {@code index}, after the one asked for last: from the last
   * stride at or before it, the segments between passed over without building anything.
   */
  public Detail details(int index) throws IOException {
    while (index / STRIDE > jumpIndex && !jumps.atEnd()) { // the next stride's segment is not beyond index
      jumpAt += jumps.readVLong();
      jumpStartMs += jumps.readZLong();
      jumpIndex++;
      if (STRIDE * jumpIndex > detailsIndex + 1) {
        details.position(detailsBase + (int) jumpAt);
        detailsStartMs = jumpStartMs;
        detailsIndex = STRIDE * jumpIndex - 1;
      }
    }
    while (true) {
      long s = details.readVLong();
      detailsStartMs += details.readZLong();
      long e = details.readVLong();
      boolean verbatim = (s & 1) == 1;
      if (++detailsIndex == index) {
        Long endMs = e == 0 ? null : detailsStartMs + unZigZag(e - 1);
        return new Detail(speakers.get((int) (s >>> 1)), detailsStartMs, endMs, verbatim ? null : details.readString());
      }
      if (!verbatim) details.skipBytes(details.readVInt());
    }
  }

  /** Lucene's zig-zag encoding ({@code writeZLong}), for a zig-zag number stored plus one. */
  private static long zigZag(long v) {
    return (v << 1) ^ (v >> 63);
  }

  private static long unZigZag(long v) {
    return (v >>> 1) ^ -(v & 1);
  }
}
