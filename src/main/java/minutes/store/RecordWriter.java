package minutes.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The second pass of an import: writes checked lines through prepared statements reused for
 * every line, inside the caller's transaction, with the effect of writing them one by one in file
 * order. Meeting lines wait in a {@link MeetingGroup} that writes many at once; any other line
 * writes the group out first. Every meeting it changes goes to {@link ChangeHistory}, written by
 * {@link #finish}. Not thread-safe.
 */
final class RecordWriter implements AutoCloseable {
  private final Connection c;
  private final MeetingGroup group;
  private final Map<String, Long> workspaceIds = new HashMap<>();
  private final PreparedStatement upsertWorkspace, deleteWorkspaceDomains, insertWorkspaceDomain, upsertUser,
      upsertCompany, deleteCompanyDomains, insertCompanyDomain, deleteMeeting, insertMeeting, insertViewer,
      insertParticipant, insertProtocol, insertTask, insertSegment;
  private final ChangeHistory changes;
  /** Delete lines that removed something: the import then erases (Dialect#eraseDeleted). */
  private long deletions;

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
          join_url, organizer_email, created_at, template_id, sort_at, language)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
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
          due_key, verdict, status, is_current, meeting_starts_at, meeting_title)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
    insertSegment = c.prepareStatement("""
        INSERT INTO transcript_segment(meeting_id, idx, speaker_name, speaker_email, start_ms, end_ms, text)
        VALUES (?, ?, ?, ?, ?, ?, ?)""");
    // In the order the foreign keys need: meetings first, minutes before their tasks.
    group = new MeetingGroup(c, deleteMeeting,
        List.of(insertMeeting, insertViewer, insertParticipant, insertProtocol, insertTask, insertSegment), this::bind);
    changes = new ChangeHistory(c);
  }

  void workspace(JsonNode n) throws SQLException, MeetingGroup.Conflict {
    group.flush();
    String slug = n.get("slug").asText();
    exec(upsertWorkspace, slug, n.get("name").asText());
    long id = workspaceId(slug);
    exec(deleteWorkspaceDomains, id);
    for (JsonNode d : n.path("domains")) exec(insertWorkspaceDomain, id, d.asText().toLowerCase(Locale.ROOT));
  }

  void user(JsonNode n) throws SQLException, MeetingGroup.Conflict {
    group.flush();
    exec(upsertUser, workspaceId(n.get("workspace").asText()), Emails.key(n.get("email").asText()), textOrNull(n, "name"));
  }

  void company(JsonNode n) throws SQLException, MeetingGroup.Conflict {
    group.flush();
    String id = Ids.canonical(n.get("id").asText());
    exec(upsertCompany, id, workspaceId(n.get("workspace").asText()), n.get("name").asText());
    exec(deleteCompanyDomains, id);
    for (JsonNode d : n.path("domains")) exec(insertCompanyDomain, id, d.asText().toLowerCase(Locale.ROOT));
  }

  /**
   * Replaces the meeting whole (in the group: a clash of an earlier line of the group may surface
   * here); returns the number of tasks the line holds.
   */
  long meeting(JsonNode n, String file, long line) throws SQLException, MeetingGroup.Conflict {
    String id = Ids.canonical(n.get("id").asText());
    changes.touching(id);
    group.add(file, line, id, changes.stored(id), n);
    return n.path("protocols").valueStream().mapToLong(p -> p.path("action_items").size()).sum();
  }

  /** Binds the line's rows into the group's insert batches; returns how many. */
  private int bind(JsonNode n, String id) throws SQLException {
    long workspaceId = workspaceId(n.get("workspace").asText());
    String startsAt = dateTime(n, "starts_at");
    String createdAt = dateTime(n, "created_at");
    String title = n.get("title").asText();
    int current = currentProtocol(n.path("protocols"));
    batch(insertMeeting, id, workspaceId, title, Times.fold(title), n.get("platform").asText(),
        n.get("source").asText(), n.get("status").asText(), startsAt, dateTime(n, "ends_at"),
        textOrNull(n, "join_url"), textOrNull(n, "organizer_email"), createdAt,
        n.hasNonNull("template_id") ? Ids.canonical(n.get("template_id").asText()) : null,
        startsAt != null ? startsAt : createdAt, MeetingLanguage.of(n, current));
    Set<String> viewers = new LinkedHashSet<>();
    for (JsonNode e : n.path("visible_to")) viewers.add(Emails.key(e.asText()));
    for (String v : viewers) batch(insertViewer, v, id);
    int position = 0;
    for (JsonNode p : n.path("participants")) {
      String email = textOrNull(p, "email");
      String domain = email == null ? null : email.substring(email.lastIndexOf('@') + 1).toLowerCase(Locale.ROOT);
      batch(insertParticipant, id, position++, p.get("display_name").asText(), email, domain,
          p.get("source").asText(), p.path("attended").asBoolean(true) ? 1 : 0,
          dateTime(p, "approx_joined_at"), dateTime(p, "approx_left_at"));
    }
    int tasks = 0;
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
            t.get("verdict").asText(), t.get("status").asText(), isCurrent, startsAt, title);
        tasks++;
      }
    }
    // Segments are numbered in time order; equal start times keep the file's order.
    List<JsonNode> segments = n.path("transcript").valueStream()
        .sorted(Comparator.comparingLong(s -> s.get("start_ms").asLong())).toList();
    int idx = 0;
    for (JsonNode s : segments) {
      batch(insertSegment, id, idx++, s.get("speaker_name").asText(), textOrNull(s, "speaker_email"),
          s.get("start_ms").asLong(), s.hasNonNull("end_ms") ? s.get("end_ms").asLong() : null,
          s.get("text").asText());
    }
    changes.written(id, workspaceId, viewers);
    return 1 + viewers.size() + position + index + tasks + idx;
  }


  /**
   * A delete line (decisions.md "Deleting data"), scoped to its workspace: a meeting or company
   * of another workspace, or anything that does not exist, is left alone (replays are safe). Its
   * statements are prepared each time: deletes are rare next to upserts.
   */
  void delete(JsonNode n) throws SQLException, MeetingGroup.Conflict {
    group.flush();
    String slug = n.get("workspace").asText();
    Optional<Long> found = knownWorkspace(slug);
    if (found.isEmpty()) return;
    long workspace = found.get();
    boolean removed = switch (n.get("what").asText()) {
      case "meeting" -> removeMeeting(Ids.canonical(n.get("id").asText()), workspace);
      case "company" -> new Sql("DELETE FROM company WHERE id = ? AND workspace_id = ?",
          Ids.canonical(n.get("id").asText()), workspace).update(c) > 0; // its domains cascade
      case "user" -> removeUser(workspace, Emails.key(n.get("email").asText()));
      default -> removeWorkspace(workspace, slug);
    };
    if (removed) deletions++;
  }

  private boolean removeMeeting(String id, long workspace) throws SQLException {
    changes.touching(id); // what it knows comes from one read for all the file's meetings, not a query per line
    if (!changes.storedIn(id, workspace)) return false;
    exec(deleteMeeting, id);
    changes.deleted(id);
    return true;
  }

  /** Out of every visible_to of the workspace, its personal keys revoked, its record and its feed history gone. */
  private boolean removeUser(long workspace, String email) throws SQLException {
    List<String> seen = new Sql("""
        SELECT v.meeting_id FROM meeting_viewer v JOIN meeting m ON m.id = v.meeting_id
        WHERE v.email = ? AND m.workspace_id = ?""", email, workspace).list(c, rs -> rs.getString(1));
    for (String id : seen) {
      changes.touching(id);
      changes.unseen(id, workspace, email);
    }
    new Sql("DELETE FROM meeting_viewer WHERE email = ? AND meeting_id IN (SELECT id FROM meeting WHERE workspace_id = ?)",
        email, workspace).update(c);
    // api_key keeps the email as given: lower() folds ASCII letters only, as Emails.key does
    // (PostgreSQL under the column's "C" collation, SQLite always).
    int keys = new Sql("UPDATE api_key SET revoked_at = ? WHERE workspace_id = ? AND lower(user_email) = ? AND revoked_at IS NULL",
        Times.format(Instant.now()), workspace, email).update(c);
    int users = new Sql("DELETE FROM app_user WHERE workspace_id = ? AND email = ?", workspace, email).update(c);
    changes.purge(workspace, email);
    return !seen.isEmpty() || keys > 0 || users > 0;
  }

  /** Everything of the workspace: its meetings (each a change the search indexes apply), users, companies, keys. */
  private boolean removeWorkspace(long workspace, String slug) throws SQLException {
    for (String id : new Sql("SELECT id FROM meeting WHERE workspace_id = ?", workspace).list(c, rs -> rs.getString(1))) {
      changes.touching(id);
      changes.deleted(id);
    }
    changes.purge(workspace);
    new Sql("DELETE FROM workspace WHERE id = ?", workspace).update(c); // cascades to every row of it, keys included
    workspaceIds.remove(slug);
    return true;
  }

  /** The meetings the file's lines name, so that who sees them now is read in bulk ({@link ChangeHistory#preload}). */
  void meetingsNamed(Collection<String> ids) throws SQLException {
    changes.preload(ids);
  }

  /**
   * Ends the import's writing: the changes of every meeting it touched, stamped with one time,
   * and the pruning of history older than {@code keep}.
   */
  void finish(Duration keep) throws SQLException, MeetingGroup.Conflict {
    group.flush();
    changes.write(Instant.now(), keep);
  }

  /** Delete lines that removed something so far. */
  long deletions() {
    return deletions;
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

  /** The id of a workspace the first pass found in the database or on an earlier line. */
  private long workspaceId(String slug) throws SQLException {
    return knownWorkspace(slug).orElseThrow();
  }

  private Optional<Long> knownWorkspace(String slug) throws SQLException {
    Long id = workspaceIds.get(slug);
    if (id != null) return Optional.of(id);
    Optional<Long> found = Db.workspaceId(c, slug);
    found.ifPresent(f -> workspaceIds.put(slug, f));
    return found;
  }

  private static void exec(PreparedStatement ps, Object... values) throws SQLException {
    Sql.bind(ps, values).executeUpdate();
  }

  private static void batch(PreparedStatement ps, Object... values) throws SQLException {
    Sql.bind(ps, values).addBatch();
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
        insertParticipant, insertProtocol, insertTask, insertSegment)) {
      ps.close();
    }
  }
}
