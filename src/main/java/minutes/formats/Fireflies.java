package minutes.formats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.formats.ImportWriter.ActionItem;
import minutes.formats.ImportWriter.Meeting;
import minutes.formats.ImportWriter.Participant;
import minutes.formats.ImportWriter.Protocol;
import minutes.formats.ImportWriter.Segment;
import minutes.store.Emails;
import minutes.store.Times;

/**
 * A Fireflies {@code transcript} object (its GraphQL API) as one meeting (decisions.md
 * "Transcripts in and out"). The API's answer itself, {@code {"data": {"transcript": ...}}} or
 * {@code {"data": {"transcripts": [...]}}}, is read too, so that it can be saved and imported
 * as it came. Stateless.
 */
final class Fireflies {
  /** A line of the action items that is only a bold name names the owner of the lines after it. */
  private static final Pattern OWNER = Pattern.compile("\\*\\*(.+?)\\*\\*:?");
  private static final Pattern BULLET = Pattern.compile("^(?:[-*•]|\\d+[.)])\\s+");

  private Fireflies() {}

  /** The transcript objects of one JSON object: itself, or those of a GraphQL answer. */
  static List<JsonObject> transcripts(JsonObject o) {
    JsonObject data = o.has("id") ? null : o.object("data");
    if (data == null) return List.of(o);
    if (data.has("transcripts")) return data.objects("transcripts");
    JsonObject one = data.object("transcript");
    return one == null ? List.of(o) : List.of(one);
  }

  static Meeting meeting(JsonObject t, ImportOptions o) {
    String key = t.textOrNumber("id");
    if (key == null) {
      throw t.error("id", "expected a Fireflies transcript with an id, found none"
          + (t.has("recording_id") ? " (a Fathom meeting? use --format fathom)" : ""));
    }
    String title = t.requiredText("title", "the meeting's title");
    Instant starts = date(t);
    Double minutes = t.number("duration");
    Instant ends = starts == null || minutes == null ? null : starts.plusMillis(Math.round(minutes * 60_000));
    Instant created = starts == null ? o.now() : starts;
    String id = NameBasedIds.of(o.workspace(), "fireflies", key);
    return ConvertedMeetings.line(o, id, title, starts, ends, t.email("organizer_email"), created, participants(t),
        protocols(t, id, created), sentences(t), null);
  }

  /** {@code date}: epoch milliseconds (the API's), or an RFC 3339 date-time. */
  private static Instant date(JsonObject t) {
    if (t.node().path("date").isTextual()) {
      Instant at = Times.parseDateTime(t.node().get("date").asText().strip());
      if (at != null) return at;
    }
    Double ms = t.number("date");
    return ms == null ? null : Instant.ofEpochMilli(Math.round(ms));
  }

  /**
   * {@code participants}: emails (Fireflies sometimes joins several in one string with commas),
   * named as {@code meeting_attendees} names them, else by the email itself.
   */
  private static List<Participant> participants(JsonObject t) {
    Map<String, String> names = new HashMap<>();
    for (JsonObject a : t.objects("meeting_attendees")) {
      String email = a.text("email"), name = a.text("displayName") != null ? a.text("displayName") : a.text("name");
      if (email != null && name != null) names.put(Emails.key(email.strip()), name.strip());
    }
    Map<String, Participant> out = new LinkedHashMap<>();
    List<String> given = t.texts("participants");
    for (int i = 0; i < given.size(); i++) {
      for (String part : given.get(i).split(",")) {
        String email = part.strip();
        if (email.isEmpty()) continue;
        if (!Emails.isEmail(email)) throw t.error("participants[" + i + "]", "expected email addresses, found " + FormatError.quote(email));
        out.putIfAbsent(Emails.key(email),
            new Participant(names.getOrDefault(Emails.key(email), email), email, "calendar", true, null, null));
      }
    }
    return List.copyOf(out.values());
  }

  /** {@code sentences}: times in seconds, as numbers or numeric strings. */
  private static List<Segment> sentences(JsonObject t) {
    List<Segment> out = new ArrayList<>();
    for (JsonObject s : t.objects("sentences")) {
      Double start = s.number("start_time"), end = s.number("end_time");
      if (start == null || start < 0) throw s.error("start_time", "expected the start in seconds, a number of at least 0");
      if (end != null && end < start) throw s.error("end_time", "expected the end in seconds, not before start_time");
      if (!s.node().path("text").isTextual()) throw s.error("text", "expected the text said, a string");
      String speaker = s.text("speaker_name");
      out.add(new Segment(speaker == null ? ConvertedMeetings.UNKNOWN_SPEAKER : speaker.strip(), null, Math.round(start * 1000),
          end == null ? null : Math.round(end * 1000), s.node().get("text").asText()));
    }
    return out;
  }

  /** {@code summary.overview} as the minutes, each line of {@code summary.action_items} a task. */
  private static List<Protocol> protocols(JsonObject t, String meetingId, Instant created) {
    JsonObject summary = t.object("summary");
    if (summary == null) return List.of();
    String overview = summary.text("overview"), items = summary.text("action_items");
    List<ActionItem> tasks = new ArrayList<>();
    String owner = null;
    for (String line : items == null ? new String[0] : items.split("\r\n|\r|\n")) {
      String s = line.strip();
      Matcher bold = OWNER.matcher(s);
      if (bold.matches()) {
        owner = bold.group(1).strip();
        continue;
      }
      s = BULLET.matcher(s).replaceFirst("").strip();
      if (s.isEmpty()) continue;
      tasks.add(new ActionItem(NameBasedIds.of(meetingId, "task", Integer.toString(tasks.size())), s, owner, null, "open", "open"));
    }
    if (overview == null && tasks.isEmpty()) return List.of();
    return List.of(new Protocol(NameBasedIds.of(meetingId, "protocol"), null, overview == null ? "" : overview, created,
        null, tasks));
  }
}
