package minutes.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Loads NDJSON in the import format of decisions.md. Two streaming passes: the first checks
 * every line and every reference and reports all faults; only a clean file reaches the
 * second, which writes everything in one transaction. So an import lands whole or not at
 * all, and memory does not grow with the file. Not thread-safe; one per import.
 */
public final class Importer {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  /** Faults beyond this are counted, not listed, so a wholly wrong file cannot flood the terminal. */
  static final int MAX_REPORTED = 1000;

  /** Reports how far a pass has got; called often, so implementations throttle themselves. */
  @FunctionalInterface
  public interface Progress {
    void update(String phase, long lines, long bytesRead, long bytesTotal);

    Progress NONE = (phase, lines, read, total) -> {};
  }

  public record LineError(String file, long line, String field, String message) {
    @Override
    public String toString() {
      return file + ":" + line + ": " + (field == null ? "" : field + ": ") + message;
    }
  }

  /** The file was refused: nothing was written. */
  public static final class Refused extends RuntimeException {
    private final List<LineError> errors;
    private final long badLines;

    Refused(List<LineError> errors, long badLines) {
      super(badLines + " bad line(s); nothing was imported", null, false, false);
      this.errors = List.copyOf(errors);
      this.badLines = badLines;
    }

    public List<LineError> errors() {
      return errors;
    }

    public long badLines() {
      return badLines;
    }
  }

  public record Summary(long lines, long workspaces, long users, long companies, long meetings, long tasks,
      long bytes, double seconds) {}

  private final Path dbPath;
  private final Progress progress;

  public Importer(Path dbPath, Progress progress) {
    this.dbPath = dbPath;
    this.progress = progress;
  }

  public Summary run(List<Path> files) throws IOException, SQLException {
    long started = System.nanoTime();
    Migrations.migrate(dbPath);
    long totalBytes = 0;
    for (Path f : files) totalBytes += Files.size(f);
    validate(files, totalBytes);
    Summary s = write(files, totalBytes);
    return new Summary(s.lines, s.workspaces, s.users, s.companies, s.meetings, s.tasks, totalBytes,
        (System.nanoTime() - started) / 1e9);
  }

  // ---------------------------------------------------------------- pass 1: check

  private void validate(List<Path> files, long totalBytes) throws IOException, SQLException {
    List<LineError> errors = new ArrayList<>();
    AtomicLong badLines = new AtomicLong();
    // Pass 2 writes in file order, so a workspace must be in the database or on an earlier line.
    Map<String, Boolean> known = new HashMap<>();
    try (Connection c = Db.openWriter(dbPath)) {
      forEachLine(files, totalBytes, "checking", (file, lineNo, text) -> {
        JsonNode n;
        try {
          n = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
          record(errors, badLines, List.of(new LineError(file, lineNo, null, "not valid JSON: " + e.getOriginalMessage())));
          return;
        }
        List<ImportValidator.Problem> problems = ImportValidator.check(n);
        if (problems.isEmpty() && n.get("kind").asText().equals("workspace")) {
          known.put(n.get("slug").asText(), true);
        } else if (problems.isEmpty()) {
          String slug = n.get("workspace").asText();
          if (!known.computeIfAbsent(slug, s -> exists(c, s))) {
            problems = List.of(new ImportValidator.Problem("workspace",
                "no workspace '" + slug + "' in the database or on an earlier line"));
          }
        }
        if (!problems.isEmpty()) {
          record(errors, badLines, problems.stream().map(p -> new LineError(file, lineNo, p.field(), p.message())).toList());
        }
      });
    }
    if (badLines.get() > 0) throw new Refused(errors, badLines.get());
  }

  private static boolean exists(Connection c, String slug) {
    try {
      return Db.workspaceId(c, slug).isPresent();
    } catch (SQLException e) {
      throw new StoreException("cannot read workspaces: " + e.getMessage(), e);
    }
  }

