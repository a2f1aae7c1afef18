package minutes.generate;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.zip.GZIPInputStream;
import minutes.json.Jackson;

/**
 * The QMSum meetings bundled in {@code data/qmsum/qmsum.jsonl.gz} (one meeting per line), with
 * transcript markup removed so that the text reads like a notetaker's transcript.
 */
public record QmsumCorpus(List<Meeting> meetings) {

  /** The bundled corpus, relative to the working folder; a constant, so options can default to it. */
  public static final String DEFAULT_FILE = "data/qmsum/qmsum.jsonl.gz";

  public static final Path DEFAULT_PATH = Path.of(DEFAULT_FILE);

  /**
   * One QMSum meeting. {@code summary} answers "Summarize the whole meeting"; each topic comes
   * with the answers of the queries that cover its part of the transcript.
   */
  public record Meeting(String name, List<Topic> topics, String summary, List<Turn> turns) {

    public Meeting {
      topics = List.copyOf(topics);
      turns = List.copyOf(turns);
    }
  }

  /** A topic of the meeting and the answers to the queries about its part of the transcript. */
  public record Topic(String text, List<String> answers) {}

  /** A transcript turn; {@code utf8Length} is kept because generators budget text in bytes. */
  public record Turn(String speaker, String text, int utf8Length) {}

  private static final Set<String> CONTRACTIONS = Set.of("'s", "'re", "'m", "'ll", "'ve", "'d", "'t");

  /** The meeting of that name (the file stem in QMSum, e.g. {@code ES2002a}). */
  public Meeting meeting(String name) {
    return meetings.stream()
        .filter(m -> m.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no QMSum meeting named " + name));
  }

  /** Reads the gzipped JSON-lines file; any malformed line fails the whole load. */
  public static QmsumCorpus load(Path file) throws IOException {
    List<Meeting> meetings = new ArrayList<>();
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(file), 1 << 16),
                StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (!line.isBlank()) {
          meetings.add(parse(Jackson.MAPPER.readTree(line)));
        }
      }
    }
    if (meetings.isEmpty()) {
      throw new IOException(file + " holds no meetings");
    }
    return new QmsumCorpus(List.copyOf(meetings));
  }

  private static Meeting parse(JsonNode m) {
    List<Turn> turns = new ArrayList<>();
    for (JsonNode t : m.path("meeting_transcripts")) {
      String text = clean(t.path("content").asText());
      if (text.chars().anyMatch(Character::isLetterOrDigit)) {
        turns.add(new Turn(t.path("speaker").asText(), text, utf8Length(text)));
      }
    }
    String summary = clean(m.path("general_query_list").path(0).path("answer").asText());
    List<String> queryAnswers = new ArrayList<>();
    List<List<int[]>> querySpans = new ArrayList<>();
    for (JsonNode q : m.path("specific_query_list")) {
      queryAnswers.add(clean(q.path("answer").asText()));
      querySpans.add(spans(q));
    }
    List<Topic> topics = new ArrayList<>();
    for (JsonNode t : m.path("topic_list")) {
      List<int[]> spans = spans(t);
      // Topics and queries share no key; they belong together when their transcript spans overlap.
      List<String> answers = IntStream.range(0, queryAnswers.size())
          .filter(i -> overlaps(spans, querySpans.get(i)))
          .mapToObj(queryAnswers::get)
          .toList();
      topics.add(new Topic(clean(t.path("topic").asText()), answers));
    }
    return new Meeting(m.path("name").asText(), topics, summary, turns);
  }

  private static List<int[]> spans(JsonNode node) {
    return node.path("relevant_text_span").valueStream()
        .filter(s -> s.size() == 2)
        .map(s -> new int[] {s.get(0).asInt(), s.get(1).asInt()})
        .toList();
  }

  private static boolean overlaps(List<int[]> a, List<int[]> b) {
    return a.stream().anyMatch(x -> b.stream().anyMatch(y -> x[0] <= y[1] && y[0] <= x[1]));
  }

  /**
   * Removes QMSum markup and the tokeniser's spacing: "it 's {disfmarker} done ." becomes "it's
   * done.". QMSum marks non-speech as {vocalsound} and the like, and ICSI unintelligible words
   * as "@". One pass over the tokens: the corpus has 100,000 turns and regexes were slow.
   * Public for the relevance benchmark (test code), which loads QMSum's questions with it.
   */
  public static String clean(String raw) {
    StringBuilder out = new StringBuilder(raw.length());
    int i = 0;
    int n = raw.length();
    while (i < n) {
      while (i < n && Character.isWhitespace(raw.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < n && !Character.isWhitespace(raw.charAt(i))) {
        i++;
      }
      if (start < i) {
        appendToken(out, stripMarkers(raw.substring(start, i)));
      }
    }
    return out.toString().replace(" - hmm", "-hmm").replace(" - huh", "-huh");
  }

  private static String stripMarkers(String token) {
    if (token.indexOf('{') < 0 && token.indexOf('}') < 0) {
      return token.equals("@") ? "" : token;
    }
    // "{vocalsound}" goes whole; a stray brace (a few answers have one) goes alone.
    StringBuilder t = new StringBuilder(token.length());
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      int close = c == '{' ? token.indexOf('}', i) : -1;
      if (close > 0) {
        i = close;
      } else if (c != '{' && c != '}') {
        t.append(c);
      }
    }
    return t.toString();
  }

  private static void appendToken(StringBuilder out, String token) {
    if (token.isEmpty()) {
      return;
    }
    if (token.length() > 1 && ",;".indexOf(token.charAt(0)) >= 0 && Character.isLetter(token.charAt(1))) {
      // "So ,there": the comma belongs to the word before.
      appendToken(out, token.substring(0, 1));
      appendToken(out, token.substring(1));
      return;
    }
    boolean punct = token.length() == 1 && ".,?!:;".indexOf(token.charAt(0)) >= 0;
    if (punct) {
      if (out.isEmpty()) {
        return;
      }
      char last = out.charAt(out.length() - 1);
      if (".,?!:;".indexOf(last) >= 0) {
        // "so , ." keeps the stronger mark only.
        if (token.charAt(0) == '?' || token.charAt(0) == '!' || last == ',') {
          out.setCharAt(out.length() - 1, token.charAt(0));
        }
        return;
      }
      out.append(token);
    } else if (CONTRACTIONS.contains(token)
        && !out.isEmpty()
        && Character.isLetterOrDigit(out.charAt(out.length() - 1))) {
      out.append(token);
    } else {
      if (!out.isEmpty()) {
        out.append(' ');
      }
      out.append(token);
    }
  }

  static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
