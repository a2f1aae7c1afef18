package minutes.relevance;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import minutes.formats.ImportWriter;

/**
 * The QMSum meetings as minutes imports them: a neutral title ({@code Meeting <name>}) so that
 * the title gives nothing away, the general summary as the minutes, one transcript segment per
 * kept turn, a second apart, so that a segment's {@code index} is its place among the kept turns.
 */
final class RelevanceWorkspace {
  private static final Instant FIRST_START = Instant.parse("2026-01-05T09:00:00Z");

  private RelevanceWorkspace() {}

  /** The meeting's id, fixed by its QMSum name. */
  static String id(String meeting) {
    return UUID.nameUUIDFromBytes(("qmsum/" + meeting).getBytes(StandardCharsets.UTF_8)).toString();
  }

  /** Meeting names by id, to read hits back. */
  static Map<String, QmsumSet.Meeting> byId(QmsumSet set) {
    Map<String, QmsumSet.Meeting> byId = new HashMap<>();
    set.meetings().forEach(m -> byId.put(id(m.name()), m));
    return byId;
  }

  /**
   * Writes the import: the workspace line when {@code workspaceName} is given (else the
   * workspace {@code slug} must exist already), then one line per meeting, a day apart.
   */
  static void write(Writer out, String slug, String workspaceName, QmsumSet set) throws IOException {
    ImportWriter writer = new ImportWriter(out);
    if (workspaceName != null) writer.write(new ImportWriter.Workspace(slug, workspaceName, List.of()));
    Instant starts = FIRST_START;
    for (QmsumSet.Meeting m : set.meetings()) {
      List<ImportWriter.Segment> segments = new ArrayList<>();
      for (int i = 0; i < m.turns().size(); i++) {
        QmsumSet.Turn t = m.turns().get(i);
        segments.add(new ImportWriter.Segment(t.speaker(), null, i * 1000L, i * 1000L + 1000, t.text()));
      }
      Instant ends = starts.plus(Duration.ofSeconds(segments.size()));
      String id = id(m.name());
      ImportWriter.Protocol minutes = new ImportWriter.Protocol(
          UUID.nameUUIDFromBytes(("qmsum-minutes/" + m.name()).getBytes(StandardCharsets.UTF_8)).toString(),
          null, m.summary(), ends, null, List.of());
      writer.write(new ImportWriter.Meeting(slug, id, "Meeting " + m.name(), "upload", "upload", "ready",
          starts, ends, null, null, starts, null, List.of(), List.of(), List.of(minutes), segments, null));
      starts = starts.plus(Duration.ofDays(1));
    }
    writer.flush();
  }
}
