package minutes.formats;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import minutes.json.Jackson;
import minutes.store.Times;

/**
 * The lines of the import format (decisions.md, "Import format") as records, and their writer:
 * one record at a time, so that the generators and the format converters stream any number of
 * meetings. Nulls are written (the import reads them as absent). Counts what it wrote. Not
 * thread-safe.
 */
public final class ImportWriter {

  public record Workspace(String slug, String name, List<String> domains) {}

  public record User(String workspace, String email, String name) {}

  public record Company(String workspace, String id, String name, List<String> domains) {}

  public record Meeting(
      String workspace,
      String id,
      String title,
      String platform,
      String source,
      String status,
      Instant startsAt,
      Instant endsAt,
      String joinUrl,
      String organizerEmail,
      Instant createdAt,
      String templateId,
      List<String> visibleTo,
      List<Participant> participants,
      List<Protocol> protocols,
      List<Segment> transcript,
      String language) {}

  public record Participant(
      String displayName,
      String email,
      String source,
      boolean attended,
      Instant approxJoinedAt,
      Instant approxLeftAt) {}

  public record Protocol(
      String id,
      String tldr,
      String contentMd,
      Instant generatedAt,
      Instant editedAt,
      List<ActionItem> actionItems) {}

  public record ActionItem(
      String id, String task, String ownerName, LocalDate due, String verdict, String status) {}

  public record Segment(
      String speakerName, String speakerEmail, long startMs, Long endMs, String text) {}

  /** What a run wrote: meetings and action items (over all protocols). */
  public record Counts(long meetings, long tasks) {}

  private final JsonGenerator json;
  private long meetings;
  private long tasks;

  public ImportWriter(Writer out) throws IOException {
    this(Jackson.MAPPER.createGenerator(out));
  }

  /** Writes UTF-8 to {@code out}. */
  public ImportWriter(OutputStream out) throws IOException {
    this(Jackson.MAPPER.createGenerator(out, JsonEncoding.UTF8));
  }

  private ImportWriter(JsonGenerator json) {
    this.json = json;
    // The caller owns the output (it may be stdout).
    json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    json.setRootValueSeparator(null);
  }

  public Counts counts() {
    return new Counts(meetings, tasks);
  }

  /** Pushes buffered output to the underlying writer (without closing it). */
  public void flush() throws IOException {
    json.flush();
  }

  public void write(Workspace w) throws IOException {
    begin("workspace");
    json.writeStringField("slug", w.slug());
    json.writeStringField("name", w.name());
    strings("domains", w.domains());
    end();
  }

  public void write(User u) throws IOException {
    begin("user");
    json.writeStringField("workspace", u.workspace());
    json.writeStringField("email", u.email());
    json.writeStringField("name", u.name());
    end();
  }

  public void write(Company c) throws IOException {
    begin("company");
    json.writeStringField("workspace", c.workspace());
    json.writeStringField("id", c.id());
    json.writeStringField("name", c.name());
    strings("domains", c.domains());
    end();
  }

  public void write(Meeting m) throws IOException {
    begin("meeting");
    json.writeStringField("workspace", m.workspace());
    json.writeStringField("id", m.id());
    json.writeStringField("title", m.title());
    json.writeStringField("platform", m.platform());
    json.writeStringField("source", m.source());
    json.writeStringField("status", m.status());
    time("starts_at", m.startsAt());
    time("ends_at", m.endsAt());
    json.writeStringField("join_url", m.joinUrl());
    json.writeStringField("organizer_email", m.organizerEmail());
    time("created_at", m.createdAt());
    json.writeStringField("template_id", m.templateId());
    strings("visible_to", m.visibleTo());
    // Only when known: a meeting without one is detected at import, and the generators' lines stay as they were.
    if (m.language() != null) json.writeStringField("language", m.language());
    json.writeArrayFieldStart("participants");
    for (Participant p : m.participants()) {
      json.writeStartObject();
      json.writeStringField("display_name", p.displayName());
      json.writeStringField("email", p.email());
      json.writeStringField("source", p.source());
      json.writeBooleanField("attended", p.attended());
      time("approx_joined_at", p.approxJoinedAt());
      time("approx_left_at", p.approxLeftAt());
      json.writeEndObject();
    }
    json.writeEndArray();
    json.writeArrayFieldStart("protocols");
    for (Protocol p : m.protocols()) {
      json.writeStartObject();
      json.writeStringField("id", p.id());
      json.writeStringField("tldr", p.tldr());
      json.writeStringField("content_md", p.contentMd());
      time("generated_at", p.generatedAt());
      time("edited_at", p.editedAt());
      json.writeArrayFieldStart("action_items");
      for (ActionItem a : p.actionItems()) {
        json.writeStartObject();
        json.writeStringField("id", a.id());
        json.writeStringField("task", a.task());
        json.writeStringField("owner_name", a.ownerName());
        json.writeStringField("due", a.due() == null ? null : a.due().toString());
        json.writeStringField("verdict", a.verdict());
        json.writeStringField("status", a.status());
        json.writeEndObject();
      }
      json.writeEndArray();
      json.writeEndObject();
      tasks += p.actionItems().size();
    }
    json.writeEndArray();
    json.writeArrayFieldStart("transcript");
    for (Segment s : m.transcript()) {
      json.writeStartObject();
      json.writeStringField("speaker_name", s.speakerName());
      json.writeStringField("speaker_email", s.speakerEmail());
      json.writeNumberField("start_ms", s.startMs());
      json.writePOJOField("end_ms", s.endMs());
      json.writeStringField("text", s.text());
      json.writeEndObject();
    }
    json.writeEndArray();
    end();
    meetings++;
  }

  private void begin(String kind) throws IOException {
    json.writeStartObject();
    json.writeStringField("kind", kind);
  }

  private void end() throws IOException {
    json.writeEndObject();
    json.writeRaw('\n');
  }

  private void strings(String field, List<String> values) throws IOException {
    json.writeFieldName(field);
    json.writeArray(values.toArray(String[]::new), 0, values.size());
  }

  // The stored form (whole seconds, UTC), as import and the API write it.
  private void time(String field, Instant t) throws IOException {
    json.writeStringField(field, t == null ? null : Times.format(t));
  }
}
