package minutes.search.index;

import java.util.ArrayList;
import java.util.List;
import minutes.Property;
import minutes.StoreIndependent;
import minutes.search.text.SearchAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stored text is kept uncompressed, so a snippet reads only the chunk it shows: this pins the
 * @lucene.experimental stored fields API that {@link MinutesCodec} builds on. Several ranges
 * read in one visit ({@link Snippets#read}, as a hit's moments are) each hold exactly the text's
 * characters, decoded in part or whole, against {@link String#substring} on generated texts and
 * ranges.
 */
@StoreIndependent
class MinutesCodecTest {
  @Test
  void storedTextIsUncompressedAndAChunkReadsBackExactly() throws Exception {
    String text = "we talked about the budget again. ".repeat(6_000); // 204 KB that compresses well
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new SearchAnalyzer()).setCodec(new MinutesCodec())
          .setUseCompoundFile(false))) {
        Document d = new Document();
        StoredText.store(d, MeetingDocument.TRANSCRIPT, text);
        w.addDocument(d);
      }
      long stored = 0;
      for (String file : dir.listAll()) if (file.endsWith("." + DirectStoredFields.DATA_EXTENSION)) stored += dir.fileLength(file);
      assertTrue(stored >= text.length(), "stored fields hold the text uncompressed: " + stored + " bytes");
      try (DirectoryReader r = DirectoryReader.open(dir)) {
        int from = 100_000, to = 100_240;
        StoredText.Slice slice = StoredText.read(r.leaves().get(0).reader().storedFields(), 0, MeetingDocument.TRANSCRIPT,
            length -> new int[] {from, to})[0];
        assertEquals(text.length(), slice.length());
        assertEquals(from, slice.base(), "a slice holds exactly the range asked for");
        assertEquals(text.substring(from, to), slice.text());
      }
    }
  }

  @Test
  void rangesReadInOneVisitHoldWhatTheTextHolds() throws Exception {
    Property.forAll("StoredText.read of several ranges against substring", 150, 40, c -> {
      List<String> texts = new ArrayList<>();
      for (int n = c.between(1, 4); n > 0; n--) texts.add(text(c));
      try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
        try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new SearchAnalyzer()).setCodec(new MinutesCodec()))) {
          for (String text : texts) {
            Document d = new Document();
            StoredText.store(d, MeetingDocument.PROTOCOL, text(c)); // another field's chunks to skip first
            if (!text.isEmpty() || c.chance(0.5)) StoredText.store(d, MeetingDocument.TRANSCRIPT, text);
            w.addDocument(d);
          }
        }
        try (DirectoryReader r = DirectoryReader.open(dir)) {
          for (int doc = 0; doc < texts.size(); doc++) {
            String text = texts.get(doc);
            int[] ranges = new int[2 * c.between(1, 5)]; // overlapping, out of order, empty, at either end
            for (int k = 0; k < ranges.length; k += 2) {
              int from = c.chance(0.1) ? text.length() : c.nextInt(text.length() + 1);
              int to = c.chance(0.2) ? from : Math.min(text.length(), from + c.nextInt(3 * StoredText.CHUNK));
              ranges[k] = from;
              ranges[k + 1] = to;
            }
            int[] seenLength = {-1};
            StoredText.Slice[] slices = StoredText.read(r.leaves().get(0).reader().storedFields(), doc,
                MeetingDocument.TRANSCRIPT, length -> {
                  seenLength[0] = length;
                  return ranges;
                });
            assertEquals(text.length(), seenLength[0], "the length handed to ranges");
            assertEquals(ranges.length / 2, slices.length);
            for (int k = 0; k < ranges.length; k += 2) {
              StoredText.Slice s = slices[k / 2];
              int from = ranges[k], to = ranges[k + 1];
              assertEquals(text.length(), s.length());
              assertEquals(from, s.base());
              assertEquals(text.substring(from, to), s.text());
            }
          }
        }
      }
    });
  }

  /**
   * Text of up to a few chunks: ASCII (read in part), or with accents and two-char characters,
   * also where a chunk would otherwise end (read whole).
   */
  private static String text(Property.Case c) {
    StringBuilder b = new StringBuilder();
    double other = c.chance(0.5) ? 0 : 0.05;
    int length = c.chance(0.2) ? 0 : c.nextInt(1 + c.size() * StoredText.CHUNK / 8);
    while (b.length() < length) {
      b.append(c.chance(other) ? "\uD83D\uDE00" : c.chance(other) ? "é" : String.valueOf((char) ('a' + c.nextInt(26))));
      if (c.chance(0.15)) b.append(' ');
    }
    return b.toString();
  }
}
