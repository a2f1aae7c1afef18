package minutes.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The second pass of an import: writes checked lines through prepared statements reused for
 * every line, inside the caller's transaction. A meeting's rows go out in batches, one per
 * table (on PostgreSQL each becomes one multi-row INSERT), flushed before the next line, so a
 * failed constraint is still the fault of the line being written. Not thread-safe.
 */
final class RecordWriter implements AutoCloseable {
  private final Connection c;
  private final Map<String, Long> workspaceIds = new HashMap<>();
  private final PreparedStatement upsertWorkspace, deleteWorkspaceDomains, insertWorkspaceDomain, upsertUser,
      upsertCompany, deleteCompanyDomains, insertCompanyDomain, deleteMeeting, insertMeeting, insertViewer,
      insertParticipant, insertProtocol, insertTask, insertSegment, insertChange;
  /** A meeting's child rows, in the order their foreign keys need: protocols before their tasks. */
  private final List<PreparedStatement> children;

  RecordWriter(Connection c) throws SQLException {
    this.c = c;
    upsertWorkspace = c.prepareStatement(
        "INSERT INTO workspace(slug, name) VALUES (?, ?) ON CONFLICT(slug) DO UPDATE SET name = excluded.name");
    deleteWorkspaceDomains = c.prepareStatement("DELETE FROM workspace_domain WHERE workspace_id = ?");
    insertWorkspaceDomain = c.prepareStatement(
        "INSERT INTO workspace_domain(workspace_id, domain) VALUES (?, ?) ON CONFLICT DO NOTHING");
    upsertUser = c.prepareStatement("""
        INSERT INTO app_user(workspace_id, email, name) VALUES (?, ?, ?)
        ON CONFLICT(workspace_id, email) DO UPDATE SET name = excluded.name""");
    upsertCompany = c.prepareStatement("""
        INSERT INTO company(id, workspace_id, name) VALUES (?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET workspace_id = excluded.workspace_id, name = excluded.name""");
    deleteCompanyDomains = c.prepareStatement("DELETE FROM company_domain WHERE company_id = ?");
    insertCompanyDomain = c.prepareStatement(
        "INSERT INTO company_domain(company_id, domain) VALUES (?, ?) ON CONFLICT DO NOTHING");
    deleteMeeting = c.prepareStatement("DELETE FROM meeting WHERE id = ?");
    insertMeeting = c.prepareStatement("""
        INSERT INTO meeting(id, workspace_id, title, title_folded, platform, source, status, starts_at, ends_at,
          join_url, organizer_email, created_at, template_id, sort_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
    insertViewer = c.prepareStatement(
        "INSERT INTO meeting_viewer(email, meeting_id) VALUES (?, ?) ON CONFLICT DO NOTHING");
    insertParticipant = c.prepareStatement("""
        INSERT INTO participant(meeting_id, position, display_name, email, domain, source, attended,
          approx_joined_at, approx_left_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""");
    insertProtocol = c.prepareStatement("""
        INSERT INTO protocol(id, meeting_id, tldr, content_md, generated_at, edited_at, is_current)
        VALUES (?, ?, ?, ?, ?, ?, ?)""");
    insertTask = c.prepareStatement("""
        INSERT INTO action_item(id, protocol_id, meeting_id, workspace_id, position, task, owner_name, due,
          due_key, verdict, status, is_current, meeting_starts_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
    insertSegment = c.prepareStatement("""
        INSERT INTO transcript_segment(meeting_id, idx, speaker_name, speaker_email, start_ms, end_ms, text)
        VALUES (?, ?, ?, ?, ?, ?, ?)""");
    insertChange = c.prepareStatement("INSERT INTO change_log(meeting_id, changed_at) VALUES (?, ?)");
    children = List.of(insertViewer, insertParticipant, insertProtocol, insertTask, insertSegment);
  }

  void workspace(JsonNode n) throws SQLException {
    String slug = n.get("slug").asText();
    exec(upsertWorkspace, slug, n.get("name").asText());
    long id = workspaceId(slug);
    exec(deleteWorkspaceDomains, id);
    for (JsonNode d : n.path("domains")) exec(insertWorkspaceDomain, id, d.asText().toLowerCase(Locale.ROOT));
  }

  void user(JsonNode n) throws SQLException {
    exec(upsertUser, workspaceId(n.get("workspace").asText()), Emails.key(n.get("email").asText()), textOrNull(n, "name"));
  }

  void company(JsonNode n) throws SQLException {
    String id = Ids.canonical(n.get("id").asText());
    exec(upsertCompany, id, workspaceId(n.get("workspace").asText()), n.get("name").asText());
    exec(deleteCompanyDomains, id);
    for (JsonNode d : n.path("domains")) exec(insertCompanyDomain, id, d.asText().toLowerCase(Locale.ROOT));
  }

  /** Replaces the meeting whole; returns the number of tasks written. */
  long meeting(JsonNode n) throws SQLException {
    String id = Ids.canonical(n.get("id").asText());
    long workspaceId = workspaceId(n.get("workspace").asText());
    String startsAt = dateTime(n, "starts_at");
    String createdAt = dateTime(n, "created_at");
    exec(deleteMeeting, id); // cascades to participants, viewers, minutes, tasks, transcript
    String title = n.get("title").asText();
    exec(insertMeeting, id, workspaceId, title, Times.fold(title), n.get("platform").asText(),
        n.get("source").asText(), n.get("status").asText(), startsAt, dateTime(n, "ends_at"),
        textOrNull(n, "join_url"), textOrNull(n, "organizer_email"), createdAt,
        n.hasNonNull("template_id") ? Ids.canonical(n.get("template_id").asText()) : null,
        startsAt != null ? startsAt : createdAt);
    for (JsonNode e : n.path("visible_to")) batch(insertViewer, Emails.key(e.asText()), id);
    int position = 0;
    for (JsonNode p : n.path("participants")) {
      String email = textOrNull(p, "email");
      String domain = email == null ? null : email.substring(email.lastIndexOf('@') + 1).toLowerCase(Locale.ROOT);
      batch(insertParticipant, id, position++, p.get("display_name").asText(), email, domain,
          p.get("source").asText(), p.path("attended").asBoolean(true) ? 1 : 0,
          dateTime(p, "approx_joined_at"), dateTime(p, "approx_left_at"));
    }
    long tasks = 0;
    int current = currentProtocol(n.path("protocols"));
    int index = 0;
    for (JsonNode p : n.path("protocols")) {
      String protocolId = Ids.canonical(p.get("id").asText());
      int isCurrent = index++ == current ? 1 : 0;
      batch(insertProtocol, protocolId, id, textOrNull(p, "tldr"), p.get("content_md").asText(),
          dateTime(p, "generated_at"), dateTime(p, "edited_at"), isCurrent);
      int taskPosition = 0;
      for (JsonNode t : p.path("action_items")) {
        String due = textOrNull(t, "due");
        batch(insertTask, Ids.canonical(t.get("id").asText()), protocolId, id, workspaceId, taskPosition++,
            t.get("task").asText(), textOrNull(t, "owner_name"), due, due == null ? "~" : due,
            t.get("verdict").asText(), t.get("status").asText(), isCurrent, startsAt);
        tasks++;
      }
    }
    // Segments are numbered in time order; equal start times keep the file's order.
    List<JsonNode> segments = new ArrayList<>();
    n.path("transcript").forEach(segments::add);
    segments.sort(Comparator.comparingLong(s -> s.get("start_ms").asLong()));
    int idx = 0;
    for (JsonNode s : segments) {
      batch(insertSegment, id, idx++, s.get("speaker_name").asText(), textOrNull(s, "speaker_email"),
          s.get("start_ms").asLong(), s.hasNonNull("end_ms") ? s.get("end_ms").asLong() : null,
          s.get("text").asText());
    }
    for (PreparedStatement ps : children) ps.executeBatch();
    exec(insertChange, id, Times.format(Instant.now()));
    return tasks;
  }

  /** The most recent minutes: greatest generated_at; on a tie the later one in the line. */
  private static int currentProtocol(JsonNode protocols) {
    int best = -1;
    Instant bestAt = null;
    for (int i = 0; i < protocols.size(); i++) {
      Instant at = Times.parseDateTime(protocols.get(i).get("generated_at").asText());
      if (bestAt == null || !at.isBefore(bestAt)) {
        best = i;
        bestAt = at;
      }
    }
    return best;
  }

  private long workspaceId(String slug) throws SQLException {
    Long id = workspaceIds.get(slug);
    if (id == null) {
      id = Db.workspaceId(c, slug).orElseThrow();
      workspaceIds.put(slug, id);
    }
    return id;
  }

  private static void exec(PreparedStatement ps, Object... values) throws SQLException {
    bind(ps, values);
    ps.executeUpdate();
  }

  private static void batch(PreparedStatement ps, Object... values) throws SQLException {
    bind(ps, values);
    ps.addBatch();
  }

  private static void bind(PreparedStatement ps, Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) ps.setObject(i + 1, values[i]);
  }

  static String textOrNull(JsonNode n, String name) {
    JsonNode v = n.get(name);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static String dateTime(JsonNode n, String name) {
    String s = textOrNull(n, name);
    return s == null ? null : Times.format(Times.parseDateTime(s));
  }

  @Override
  public void close() throws SQLException {
    for (PreparedStatement ps : List.of(upsertWorkspace, deleteWorkspaceDomains, insertWorkspaceDomain, upsertUser,
        upsertCompany, deleteCompanyDomains, insertCompanyDomain, deleteMeeting, insertMeeting, insertViewer,
        insertParticipant, insertProtocol, insertTask, insertSegment, insertChange)) {
      ps.close();
    }
  }
}
