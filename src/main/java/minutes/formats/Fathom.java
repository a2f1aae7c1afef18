package minutes.formats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import minutes.formats.ImportWriter.ActionItem;
import minutes.formats.ImportWriter.Meeting;
import minutes.formats.ImportWriter.Participant;
import minutes.formats.ImportWriter.Protocol;
import minutes.formats.ImportWriter.Segment;

/**
 * A Fathom meeting object, as its API ({@code GET /meetings} with transcript, summary and
 * action items) and its new-meeting-content-ready webhook send it, as one meeting
 * (decisions.md "Transcripts in and out"). A page of {@code GET /meetings} itself,
 * {@code {"items": [...], "next_cursor": ...}}, is read too, so that it can be saved and
 * imported as it came. Stateless.
 */
final class Fathom {
  private Fathom() {}

  /** The meeting objects of one JSON object: itself, or the items of a page of the API's list. */
  static List<JsonObject> meetings(JsonObject o) {
    return o.has("items") && !o.has("recording_id") && !o.has("url") ? o.objects("items") : List.of(o);
  }

  static Meeting meeting(JsonObject m, ImportOptions o) {
    String key = m.textOrNumber("recording_id");
    if (key == null) key = m.text("url");
    if (key == null) {
      throw m.error(null, "expected a Fathom meeting with recording_id or url, found neither"
          + (m.has("sentences") ? " (a Fireflies transcript? use --format fireflies)" : ""));
    }
    String title = m.text("title") != null ? m.text("title") : m.text("meeting_title");
    if (title == null) throw m.error("title", "expected title or meeting_title, found neither");
    Instant starts = m.dateTime("recording_start_time");
    if (starts == null) starts = m.dateTime("scheduled_start_time");
    Instant created = m.dateTime("created_at");
    if (created == null) created = o.now();
    String id = NameBasedIds.of(o.workspace(), "fathom", key);
    List<Segment> transcript = transcript(m);
    return ConvertedMeetings.line(o, id, title, starts, m.dateTime("recording_end_time"), null, created,
        invitees(m, transcript), protocols(m, id, created), transcript, m.language("transcript_language"));
  }

  /** In time order; a segment ends where the next one begins, the last has no end. */
  private static List<Segment> transcript(JsonObject m) {
    List<Segment> said = new ArrayList<>();
    for (JsonObject s : m.objects("transcript")) {
      JsonObject speaker = s.object("speaker");
      String name = speaker == null ? null : speaker.text("display_name");
      String email = speaker == null ? null : speaker.email("matched_calendar_invitee_email");
      String timestamp = s.requiredText("timestamp", "the time said as HH:MM:SS");
      long start = Timestamps.parse(timestamp + ".000", false);
      if (start < 0) throw s.error("timestamp", "expected the time said as HH:MM:SS, found " + FormatError.quote(timestamp));
      if (!s.node().path("text").isTextual()) throw s.error("text", "expected the text said, a string");
      said.add(new Segment(name == null ? ConvertedMeetings.UNKNOWN_SPEAKER : name.strip(), email, start, null,
          s.node().get("text").asText()));
    }
    said.sort(Comparator.comparingLong(Segment::startMs));
    for (int i = 0; i + 1 < said.size(); i++) {
      Segment s = said.get(i);
      said.set(i, new Segment(s.speakerName(), s.speakerEmail(), s.startMs(), said.get(i + 1).startMs(), s.text()));
    }
    return said;
  }

  /**
   * {@code calendar_invitees} as participants of source calendar; an invitee attended when Fathom
   * matched them to a speaker, or when {@link ConvertedMeetings#line} finds them among the speakers.
   */
  private static List<Participant> invitees(JsonObject m, List<Segment> transcript) {
    List<Participant> out = new ArrayList<>();
    for (JsonObject i : m.objects("calendar_invitees")) {
      String name = i.text("name"), email = i.email("email");
      if (name == null && email == null) throw i.error(null, "expected an invitee with a name or an email, found neither");
      boolean attended = transcript.isEmpty() || i.text("matched_speaker_display_name") != null;
      out.add(new Participant(name != null ? name.strip() : email, email, "calendar", attended, null, null));
    }
    return out;
  }

  /** The default summary as the minutes, with the action items as its tasks; none when there is neither. */
  private static List<Protocol> protocols(JsonObject m, String meetingId, Instant created) {
    JsonObject summary = m.object("default_summary");
    String markdown = summary == null ? null : summary.text("markdown_formatted");
    List<ActionItem> tasks = new ArrayList<>();
    for (JsonObject a : m.objects("action_items")) {
      String task = a.requiredText("description", "the task as a string");
      JsonObject assignee = a.object("assignee");
      tasks.add(new ActionItem(NameBasedIds.of(meetingId, "task", Integer.toString(tasks.size())), task.strip(),
          assignee == null ? null : assignee.text("name"), null, "open", a.bool("completed") ? "done" : "open"));
    }
    if (markdown == null && tasks.isEmpty()) return List.of();
    return List.of(new Protocol(NameBasedIds.of(meetingId, "protocol"), null, markdown == null ? "" : markdown, created,
        null, tasks));
  }
}
