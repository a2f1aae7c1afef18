package minutes.search.index;

import java.util.ArrayList;
import java.util.List;
import minutes.Property;
import minutes.StoreIndependent;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stored {@link SegmentTable} reads back what was written: every range in order, and
 * the details of any ascending choice of segments, those reached through the strides included,
 * against the list of segments written (generated: up to several strides long, speakers that
 * recur, starts that go back, segments without an end, and own texts).
 */
@StoreIndependent
class SegmentTableTest {
  record Written(int start, int end, String speaker, long startMs, Long endMs, String text) {}

  @Test
  void readsBackWhatWasWritten() throws Exception {
    Property.forAll("SegmentTable against the segments written", 300, 60, c -> {
      List<Written> written = new ArrayList<>();
      int at = 0, n = c.chance(0.1) ? 0 : c.nextInt(1 + c.size() * SegmentTable.STRIDE / 8);
      if (c.chance(0.1)) n = SegmentTable.STRIDE * c.between(1, 4) + c.between(-1, 1); // at a stride's edge
      long ms = c.nextInt(1_000_000);
      for (int i = 0; i < n; i++) {
        int start = at + c.nextInt(3), end = start + c.nextInt(400);
        ms += c.chance(0.05) ? -c.nextInt(5_000) : c.nextInt(60_000);
        Long endMs = c.chance(0.1) ? null : ms + c.nextInt(90_000) - (c.chance(0.02) ? 100_000 : 0);
        String text = c.chance(0.05) ? "own\u00a0 text " + i : null;
        written.add(new Written(start, end, "speaker " + c.nextInt(1 + c.size() / 4) + (c.chance(0.1) ? " ü" : ""), ms, endMs, text));
        at = end;
      }
      SegmentTable table = new SegmentTable();
      for (Written w : written) table.add(w.start(), w.end(), w.speaker(), w.startMs(), w.endMs(), w.text());
      byte[] bytes = written.isEmpty() ? new byte[0] : table.bytes();

      SegmentTable ranges = new SegmentTable(bytes);
      for (int i = 0; i < written.size(); i++) {
        assertTrue(ranges.next(), "segment " + i);
        assertEquals(i, ranges.index());
        assertEquals(written.get(i).start(), ranges.start(), "start of " + i);
        assertEquals(written.get(i).end(), ranges.end(), "end of " + i);
      }
      assertFalse(ranges.next(), "no segment after the last");

      SegmentTable details = new SegmentTable(bytes);
      for (int i = c.nextInt(Math.max(1, written.size())); i < written.size(); i += 1 + c.nextInt(1 + c.size() * 4)) {
        Written w = written.get(i);
        assertEquals(new SegmentTable.Detail(w.speaker(), w.startMs(), w.endMs(), w.text()), details.details(i), "details of " + i);
      }
    });
  }
}
