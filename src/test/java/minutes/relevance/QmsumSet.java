package minutes.relevance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import minutes.generate.QmsumCorpus;

/**
 * QMSum's meetings with the queries it labels: each specific question and each topic names its
 * meeting and the transcript turns that answer it ({@code relevant_text_span}, turn indices,
 * both ends inclusive). Reads QMSum's own layout (a folder with {@code train/*.json} and
 * {@code val/*.json}, the meeting named by the file stem) or the repository's bundled
 * {@code data/qmsum/qmsum.jsonl.gz}, which holds the same files one per line.
 *
 * <p>Text is cleaned as the generators clean it ({@link QmsumCorpus#clean}); a turn left without
 * a letter or digit (only "{vocalsound}", say) is dropped, as there, and every kept turn keeps
 * its index in QMSum so that the labels still point at it.
 */
record QmsumSet(List<Meeting> meetings, List<Query> queries) {

  /** A turn: {@code index} is its position in QMSum's transcript, which the labels use. */
  record Turn(int index, String speaker, String text) {}

  /** {@code summary}: the answer to the meeting's general query ("Summarize the whole meeting"). */
  record Meeting(String name, String summary, List<Turn> turns) {}

  enum Kind { QUESTION, TOPIC }

  /** A labelled query: its text as QMSum gives it, its meeting and the turns that answer it. */
  record Query(Kind kind, String meeting, String text, List<int[]> spans) {

    boolean answeredBy(int turn) {
      return spans.stream().anyMatch(s -> s[0] <= turn && turn <= s[1]);
    }
  }

  QmsumSet {
    meetings = List.copyOf(meetings);
    queries = List.copyOf(queries);
  }

  /** Loads a QMSum folder (train and val) or a gzipped JSON-lines file as bundled in data/qmsum. */
  static QmsumSet load(Path source) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> records = new ArrayList<>();
    if (Files.isDirectory(source)) {
      List<Path> files = new ArrayList<>();
      for (String split : List.of("train", "val")) {
        try (Stream<Path> s = Files.list(source.resolve(split))) {
          s.filter(f -> f.getFileName().toString().endsWith(".json")).forEach(files::add);
        }
      }
      files.sort(Comparator.comparing(f -> f.getFileName().toString()));
      for (Path f : files) {
        String stem = f.getFileName().toString().replaceFirst("\\.json$", "");
        records.add(((ObjectNode) json.readTree(f.toFile())).put("name", stem));
      }
    } else {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(
          new GZIPInputStream(Files.newInputStream(source), 1 << 16), StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          if (!line.isBlank()) records.add(json.readTree(line));
        }
      }
    }
    if (records.isEmpty()) throw new IOException(source + " holds no QMSum meetings");
    List<Meeting> meetings = new ArrayList<>();
    List<Query> queries = new ArrayList<>();
    for (JsonNode m : records) {
      String name = m.path("name").asText();
      meetings.add(meeting(name, m));
      m.path("specific_query_list").forEach(q -> queries.add(query(Kind.QUESTION, name, q.path("query"), q)));
      m.path("topic_list").forEach(t -> queries.add(query(Kind.TOPIC, name, t.path("topic"), t)));
    }
    return new QmsumSet(meetings, queries);
  }

  /** Every {@code every}-th meeting in name order (the first included) and the queries about them. */
  QmsumSet everyNth(int every) {
    List<Meeting> kept = IntStream.range(0, meetings.size()).filter(i -> i % every == 0)
        .mapToObj(meetings::get).toList();
    List<String> names = kept.stream().map(Meeting::name).toList();
    return new QmsumSet(kept, queries.stream().filter(q -> names.contains(q.meeting())).toList());
  }

  List<Query> queries(Kind kind) {
    return queries.stream().filter(q -> q.kind() == kind).toList();
  }

  private static Meeting meeting(String name, JsonNode m) {
    List<Turn> turns = new ArrayList<>();
    JsonNode transcript = m.path("meeting_transcripts");
    for (int i = 0; i < transcript.size(); i++) {
      String text = QmsumCorpus.clean(transcript.get(i).path("content").asText());
      if (text.chars().anyMatch(Character::isLetterOrDigit)) {
        turns.add(new Turn(i, transcript.get(i).path("speaker").asText(), text));
      }
    }
    String summary = QmsumCorpus.clean(m.path("general_query_list").path(0).path("answer").asText());
    return new Meeting(name, summary, turns);
  }

  private static Query query(Kind kind, String meeting, JsonNode text, JsonNode labelled) {
    List<int[]> spans = labelled.path("relevant_text_span").valueStream()
        .map(s -> new int[] {s.get(0).asInt(), s.get(1).asInt()})
        .toList();
    return new Query(kind, meeting, text.asText().trim(), spans);
  }
}