  private static void record(List<LineError> errors, AtomicLong badLines, List<LineError> found) {
    badLines.incrementAndGet();
    for (LineError e : found) if (errors.size() < MAX_REPORTED) errors.add(e);
  }

  // ---------------------------------------------------------------- pass 2: write

  /** SQLite's primary result code for a violated constraint (UNIQUE, PRIMARY KEY, FOREIGN KEY). */
  private static final int SQLITE_CONSTRAINT = 19;

  private Summary write(List<Path> files, long totalBytes) throws IOException, SQLException {
    long[] counts = new long[6]; // lines, workspaces, users, companies, meetings, tasks
    try (Connection c = Db.openWriter(dbPath)) {
      // Tasks and participants are keyed by random UUIDs, so index pages are touched all over
      // the file: a large page cache for this one connection keeps them from being re-read.
      try (var st = c.createStatement()) {
        st.execute("PRAGMA cache_size = -262144"); // KiB: 256 MB
      }
      c.setAutoCommit(false);
      try (Writer w = new Writer(c)) {
        forEachLine(files, totalBytes, "importing", (file, lineNo, text) -> {
          JsonNode n = MAPPER.readTree(text);
          counts[0]++;
          try {
            switch (n.get("kind").asText()) {
              case "workspace" -> { w.workspace(n); counts[1]++; }
              case "user" -> { w.user(n); counts[2]++; }
              case "company" -> { w.company(n); counts[3]++; }
              default -> { counts[5] += w.meeting(n); counts[4]++; }
            }
          } catch (SQLException e) {
            // A full disk or an I/O error is not the line's fault: report it as it is.
            if (e.getErrorCode() != SQLITE_CONSTRAINT) throw e;
            // A clash with rows already in the database (e.g. a task id that belongs to
            // another meeting); the transaction is rolled back below.
            throw new Refused(List.of(new LineError(file, lineNo, null,
                "conflicts with the database: " + conflictReason(e))), 1);
          }
        });
        c.commit();
      } catch (RuntimeException | IOException | SQLException e) {
        try {
          c.rollback();
        } catch (SQLException alreadyRolledBack) {
          // After SQLITE_FULL or an I/O error SQLite has rolled back by itself; the rollback's
          // "no transaction is active" would hide the real cause (found by scripts/fault-test.sh).
          e.addSuppressed(alreadyRolledBack);
        }
        throw e;
      }
    }
    return new Summary(counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], totalBytes, 0);
  }

  private static String conflictReason(SQLException e) {
    String m = String.valueOf(e.getMessage());
    if (m.contains("UNIQUE") || m.contains("PRIMARY KEY")) return "an id in this line is already used by another record";
    return "the line could not be stored";
  }

  /** Prepared statements of pass 2, reused for every line. */
  private static final class Writer implements AutoCloseable {
    private final Connection c;
    private final Map<String, Long> workspaceIds = new HashMap<>();
    private final PreparedStatement upsertWorkspace, deleteWorkspaceDomains, insertWorkspaceDomain, upsertUser,
        upsertCompany, deleteCompanyDomains, insertCompanyDomain, deleteMeeting, insertMeeting, insertViewer,
        insertParticipant, insertProtocol, insertTask, insertSegment, insertChange;

    Writer(Connection c) throws SQLException {
      this.c = c;
      upsertWorkspace = c.prepareStatement(
          "INSERT INTO workspace(slug, name) VALUES (?, ?) ON CONFLICT(slug) DO UPDATE SET name = excluded.name");
      deleteWorkspaceDomains = c.prepareStatement("DELETE FROM workspace_domain WHERE workspace_id = ?");
      insertWorkspaceDomain = c.prepareStatement(
          "INSERT OR IGNORE INTO workspace_domain(workspace_id, domain) VALUES (?, ?)");
      upsertUser = c.prepareStatement("""
          INSERT INTO app_user(workspace_id, email, name) VALUES (?, ?, ?)
          ON CONFLICT(workspace_id, email) DO UPDATE SET name = excluded.name""");
      upsertCompany = c.prepareStatement("""
          INSERT INTO company(id, workspace_id, name) VALUES (?, ?, ?)
          ON CONFLICT(id) DO UPDATE SET workspace_id = excluded.workspace_id, name = excluded.name""");
      deleteCompanyDomains = c.prepareStatement("DELETE FROM company_domain WHERE company_id = ?");
      insertCompanyDomain = c.prepareStatement("INSERT OR IGNORE INTO company_domain(company_id, domain) VALUES (?, ?)");
      deleteMeeting = c.prepareStatement("DELETE FROM meeting WHERE id = ?");
      insertMeeting = c.prepareStatement("""
          INSERT INTO meeting(id, workspace_id, title, title_folded, platform, source, status, starts_at, ends_at,
            join_url, organizer_email, created_at, template_id, sort_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
      insertViewer = c.prepareStatement("INSERT OR IGNORE INTO meeting_viewer(email, meeting_id) VALUES (?, ?)");
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
    }

    void workspace(JsonNode n) throws SQLException {
      String slug = n.get("slug").asText();
      upsertWorkspace.setString(1, slug);
      upsertWorkspace.setString(2, n.get("name").asText());
      upsertWorkspace.executeUpdate();
      long id = workspaceId(slug);
      deleteWorkspaceDomains.setLong(1, id);
      deleteWorkspaceDomains.executeUpdate();
      for (JsonNode d : n.path("domains")) {
        insertWorkspaceDomain.setLong(1, id);
        insertWorkspaceDomain.setString(2, d.asText().toLowerCase(Locale.ROOT));
        insertWorkspaceDomain.executeUpdate();
      }
    }

    void user(JsonNode n) throws SQLException {
      upsertUser.setLong(1, workspaceId(n.get("workspace").asText()));
      upsertUser.setString(2, n.get("email").asText());
      upsertUser.setString(3, textOrNull(n, "name"));
      upsertUser.executeUpdate();
    }

    void company(JsonNode n) throws SQLException {
      String id = Ids.canonical(n.get("id").asText());
      upsertCompany.setString(1, id);
      upsertCompany.setLong(2, workspaceId(n.get("workspace").asText()));
      upsertCompany.setString(3, n.get("name").asText());
      upsertCompany.executeUpdate();
      deleteCompanyDomains.setString(1, id);
      deleteCompanyDomains.executeUpdate();
      for (JsonNode d : n.path("domains")) {
        insertCompanyDomain.setString(1, id);
        insertCompanyDomain.setString(2, d.asText().toLowerCase(Locale.ROOT));
        insertCompanyDomain.executeUpdate();
      }
    }

    /** Replaces the meeting whole; returns the number of tasks written. */
    long meeting(JsonNode n) throws SQLException {
      String id = Ids.canonical(n.get("id").asText());
      long workspaceId = workspaceId(n.get("workspace").asText());
      String startsAt = dateTime(n, "starts_at");
      String createdAt = dateTime(n, "created_at");
      deleteMeeting.setString(1, id);
      deleteMeeting.executeUpdate(); // cascades to participants, viewers, minutes, tasks, transcript
      String title = n.get("title").asText();
      Object[] meeting = {id, workspaceId, title, Times.fold(title), n.get("platform").asText(),
          n.get("source").asText(), n.get("status").asText(), startsAt, dateTime(n, "ends_at"),
          textOrNull(n, "join_url"), textOrNull(n, "organizer_email"), createdAt,
          n.hasNonNull("template_id") ? Ids.canonical(n.get("template_id").asText()) : null,
          startsAt != null ? startsAt : createdAt};
      exec(insertMeeting, meeting);
      for (JsonNode e : n.path("visible_to")) exec(insertViewer, e.asText(), id);
      int position = 0;
      for (JsonNode p : n.path("participants")) {
        String email = textOrNull(p, "email");
        String domain = email == null ? null : email.substring(email.lastIndexOf('@') + 1).toLowerCase(Locale.ROOT);
        exec(insertParticipant, id, position++, p.get("display_name").asText(), email, domain,
            p.get("source").asText(), p.path("attended").asBoolean(true) ? 1 : 0,
            dateTime(p, "approx_joined_at"), dateTime(p, "approx_left_at"));
      }
      long tasks = 0;
      int current = currentProtocol(n.path("protocols"));
      int index = 0;
      for (JsonNode p : n.path("protocols")) {
        String protocolId = Ids.canonical(p.get("id").asText());
        int isCurrent = index++ == current ? 1 : 0;
        exec(insertProtocol, protocolId, id, textOrNull(p, "tldr"), p.get("content_md").asText(),
            dateTime(p, "generated_at"), dateTime(p, "edited_at"), isCurrent);
        int taskPosition = 0;
        for (JsonNode t : p.path("action_items")) {
          String due = textOrNull(t, "due");
          exec(insertTask, Ids.canonical(t.get("id").asText()), protocolId, id, workspaceId, taskPosition++,
              t.get("task").asText(), textOrNull(t, "owner_name"), due, due == null ? "~" : due,
              t.get("verdict").asText(), t.get("status").asText(), isCurrent, startsAt);
          tasks++;
        }
      }
      // Segments are numbered in time order; equal start times keep the file's order.
      List<JsonNode> segments = new ArrayList<>();
      n.path("transcript").forEach(segments::add);
      segments.sort(java.util.Comparator.comparingLong(s -> s.get("start_ms").asLong()));
      int idx = 0;
      for (JsonNode s : segments) {
        exec(insertSegment, id, idx++, s.get("speaker_name").asText(), textOrNull(s, "speaker_email"),
            s.get("start_ms").asLong(), s.hasNonNull("end_ms") ? s.get("end_ms").asLong() : null,
            s.get("text").asText());
      }
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
      for (int i = 0; i < values.length; i++) ps.setObject(i + 1, values[i]);
      ps.executeUpdate();
    }

    private static String textOrNull(JsonNode n, String name) {
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

  // ---------------------------------------------------------------- reading

  @FunctionalInterface
  private interface LineHandler {
    void accept(String file, long lineNo, String text) throws IOException, SQLException;
  }

  private void forEachLine(List<Path> files, long totalBytes, String phase, LineHandler handler)
      throws IOException, SQLException {
    AtomicLong read = new AtomicLong();
    long lines = 0;
    for (Path f : files) {
      try (InputStream raw = Files.newInputStream(f);
          CountingStream counted = new CountingStream(raw, read);
          BufferedReader in = new BufferedReader(new InputStreamReader(counted,
              StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)), 1 << 16)) {
        String text;
        long lineNo = 0;
        while ((text = readLine(in, f, lineNo + 1)) != null) {
          lineNo++;
          lines++;
          if (!text.isBlank()) handler.accept(f.getFileName().toString(), lineNo, text);
          if ((lines & 0x3FF) == 0) progress.update(phase, lines, read.get(), totalBytes);
        }
      }
    }
    progress.update(phase, lines, read.get(), totalBytes);
  }

  private static String readLine(BufferedReader in, Path f, long lineNo) throws IOException {
    try {
      return in.readLine();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new Refused(List.of(new LineError(f.getFileName().toString(), lineNo, null, "not valid UTF-8")), 1);
    }
  }

  /** Counts bytes for the progress display. */
  private static final class CountingStream extends java.io.FilterInputStream {
    private final AtomicLong count;

    CountingStream(InputStream in, AtomicLong count) {
      super(in);
      this.count = count;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) count.incrementAndGet();
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) count.addAndGet(n);
      return n;
    }
  }
}
