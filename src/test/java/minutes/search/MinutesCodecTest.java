package minutes.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

/**
 * Stored text is kept uncompressed, so a snippet reads only the chunk it shows: this pins the
 * @lucene.experimental stored fields API that {@link MinutesCodec} builds on.
 */
class MinutesCodecTest {
  @Test
  void storedTextIsUncompressedAndAChunkReadsBackExactly() throws Exception {
    String text = "we talked about the budget again. ".repeat(6_000); // 204 KB that compresses well
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new SearchAnalyzer()).setCodec(new MinutesCodec())
          .setUseCompoundFile(false))) {
        Document d = new Document();
        Snippets.store(d, IndexedMeeting.TRANSCRIPT, text);
        w.addDocument(d);
      }
      long stored = 0;
      for (String file : dir.listAll()) if (file.endsWith("." + DirectStoredFields.DATA_EXTENSION)) stored += dir.fileLength(file);
      assertTrue(stored >= text.length(), "stored fields hold the text uncompressed: " + stored + " bytes");
      try (DirectoryReader r = DirectoryReader.open(dir)) {
        int from = 100_000, to = 100_240;
        Snippets.Slice slice = Snippets.read(r.leaves().get(0).reader().storedFields(), 0, IndexedMeeting.TRANSCRIPT,
            length -> new int[] {from, to});
        assertEquals(text.length(), slice.length());
        assertTrue(slice.text().length() <= 2 * Snippets.CHUNK, "only the chunks asked for: " + slice.text().length());
        assertEquals(text.substring(from, to), slice.text().substring(from - slice.base(), to - slice.base()));
      }
    }
  }
}
