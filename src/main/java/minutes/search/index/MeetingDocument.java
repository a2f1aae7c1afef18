package minutes.search.index;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import minutes.keys.Visibility;
import minutes.search.text.Reading;
import minutes.search.text.SearchAnalyzer;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.facet.FacetsConfig;
import org.apache.lucene.facet.sortedset.SortedSetDocValuesFacetField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.util.BytesRef;

/**
 * One meeting as the index holds it, and the one place that defines, writes and reads each of
 * its fields, doc values and stored bytes (all bytes in Lucene's {@code DataOutput} encoding).
 * The short display values live in doc values ({@link Display}), so that answering never reads
 * the stored block of a 100 KB transcript; the minutes and the transcript are stored in chunks
 * ({@link #text}), with offsets in the postings so that snippets never re-analyse them; the
 * transcript's segments are stored beside them ({@link #segments}); facet values are doc values
 * ({@link #FACETS}). Immutable.
 */
public record MeetingDocument(String id, long workspaceId, List<String> viewers, String title, String platform,
    String startsAt, String createdAt, String sortAt, List<Participant> participants, String protocol,
    String transcript, byte[] segments, String language) {

  /**
   * Part of the index format ({@link IndexFormat}): raise whenever what a document holds or how
   * it is stored changes (this class, {@link StoredText}, {@link SegmentTable},
   * {@link DirectStoredFields}); what each raise brought: docs/SEARCH.md, "Index format".
   */
  public static final String LAYOUT = "23";

  /** The meeting id as a term (updates, deletes, changed meetings left out) and as sorted doc values (ties of date order). */
  public static final String ID = "id";
  /** The workspace id as a term (the filter every search has) and as doc values ({@link #INDEX_ORDER}). */
  public static final String WORKSPACE = "workspace";
  public static final String VIEWER = "viewer";
  /** Filters of GET /search: platform, participants' emails ({@link #participantTerm}) and domains. */
  public static final String PLATFORM = "platform";
  public static final String PARTICIPANT = "participant";
  public static final String PARTICIPANT_DOMAIN = "participant_domain";
  /**
   * The meeting's language subtag (decisions.md "Languages"): a term for the {@code language} filter,
   * doc values for the readings (which reading a hit is described and marked by, which meetings a
   * reading's clauses may match).
   */
  public static final String LANGUAGE = "language";
  /**
   * coalesce(starts_at, created_at) in epoch seconds: a point for the from/to filters and doc
   * values for sorting, under one name so that a date-ordered search skips, through the points,
   * the documents that cannot enter its page.
   */
  public static final String AT = "at";
  public static final String TITLE = "title";
  public static final String PROTOCOL = "protocol";
  public static final String TRANSCRIPT = "transcript";
  /** Doc values: the {@link Display} values. */
  public static final String DISPLAY = "meta";
  /** Stored: the {@link SegmentTable} of the transcript. */
  static final String SEGMENTS = "transcript.segments";
  /** Facet dimensions: platform, participant (lower-case email), month (UTC), participant domain, language. */
  public static final String FACET_PLATFORM = "platform", FACET_PARTICIPANT = "participant", FACET_MONTH = "month",
      FACET_DOMAIN = "domain", FACET_LANGUAGE = "language";

  /**
   * The order of documents in every segment: by workspace, so that a search, always within one
   * workspace, reads that workspace's postings as one run and skips the others' in whole blocks.
   * Lucene keeps documents of one workspace in the order they were added, so hits that tie on
   * rank and date keep the order they had before.
   */
  public static final Sort INDEX_ORDER = new Sort(new SortField(WORKSPACE, SortField.Type.LONG));

  /**
   * The facet module's configuration, for writing and counting alike. Risk: FacetsConfig is
   * @lucene.experimental; a change shows as other counts in SearchForClientsTest.
   */
  public static final FacetsConfig FACETS = new FacetsConfig();
  private static final DateTimeFormatter MONTH_OF = DateTimeFormatter.ofPattern("uuuu-MM").withZone(ZoneOffset.UTC);
  public static final FieldType TITLE_TYPE = new FieldType();
  public static final FieldType TEXT_TYPE = new FieldType();

  static {
    FACETS.setMultiValued(FACET_PARTICIPANT, true);
    FACETS.setMultiValued(FACET_DOMAIN, true);
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

  /** A participant's email (null without one) and its domain as the participant table holds it (lower case). */
  public record Participant(String email, String domain) {}

  /**
   * How a participant's email and the {@code participant} filter are compared: lower-cased as a
   * whole ({@link Locale#ROOT}), as participant and company domains are.
   */
  public static String participantTerm(String email) {
    return email.toLowerCase(Locale.ROOT);
  }

  /** Characters of text this meeting puts into the index (the "MB of text" of reindex). */
  long textChars() {
    return title.length() + protocol.length() + transcript.length();
  }

  public Document toDocument() throws IOException {
    Document d = new Document();
    d.add(new StringField(ID, id, Field.Store.NO));
    d.add(new SortedDocValuesField(ID, new BytesRef(id)));
    d.add(new StringField(WORKSPACE, Long.toString(workspaceId), Field.Store.NO));
    d.add(new NumericDocValuesField(WORKSPACE, workspaceId));
    for (String v : viewers) d.add(new StringField(VIEWER, Visibility.viewerKey(v), Field.Store.NO));
    d.add(new StringField(PLATFORM, platform, Field.Store.NO));
    d.add(new SortedSetDocValuesFacetField(FACET_PLATFORM, platform));
    d.add(new KeywordField(LANGUAGE, language, Field.Store.NO));
    d.add(new SortedSetDocValuesFacetField(FACET_LANGUAGE, language));
    for (Participant p : participants) {
      if (p.email() != null) {
        d.add(new StringField(PARTICIPANT, participantTerm(p.email()), Field.Store.NO));
        d.add(new SortedSetDocValuesFacetField(FACET_PARTICIPANT, participantTerm(p.email())));
      }
      if (p.domain() != null) {
        d.add(new StringField(PARTICIPANT_DOMAIN, p.domain(), Field.Store.NO));
        d.add(new SortedSetDocValuesField(PARTICIPANT_DOMAIN, new BytesRef(p.domain())));
        d.add(new SortedSetDocValuesFacetField(FACET_DOMAIN, p.domain()));
      }
    }
    SearchAnalyzer reading = SearchAnalyzer.of(language);
    d.add(text(TITLE, title, TITLE_TYPE, reading));
    // First of the stored fields: moments read it alone, and the snippets' readers pass it cheaply.
    if (!transcript.isEmpty()) d.add(new StoredField(SEGMENTS, segments));
    if (!protocol.isEmpty()) {
      d.add(text(PROTOCOL, protocol, TEXT_TYPE, reading));
      StoredText.store(d, PROTOCOL, protocol);
    }
    if (!transcript.isEmpty()) {
      d.add(text(TRANSCRIPT, transcript, TEXT_TYPE, reading));
      StoredText.store(d, TRANSCRIPT, transcript);
    }
    d.add(new BinaryDocValuesField(DISPLAY, new Display(id, title, platform, startsAt, createdAt).encode()));
    Instant at = Instant.parse(sortAt);
    d.add(new NumericDocValuesField(AT, at.getEpochSecond()));
    d.add(new LongPoint(AT, at.getEpochSecond()));
    d.add(new SortedSetDocValuesFacetField(FACET_MONTH, MONTH_OF.format(at)));
    return FACETS.build(d);
  }

  /**
   * A text field read with the meeting's language's analyzer rather than the index writer's (the
   * default reading, which English and und meetings get as before): the writer asks each field
   * for its tokens on its own thread, one field after another, so the analyzer's reused
   * components are never shared.
   */
  private static Field text(String name, String value, FieldType type, SearchAnalyzer reading) {
    if (reading.reading() == Reading.DEFAULT) return new Field(name, value, type);
    return new Field(name, value, type) {
      @Override
      public TokenStream tokenStream(Analyzer analyzer, TokenStream reuse) {
        return reading.tokenStream(name, value);
      }
    };
  }

  /** The display values of a hit, from doc values: each value as its UTF-8 length + 1 (0: null) and bytes. */
  public record Display(String id, String title, String platform, String startsAt, String createdAt) {
    BytesRef encode() throws IOException {
      ByteArrayData.Output out = new ByteArrayData.Output();
      for (String v : new String[] {id, title, platform, startsAt, createdAt}) {
        BytesRef utf8 = v == null ? null : new BytesRef(v);
        out.writeVInt(utf8 == null ? 0 : utf8.length + 1);
        if (utf8 != null) out.writeBytes(utf8.bytes, utf8.offset, utf8.length);
      }
      return new BytesRef(out.toArray());
    }

    public static Display decode(BytesRef b) throws IOException {
      ByteArrayData.Input in = new ByteArrayData.Input(b.bytes, b.offset, b.offset + b.length);
      String[] v = new String[5];
      for (int i = 0; i < v.length; i++) {
        int length = in.readVInt() - 1;
        if (length < 0) continue;
        v[i] = new String(b.bytes, in.position(), length, StandardCharsets.UTF_8);
        in.skipBytes(length);
      }
      return new Display(v[0], v[1], v[2], v[3], v[4]);
    }
  }

  /** The display values of a leaf's documents, read in increasing document order. Not thread-safe. */
  public static final class Displays {
    private final BinaryDocValues values;

    public Displays(LeafReader leaf) throws IOException {
      values = DocValues.getBinary(leaf, DISPLAY);
    }

    /** The display values of doc (leaf-local). */
    public Display of(int doc) throws IOException {
      if (!values.advanceExact(doc)) throw new IllegalStateException("a search document without display values");
      return Display.decode(values.binaryValue());
    }
  }

  /**
   * The texts of the character ranges [from, to) that {@code ranges} returns, as pairs, for the
   * length of the stored {@link #PROTOCOL} or {@link #TRANSCRIPT} of doc (leaf-local): one slice
   * per range, in the same order, each reading only the chunks its range covers.
   */
  public static StoredText.Slice[] text(StoredFields stored, int doc, String field, IntFunction<int[]> ranges) throws IOException {
    return StoredText.read(stored, doc, field, ranges);
  }

  /** The stored {@link SegmentTable} of doc (leaf-local); no segments for a meeting without transcript. */
  public static SegmentTable segments(StoredFields stored, int doc) throws IOException {
    byte[][] value = new byte[1][];
    // Risk: StoredFieldVisitor is @lucene.experimental (Lucene's one way to read part of a
    // document's stored fields); a change shows as wrong moments in SearchForClientsTest.
    stored.document(doc, new StoredFieldVisitor() {
      @Override
      public Status needsField(FieldInfo info) {
        if (value[0] != null) return Status.STOP;
        return info.name.equals(SEGMENTS) ? Status.YES : Status.NO;
      }

      @Override
      public void binaryField(FieldInfo info, byte[] bytes) {
        value[0] = bytes;
      }
    });
    return new SegmentTable(value[0] == null ? new byte[0] : value[0]);
  }
}
