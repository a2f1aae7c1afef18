package minutes.search;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import minutes.keys.Visibility;
import minutes.store.TranscriptSegments;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.util.BytesRef;

/**
 * One meeting as the index holds it: read from the database, turned into one Lucene document.
 * The short display values live in doc values, so that answering never decompresses the
 * stored block that holds a 100 KB transcript; only the two long texts are stored (for
 * snippets, in chunks: {@link Snippets#store}), with offsets in the postings so that snippets
 * never re-analyse them, and the transcript's segment ranges ({@link Moments.SegmentTable}, in
 * {@code segments}) for the moments of hits; facet values as doc values ({@link Facets}).
 */
record IndexedMeeting(String id, long workspaceId, List<String> viewers, String title, String platform,
    String startsAt, String createdAt, String sortAt, List<Participant> participants, String protocol,
    String transcript, byte[] segments) {

  /**
   * Part of the {@link IndexFormat}: raise whenever what a document holds or how it is stored
   * changes (these fields, {@link #INDEX_ORDER}, {@link Snippets#store}, {@link DirectStoredFields});
   * what each raise brought: docs/SEARCH.md "Index format".
   */
  static final String LAYOUT = "19";

  /** The meeting id as a term (updates, deletes, changed meetings left out) and as sorted doc values (ties of date order). */
  static final String ID = "id";
  /** The workspace id as a term (the filter every search has) and as doc values ({@link #INDEX_ORDER}). */
  static final String WORKSPACE = "workspace";
  static final String VIEWER = "viewer";
  /** Filters of GET /search: platform, participants' emails (folded) and domains. */
  static final String PLATFORM = "platform";
  static final String PARTICIPANT = "participant";
  static final String PARTICIPANT_DOMAIN = "participant_domain";
  /**
   * coalesce(starts_at, created_at) in epoch seconds: a point for the from/to filters and doc
   * values for sorting, under one name so that a date-ordered search skips, through the points,
   * the documents that cannot enter its page.
   */
  static final String AT = "at";
  static final String TITLE = "title";
  static final String PROTOCOL = "protocol";
  static final String TRANSCRIPT = "transcript";
  /** Doc values: meeting id, title, platform, starts_at, created_at packed into one value. */
  static final String META = "meta";

  /**
   * The order of documents in every segment: by workspace, so that a search, always within one
   * workspace, reads that workspace's postings as one run and skips the others' in whole blocks
   * (the more workspaces a node holds, the more it skips; figures: docs/BENCHMARKS.md).
   * Lucene keeps documents of one workspace in the order they were added, so hits that tie on
   * rank and date keep the order they had before.
   */
  static final Sort INDEX_ORDER = new Sort(new SortField(WORKSPACE, SortField.Type.LONG));

  static final FieldType TITLE_TYPE = new FieldType();
  static final FieldType TEXT_TYPE = new FieldType();

  static {
    // Titles are constant-scored (rank 0.35) and highlighted by re-analysis: no norms, no offsets.
    // Risk: IndexOptions is @lucene.experimental (in practice stable since 4.0); a change fails to compile.
    TITLE_TYPE.setTokenized(true);
    TITLE_TYPE.setOmitNorms(true);
    TITLE_TYPE.setIndexOptions(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS);
    TITLE_TYPE.freeze();
    TEXT_TYPE.setTokenized(true);
    TEXT_TYPE.setIndexOptions(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS);
    TEXT_TYPE.freeze();
  }

  /** Characters of text this meeting puts into the index (the "MB of text" of reindex). */
  long textChars() {
    return title.length() + protocol.length() + transcript.length();
  }

  Document toDocument() {
    Document d = new Document();
    d.add(new StringField(ID, id, Field.Store.NO));
    d.add(new SortedDocValuesField(ID, new BytesRef(id)));
    d.add(new StringField(WORKSPACE, Long.toString(workspaceId), Field.Store.NO));
    d.add(new NumericDocValuesField(WORKSPACE, workspaceId));
    for (String v : viewers) d.add(new StringField(VIEWER, Visibility.viewerKey(v), Field.Store.NO));
    d.add(new StringField(PLATFORM, platform, Field.Store.NO));
    for (Participant p : participants) {
      if (p.email() != null) d.add(new StringField(PARTICIPANT, SearchFilters.participantTerm(p.email()), Field.Store.NO));
      if (p.domain() != null) d.add(new StringField(PARTICIPANT_DOMAIN, p.domain(), Field.Store.NO));
    }
    d.add(new Field(TITLE, title, TITLE_TYPE));
    // First of the stored fields: moments read it alone, and the snippets' readers pass it cheaply.
    if (!transcript.isEmpty()) d.add(new StoredField(Moments.SEGMENTS, segments));
    if (!protocol.isEmpty()) {
      d.add(new Field(PROTOCOL, protocol, TEXT_TYPE));
      Snippets.store(d, PROTOCOL, protocol);
    }
    if (!transcript.isEmpty()) {
      d.add(new Field(TRANSCRIPT, transcript, TEXT_TYPE));
      Snippets.store(d, TRANSCRIPT, transcript);
    }
    d.add(new BinaryDocValuesField(META, Meta.encode(new Meta(id, title, platform, startsAt, createdAt))));
    Instant at = Instant.parse(sortAt);
    d.add(new NumericDocValuesField(AT, at.getEpochSecond()));
    d.add(new LongPoint(AT, at.getEpochSecond()));
    Facets.add(d, platform, participants, at);
    return Facets.build(d);
  }

  /** A participant's email (null without one) and its domain as the participant table holds it (lower case). */
  record Participant(String email, String domain) {}

  /** The display values of a hit, read back from doc values: each value as its UTF-8 length (-1: null) and bytes. */
  record Meta(String id, String title, String platform, String startsAt, String createdAt) {
    static BytesRef encode(Meta m) {
      byte[][] values = new byte[5][];
      int size = 0;
      String[] strings = {m.id, m.title, m.platform, m.startsAt, m.createdAt};
      for (int i = 0; i < values.length; i++) {
        values[i] = strings[i] == null ? null : strings[i].getBytes(StandardCharsets.UTF_8);
        size += Integer.BYTES + (values[i] == null ? 0 : values[i].length);
      }
      ByteBuffer out = ByteBuffer.allocate(size);
      for (byte[] v : values) {
        out.putInt(v == null ? -1 : v.length);
        if (v != null) out.put(v);
      }
      return new BytesRef(out.array());
    }

    static Meta decode(BytesRef b) {
      ByteBuffer in = ByteBuffer.wrap(b.bytes, b.offset, b.length);
      String[] v = new String[5];
      for (int i = 0; i < v.length; i++) {
        int length = in.getInt();
        if (length < 0) continue;
        v[i] = new String(b.bytes, in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
      }
      return new Meta(v[0], v[1], v[2], v[3], v[4]);
    }
  }

  /** Reads meetings by id from one connection; null for a meeting that no longer exists. Not thread-safe. */
  static final class Reader implements AutoCloseable {
    private final PreparedStatement meeting, viewers, participants, protocol, transcript;

    Reader(Connection c) throws SQLException {
      meeting = c.prepareStatement(
          "SELECT workspace_id, title, platform, starts_at, created_at, sort_at FROM meeting WHERE id = ?");
      viewers = c.prepareStatement("SELECT email FROM meeting_viewer WHERE meeting_id = ?");
      participants = c.prepareStatement("SELECT email, domain FROM participant WHERE meeting_id = ?");
      protocol = c.prepareStatement(
          "SELECT tldr, content_md FROM protocol WHERE meeting_id = ? AND is_current = 1 LIMIT 1");
      transcript = c.prepareStatement(
          "SELECT text, speaker_name, start_ms, end_ms FROM transcript_segment WHERE meeting_id = ? ORDER BY idx");
    }

    IndexedMeeting read(String id) throws SQLException {
      long workspaceId;
      String title, platform, startsAt, createdAt, sortAt;
      meeting.setString(1, id);
      try (ResultSet rs = meeting.executeQuery()) {
        if (!rs.next()) return null;
        workspaceId = rs.getLong(1);
        title = rs.getString(2);
        platform = rs.getString(3);
        startsAt = rs.getString(4);
        createdAt = rs.getString(5);
        sortAt = rs.getString(6);
      }
      List<String> emails = new ArrayList<>();
      viewers.setString(1, id);
      try (ResultSet rs = viewers.executeQuery()) {
        while (rs.next()) emails.add(rs.getString(1));
      }
      List<Participant> people = new ArrayList<>();
      participants.setString(1, id);
      try (ResultSet rs = participants.executeQuery()) {
        while (rs.next()) people.add(new Participant(rs.getString(1), rs.getString(2)));
      }
      StringBuilder minutes = new StringBuilder();
      protocol.setString(1, id);
      try (ResultSet rs = protocol.executeQuery()) {
        if (rs.next()) {
          String tldr = rs.getString(1);
          if (tldr != null) MarkdownText.appendCollapsed(minutes, MarkdownText.plain(tldr));
          MarkdownText.appendCollapsed(minutes, MarkdownText.plain(rs.getString(2)));
        }
      }
      StringBuilder spoken = new StringBuilder();
      Moments.SegmentTable segments = new Moments.SegmentTable();
      transcript.setString(1, id);
      try (ResultSet rs = transcript.executeQuery()) {
        while (rs.next()) {
          int before = spoken.length();
          String text = rs.getString(1);
          MarkdownText.appendCollapsed(spoken, text);
          // The segment's own text follows the space that separates it from text before it.
          int start = spoken.length() > before && before > 0 ? before + 1 : before;
          boolean verbatim = spoken.length() - start == text.length() && spoken.indexOf(text, start) == start;
          segments.add(start, spoken.length(), rs.getString(2), rs.getLong(3),
              TranscriptSegments.endMs(rs.getObject(4)), verbatim ? null : text);
        }
      }
      return new IndexedMeeting(id, workspaceId, emails, title, platform, startsAt, createdAt, sortAt, people,
          minutes.toString(), spoken.toString(), segments.bytes());
    }

    @Override
    public void close() throws SQLException {
      for (PreparedStatement s : List.of(meeting, viewers, participants, protocol, transcript)) s.close();
    }
  }
}
