package minutes.search.index;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ways a generation's recorded format differs from this code's ({@link IndexFormat}), made
 * on a built generation: what an upgrade of Lucene or of minutes, or a crash, leaves behind.
 * Each must be rebuilt, never opened.
 */
public enum OtherFormat {
  /** Written by another Lucene version (its codecs may not read this one's files, nor this one its). */
  OTHER_LUCENE_VERSION,
  /**
   * Written with a codec this Lucene cannot look up, as an upgrade that retires a codec leaves
   * it: segments and format both name it, so that Lucene fails if it reads the commit at all.
   */
  UNKNOWN_CODEC,
  /** Documents laid out by another version of minutes. */
  OTHER_LAYOUT,
  /** Texts analysed by another version of minutes. */
  OTHER_ANALYSIS,
  /** No format recorded (written by a version before the format file). */
  FORMAT_FILE_MISSING,
  /** The format file cut short. */
  FORMAT_FILE_GARBLED;

  private static final String UNKNOWN = "Retired";

  /**
   * Why the server rebuilds a generation of this format, as /healthz says it after "search index:
   * being rebuilt, since " and search's 503 after "the search index is being rebuilt, since ".
   */
  public String differs() {
    return switch (this) {
      case OTHER_LUCENE_VERSION -> "it was written by another version of Lucene";
      case UNKNOWN_CODEC -> "it was written with a codec this version of Lucene does not know";
      case OTHER_LAYOUT -> "its documents were laid out by another version of minutes";
      case OTHER_ANALYSIS -> "its texts were analysed by another version of minutes";
      case FORMAT_FILE_MISSING -> "it records no index format";
      case FORMAT_FILE_GARBLED -> "its index format record is incomplete";
    };
  }

  /** Makes the generation in {@code generation} one of this other format. */
  public void applyTo(Path generation) throws IOException {
    IndexFormat now = IndexFormat.CURRENT;
    Path file = generation.resolve(IndexFormat.FILE);
    switch (this) {
      case OTHER_LUCENE_VERSION -> new IndexFormat(now.layout(), now.analysis(), now.codec(), "9.12.0").writeTo(generation);
      case UNKNOWN_CODEC -> {
        rewriteWithUnknownCodec(generation);
        new IndexFormat(now.layout(), now.analysis(), UNKNOWN, now.lucene()).writeTo(generation);
      }
      case OTHER_LAYOUT -> new IndexFormat("13", now.analysis(), now.codec(), now.lucene()).writeTo(generation);
      case OTHER_ANALYSIS -> new IndexFormat(now.layout(), "0", now.codec(), now.lucene()).writeTo(generation);
      case FORMAT_FILE_MISSING -> Files.delete(file);
      case FORMAT_FILE_GARBLED -> Files.writeString(file, Files.readString(file, StandardCharsets.UTF_8).substring(0, 12));
    }
  }

  /**
   * Replaces the generation's index by one whose only segment names a codec that SPI does not
   * know, keeping its seq; pins that Lucene then fails to open it (a lookup error, not damage).
   */
  private static void rewriteWithUnknownCodec(Path generation) throws IOException {
    try (FSDirectory dir = FSDirectory.open(generation)) {
      Map<String, String> data = DirectoryReader.listCommits(dir).getLast().getUserData();
      FilterCodec retired = new FilterCodec(UNKNOWN, new MinutesCodec()) {};
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig().setCodec(retired)
          .setOpenMode(IndexWriterConfig.OpenMode.CREATE))) {
        Document d = new Document();
        d.add(new StringField(MeetingDocument.ID, "written-by-a-retired-codec", Field.Store.NO));
        w.addDocument(d);
        w.setLiveCommitData(data.entrySet());
        w.commit();
      }
      IllegalArgumentException lookup = assertThrows(IllegalArgumentException.class, () -> DirectoryReader.open(dir).close());
      assertTrue(lookup.getMessage().contains(UNKNOWN), "not the codec lookup: " + lookup);
    }
  }
}
