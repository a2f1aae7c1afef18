package minutes.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import minutes.config.Config;

/**
 * Loads NDJSON in the import format of decisions.md, delete lines included. Two streaming
 * passes: the first checks every line and every reference and reports all faults; only a clean
 * file reaches the second ({@link RecordWriter}), which writes everything in one transaction, in
 * file order. So an import lands whole or not at all, and memory grows only by a small entry per
 * meeting the file changes ({@link ChangeHistory}), never with the text. An import that deleted
 * anything then erases it from the store's files ({@link Dialect#eraseDeleted}). Not thread-safe;
 * one per import.
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

  /** What an import did: lines by kind ({@code deletes}: delete lines), and the erasure after the commit. */
  public record Summary(long lines, long workspaces, long users, long companies, long meetings, long tasks,
      long deletes, Dialect.Erasure erasure, long bytes, double seconds) {}

  /** How long the erasure after a delete may wait for readers that hold a snapshot from before it. */
  static final Duration ERASURE_PATIENCE = Duration.ofMinutes(5);

  private final Store store;
  private final Duration keepHistory;
  private final Progress progress;

  /** An importer that keeps change history for the default {@code changes.retention_days}. */
  public Importer(Store store, Progress progress) {
    this(store, Duration.ofDays(Config.DEFAULT_CHANGES_RETENTION_DAYS), progress);
  }

  /** {@code keepHistory}: change history older than this is pruned by this import (changes.retention_days). */
  public Importer(Store store, Duration keepHistory, Progress progress) {
    this.store = store;
    this.keepHistory = keepHistory;
    this.progress = progress;
  }

  public Summary run(List<Path> files) throws IOException, SQLException {
    long started = System.nanoTime();
    Migrations.migrate(store);
    long totalBytes = 0;
    for (Path f : files) totalBytes += Files.size(f);
    return write(files, totalBytes, validate(files, totalBytes), started);
  }

  // ---------------------------------------------------------------- pass 1: check

  /** Checks every line; returns the meeting ids that meeting and delete lines name. */
  private Set<String> validate(List<Path> files, long totalBytes) throws IOException, SQLException {
    List<LineError> errors = new ArrayList<>();
    AtomicLong badLines = new AtomicLong();
    // Pass 2 writes in file order, so a workspace must be in the database or on an earlier line,
    // and not deleted by a line between (false: deleted).
    Map<String, Boolean> known = new HashMap<>();
    Set<String> meetings = new HashSet<>();
    boolean storesNul = store.dialect().storesNul();
    try (Connection c = store.write()) {
      forEachLine(files, totalBytes, "checking", (file, lineNo, text) -> {
        JsonNode n;
        try {
          n = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
          record(errors, badLines, List.of(new LineError(file, lineNo, null, "not valid JSON: " + e.getOriginalMessage())));
          return;
        }
        List<ImportValidator.Problem> problems = ImportValidator.check(n);
        if (problems.isEmpty() && !storesNul) problems = ImportValidator.storableInPostgres(n);
        String kind = problems.isEmpty() ? n.get("kind").asText() : "";
        if (kind.equals("meeting") || kind.equals("delete") && n.get("what").asText().equals("meeting")) {
          meetings.add(Ids.canonical(n.get("id").asText()));
        }
        if (kind.equals("workspace")) {
          known.put(n.get("slug").asText(), true);
        } else if (kind.equals("delete")) {
          // Deleting what does not exist changes nothing, so a delete line needs no workspace.
          if (n.get("what").asText().equals("workspace")) known.put(n.get("workspace").asText(), false);
        } else if (!kind.isEmpty()) {
          String slug = n.get("workspace").asText();
          if (!known.computeIfAbsent(slug, s -> exists(c, s))) {
            problems = List.of(new ImportValidator.Problem("workspace",
                "no workspace '" + slug + "' in the database or on an earlier line (a workspace deleted by an earlier "
                    + "line is gone)"));
          }
        }
        if (!problems.isEmpty()) {
          record(errors, badLines, problems.stream().map(p -> new LineError(file, lineNo, p.field(), p.message())).toList());
        }
      });
    }
    if (badLines.get() > 0) throw new Refused(errors, badLines.get());
    return meetings;
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

  private Summary write(List<Path> files, long totalBytes, Set<String> meetings, long started)
      throws IOException, SQLException {
    long[] counts = new long[7]; // lines, workspaces, users, companies, meetings, tasks, deletes
    long deletions;
    String mark;
    Dialect dialect = store.dialect();
    Dialect.Erasure erasure = Dialect.Erasure.NONE;
    try (Connection c = store.write()) {
      dialect.prepareForImport(c);
      c.setAutoCommit(false);
      // Before the writer prepares its statements: a dropped index would make them prepare again.
      DeferredIndexes deferred = dialect.deferIndexes(c);
      try (RecordWriter w = new RecordWriter(c)) {
        dialect.lockForWriting(c);
        w.meetingsNamed(meetings);
        forEachLine(files, totalBytes, "importing", (file, lineNo, text) -> {
          JsonNode n = MAPPER.readTree(text);
          counts[0]++;
          try {
            switch (n.get("kind").asText()) {
              case "workspace" -> { w.workspace(n); counts[1]++; }
              case "user" -> { w.user(n); counts[2]++; }
              case "company" -> { w.company(n); counts[3]++; }
              case "delete" -> { w.delete(n); counts[6]++; }
              default -> { counts[5] += w.meeting(n, file, lineNo); counts[4]++; }
            }
          } catch (SQLException e) {
            // A full disk or an I/O error is not the line's fault: report it as it is.
            if (!dialect.isConstraintViolation(e)) throw e;
            throw conflict(dialect, file, lineNo, e);
          } catch (MeetingGroup.Conflict e) {
            throw conflict(dialect, e.file, e.line, e.sqlCause());
          }
        });
        try {
          w.finish(keepHistory);
        } catch (MeetingGroup.Conflict e) {
          throw conflict(dialect, e.file, e.line, e.sqlCause());
        }
        deferred.rebuild(c);
        deletions = w.deletions();
        mark = deletions > 0 ? dialect.erasureMark(c) : null;
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
      if (deletions > 0) {
        progress.update("erasing", counts[0], totalBytes, totalBytes);
        c.setAutoCommit(true); // both stores erase outside a transaction
        erasure = dialect.eraseDeleted(c, mark, ERASURE_PATIENCE);
      }
    }
    // Timed once the connection is closed, as the import's seconds always were.
    return new Summary(counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6], erasure,
        totalBytes, (System.nanoTime() - started) / 1e9);
  }

  /**
   * A line that clashes with rows already in the database (e.g. a task id that belongs to another
   * meeting): the whole file is refused, and the transaction rolled back by the caller.
   */
  private static Refused conflict(Dialect dialect, String file, long line, SQLException e) {
    String reason = dialect.isDuplicate(e) ? "an id in this line is already used by another record" : "the line could not be stored";
    return new Refused(List.of(new LineError(file, line, null, "conflicts with the database: " + reason)), 1);
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
      long lineNo = 0;
      try (InputStream raw = Files.newInputStream(f);
          CountingStream counted = new CountingStream(raw, read);
          BufferedReader in = new BufferedReader(new InputStreamReader(counted,
              StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)), 1 << 16)) {
        String text;
        while ((text = in.readLine()) != null) {
          lineNo++;
          lines++;
          if (!text.isBlank()) handler.accept(f.getFileName().toString(), lineNo, text);
          if ((lines & 0x3FF) == 0) progress.update(phase, lines, read.get(), totalBytes);
        }
      } catch (CharacterCodingException e) {
        throw new Refused(List.of(new LineError(f.getFileName().toString(), lineNo + 1, null, "not valid UTF-8")), 1);
      }
    }
    progress.update(phase, lines, read.get(), totalBytes);
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
