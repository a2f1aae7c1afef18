package minutes.search.query;

import java.io.IOException;
import java.io.UncheckedIOException;
import minutes.search.index.MeetingDocument;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.FieldComparator;
import org.apache.lucene.search.FieldComparatorSource;
import org.apache.lucene.search.LeafFieldComparator;
import org.apache.lucene.search.Pruning;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.SortField;
import org.apache.lucene.util.BytesRef;

/**
 * Meeting ids ascending, the tie-breaker of the date orders: the order of
 * {@code SortField(ID, Type.STRING)}, with the id's bytes read only where two ids of different
 * segments meet. Lucene's comparator for it copies each competitive hit's id out of the
 * segment's terms dictionary, a block decoded for every one of them: 8 % of a
 * {@code -starts_at} search at 20,000 meetings (most of it filling the page's first 50 slots),
 * and 3 % more to find each new bottom's id in the segment, though the id only decides between
 * hits at the same second. Here a hit is its segment's ord, and ords of one segment are in the
 * ids' order; so the ids' bytes are read only to compare hits of two segments that tie on the
 * time (and for the merge of a split search's parts), never to collect. A meeting's one
 * document has an id; one without would sort first, as Lucene's sorts it.
 *
 * <p>Risk: FieldComparatorSource, FieldComparator and LeafFieldComparator are
 * {@code @lucene.experimental} (Lucene's way to sort by a custom comparator, unchanged through
 * 9 and 10); a change fails to compile or shows as a date order out of order in
 * SearchForClientsPropertyTest and SearchForClientsTest, or in IdOrderTest against Lucene's own
 * string sort.
 */
final class IdOrder extends FieldComparatorSource {
  /** The tie-breaker of the date orders. */
  static final SortField SORT = new SortField(MeetingDocument.ID, new IdOrder());

  private IdOrder() {}

  @Override
  public FieldComparator<Id> newComparator(String field, int numHits, Pruning pruning, boolean reversed) {
    if (reversed) throw new IllegalArgumentException("ids sort ascending only");
    return new Comparator(field, numHits);
  }

  /**
   * A meeting id as its segment's ord (a segment's ords follow its ids' order); its bytes read
   * only when compared with another segment's. Not thread-safe (as its doc values).
   */
  static final class Id implements Comparable<Id> {
    private final SortedDocValues segment;
    private final int ord;
    private BytesRef bytes;

    Id(SortedDocValues segment, int ord) {
      this.segment = segment;
      this.ord = ord;
    }

    BytesRef bytes() {
      if (bytes == null) {
        try {
          bytes = BytesRef.deepCopyOf(segment.lookupOrd(ord));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return bytes;
    }

    @Override
    public int compareTo(Id other) {
      return segment == other.segment ? Integer.compare(ord, other.ord) : bytes().compareTo(other.bytes());
    }

    @Override
    public String toString() {
      return bytes().utf8ToString();
    }
  }

  /** The page's slots as (segment, ord); -1: no id. */
  private static final class Comparator extends FieldComparator<Id> {
    private final String field;
    private final SortedDocValues[] segments;
    private final int[] ords;
    /** The page's last slot once the page is full: Lucene sets it once, not again for each segment. */
    private int bottom = -1;

    Comparator(String field, int slots) {
      this.field = field;
      segments = new SortedDocValues[slots];
      ords = new int[slots];
    }

    @Override
    public int compare(int a, int b) {
      return segments[a] == segments[b] ? Integer.compare(ords[a], ords[b]) : compareValues(value(a), value(b));
    }

    @Override
    public Id value(int slot) {
      return ords[slot] < 0 ? null : new Id(segments[slot], ords[slot]);
    }

    @Override
    public void setTopValue(Id value) {
      throw new UnsupportedOperationException("date orders page by offset, never after a hit");
    }

    @Override
    public LeafFieldComparator getLeafComparator(LeafReaderContext context) throws IOException {
      SortedDocValues segment = DocValues.getSorted(context.reader(), field);
      return new LeafFieldComparator() {
        /** The bottom's id, for comparing with this segment's where the bottom is another's. */
        private Id bottomId;
        private int doc = -1, ord = -1;

        /** The ord of doc, each document asked for once or more, in increasing order. */
        private int ord(int doc) throws IOException {
          if (doc != this.doc) {
            this.doc = doc;
            ord = segment.advanceExact(doc) ? segment.ordValue() : -1;
          }
          return ord;
        }

        @Override
        public void setBottom(int slot) {
          bottom = slot;
          bottomId = null;
        }

        @Override
        public int compareBottom(int doc) throws IOException {
          int ord = ord(doc);
          if (segments[bottom] == segment) return Integer.compare(ords[bottom], ord);
          if (bottomId == null && ords[bottom] >= 0) bottomId = value(bottom);
          return compareValues(bottomId, ord < 0 ? null : new Id(segment, ord));
        }

        @Override
        public int compareTop(int doc) {
          throw new UnsupportedOperationException("date orders page by offset, never after a hit");
        }

        @Override
        public void copy(int slot, int doc) throws IOException {
          ords[slot] = ord(doc);
          segments[slot] = segment;
        }

        @Override
        public void setScorer(Scorable scorer) {}
      };
    }
  }
}
