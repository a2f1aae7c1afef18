package minutes.search.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import minutes.Property;
import minutes.StoreIndependent;
import minutes.search.index.MeetingDocument;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopFieldCollectorManager;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link IdOrder} against Lucene's own string sort, on the project's seeded {@link Property}
 * harness: over generated indexes of several segments (times that tie often, ids in any order,
 * some documents deleted, some without an id, matches that skip documents), every page of both
 * date orders is the same, in one pass and split over threads by segment (whose parts' pages
 * are merged by comparing the ids' values).
 */
@StoreIndependent
class IdOrderTest {
  private static final ExecutorService THREADS = Executors.newFixedThreadPool(3);

  @AfterAll
  static void stop() {
    THREADS.shutdownNow();
  }

  @Test
  void datePagesAreThoseOfLucenesStringSort() {
    Property.forAll("date pages by IdOrder are those of Lucene's string sort", 80, 20, IdOrderTest::samePages);
  }

  static void samePages(Property.Case c) throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
      IndexWriterConfig config = new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE);
      int docs = 0;
      try (IndexWriter w = new IndexWriter(dir, config)) {
        for (int segment = c.between(1, 4); segment > 0; segment--) {
          for (int i = c.between(0, 5 + 6 * c.size()); i > 0; i--, docs++) {
            Document d = new Document();
            if (!c.chance(0.05)) { // a document without id sorts first
              String id = String.format("%08x-%d", c.nextInt(1 << 20), docs); // unique, in no order
              d.add(new StringField(MeetingDocument.ID, id, Field.Store.NO));
              d.add(new SortedDocValuesField(MeetingDocument.ID, new BytesRef(id)));
            }
            long at = c.nextInt(1 + c.size() / 3); // ties often
            d.add(new NumericDocValuesField(MeetingDocument.AT, at)); // as MeetingDocument has it
            d.add(new LongPoint(MeetingDocument.AT, at));
            d.add(new StringField("match", c.chance(0.7) ? "yes" : "no", Field.Store.NO));
            w.addDocument(d);
          }
          if (c.chance(0.3)) w.deleteDocuments(new Term("match", "no"));
          w.commit();
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        IndexSearcher one = new IndexSearcher(reader);
        IndexSearcher split = new IndexSearcher(reader, THREADS) {
          @Override
          protected LeafSlice[] slices(List<LeafReaderContext> leaves) {
            return leaves.stream().map(l -> new LeafSlice(List.of(LeafReaderContextPartition.createForEntireSegment(l))))
                .toArray(LeafSlice[]::new);
          }
        };
        Query query = c.chance(0.5) ? new MatchAllDocsQuery() : new TermQuery(new Term("match", "yes"));
        int n = c.between(1, docs + 2);
        for (boolean newest : new boolean[] {false, true}) {
          SortField at = new SortField(MeetingDocument.AT, SortField.Type.LONG, newest);
          Sort lucene = new Sort(at, new SortField(MeetingDocument.ID, SortField.Type.STRING)), ours = new Sort(at, IdOrder.SORT);
          for (IndexSearcher s : List.of(one, split)) {
            // totalHitsThreshold n as in MeetingSearch.collector: the time's points skip what cannot compete.
            assertEquals(docs(s.search(query, new TopFieldCollectorManager(lucene, n, null, n)).scoreDocs),
                docs(s.search(query, new TopFieldCollectorManager(ours, n, null, n)).scoreDocs),
                (s == one ? "one pass" : "split") + (newest ? ", newest" : ", oldest") + " first, " + n + " of " + docs);
          }
        }
      }
    }
  }

  private static List<Integer> docs(ScoreDoc[] hits) {
    return new ArrayList<>(Arrays.stream(hits).map(h -> h.doc).toList());
  }
}
