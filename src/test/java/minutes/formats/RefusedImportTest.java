package minutes.formats;

import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import minutes.ApiServer;
import minutes.CliRun;
import minutes.store.Sql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Input the converters cannot read is refused whole, through the real command on the run's
 * store: the error names the file, the line (and JSON path) and what was expected, the exit
 * code is 1 (2 for unusable options), and nothing lands: no row, no change in the feed.
 */
class RefusedImportTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

  private static final String GOOD_VTT = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Ann>zqrefusedword\n";
  private static final String FATHOM = """
      {"title": "Pilot", "recording_id": 7, "created_at": "2026-03-02T10:05:00Z",
       "transcript": [{"speaker": {"display_name": "Ann"}, "text": "Hello", "timestamp": "00:00:05"}]}""";

  /** Not WebVTT or SubRip at all, or no cue left: refused however lenient the reading (decisions.md "Transcript files as written"). */
  @Test
  void aFileThatIsNotOfItsFormatOrHoldsNoCueIsRefused() throws Exception {
    refused("vtt", "subrip.srt", "1\n00:00:01,000 --> 00:00:02,000\nHi\n",
        "subrip.srt:1: expected the WebVTT header line 'WEBVTT', found '1' (a SubRip file? use --format srt)");
    refused("vtt", "json.vtt", "{\"title\": \"x\"}\n", "json.vtt:1: expected the WebVTT header line 'WEBVTT', found '{\"title\": \"x\"}'");
    refused("vtt", "empty.vtt", "WEBVTT\n\nNOTE nothing said\n", "empty.vtt:3: expected at least one cue, found none");
    refused("srt", "webvtt.vtt", GOOD_VTT, "webvtt.vtt:1: expected a cue number or a timing line such as "
        + "'00:01:02,000 --> 00:01:05,500', found 'WEBVTT' (a WebVTT file? use --format vtt)");
    Path skipped = write("all-skipped.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02\nHi\n\nhello there\n");
    refused(List.of("--format", "vtt"), List.of(skipped),
        skipped + ":3: skipped: expected a cue timing such as '00:01:02.000 --> 00:01:05.500', found '00:00:01.000 --> 00:00:02'\n"
            + skipped + ":6: skipped: expected a cue timing line such as '00:01:02.000 --> 00:01:05.500', found text outside any "
            + "cue: 'hello there' (an empty line ends a cue)\n"
            + skipped + ":6: expected at least one cue, found none\n"
            + "import refused: 1 fault(s) in the vtt files; nothing was imported\n");
  }

  /** --strict: the first block not read as written refuses the file, as before 2026-12-04. */
  @Test
  void strictRefusesAFileAtItsFirstBlockNotReadAsWritten() throws Exception {
    strict("vtt", "timing.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02\nHi\n\n00:03.000 --> 00:04.000\nHo\n",
        "timing.vtt:3: expected a cue timing such as '00:01:02.000 --> 00:01:05.500', found '00:00:01.000 --> 00:00:02'");
    strict("vtt", "minutes.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:61.000\nHi\n\n00:03.000 --> 00:04.000\nHo\n",
        "minutes.vtt:3: expected a cue timing such as");
    strict("vtt", "inverted.vtt", "WEBVTT\r\n\r\n1\r\n00:00:02.000 --> 00:00:01.000\r\nHi\r\n",
        "inverted.vtt:4: the cue ends before it starts: '00:00:02.000 --> 00:00:01.000'");
    strict("vtt", "no-timing.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n\nhello there\nworld\n",
        "no-timing.vtt:6: expected a cue timing line such as '00:01:02.000 --> 00:01:05.500', found text outside any cue: "
            + "'hello there' (an empty line ends a cue)");
    strict("srt", "number.srt", "1\nHi there\n\n2\n00:00:01,000 --> 00:00:02,000\nHo\n",
        "number.srt:2: expected a timing line such as '00:01:02,000 --> 00:01:05,500' after the cue number 1");
    strict("srt", "inverted.srt", "1\n00:00:03,000 --> 00:00:02,999\nHi\n",
        "inverted.srt:2: the cue ends before it starts: '00:00:03,000 --> 00:00:02,999'");
    strict("srt", "words.srt", "1\n00:00:01,000 --> 00:00:02,000\nHi\n\nthen words\n",
        "words.srt:5: expected a cue number or a timing line such as '00:01:02,000 --> 00:01:05,500', found 'then words'");
  }

  /** A NUL or another control character in a quoted line is shown escaped, never as itself. */
  @Test
  void controlCharactersInQuotedLinesAreShownEscaped() throws Exception {
    strict("vtt", "nul.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:0\u00002.000\nHi\n\n00:03.000 --> 00:04.000\nHo\n",
        "nul.vtt:3: expected a cue timing such as '00:01:02.000 --> 00:01:05.500', found '00:00:01.000 --> 00:00:0\\u00002.000'");
    refused("vtt", "bell.vtt", "WEBVTT\u0007\n", "bell.vtt:1: expected the WebVTT header line 'WEBVTT', found 'WEBVTT\\u0007'");
    refused("fathom", "escape.json", FATHOM.replace("00:00:05", "00:00\\r\\u001b[2K05"),
        "escape.json:1: transcript[0].timestamp: expected the time said as HH:MM:SS, found '00:00\\u000d\\u001b[2K05'");
  }

  @Test
  void aFileThatIsNotUtf8IsRefusedSayingSoAndHowToConvertIt() throws Exception {
    Path file = dir().resolve("latin1.vtt");
    Files.write(file, new byte[] {'W', 'E', 'B', 'V', 'T', 'T', '\n', '\n', '0', '0', ':', '0', '1', '.', '0', '0', '0',
        ' ', '-', '-', '>', ' ', '0', '0', ':', '0', '2', '.', '0', '0', '0', '\n', 'M', (byte) 0xFC, 'l', 'l', 'e', 'r', '\n'});
    refused(List.of("--format", "vtt"), List.of(file), file + ":4: expected text in UTF-8, found a byte sequence that is not: "
        + "the file is not UTF-8 (nor UTF-16 with a byte order mark); convert it, e.g. from Windows-1252: "
        + "iconv -f WINDOWS-1252 -t UTF-8 " + file + " > " + dir().resolve("latin1.utf8.vtt") + "\n");
  }

  @Test
  void notetakerJsonWithoutTheFieldsItsFormatNeedsIsRefusedByPath() throws Exception {
    refused("fathom", "title-only.json", "{\"title\": \"x\"}", "title-only.json:1: expected a Fathom meeting with recording_id or url, found neither");
    refused("fathom", "fireflies.json", "{\"id\": \"abc\", \"title\": \"x\", \"sentences\": []}",
        "fireflies.json:1: expected a Fathom meeting with recording_id or url, found neither (a Fireflies transcript? use --format fireflies)");
    refused("fathom", "untitled.json", "{\"recording_id\": 1}", "untitled.json:1: title: expected title or meeting_title, found neither");
    refused("fathom", "array.json", "[\n" + FATHOM + ",\n" + FATHOM.replace("00:00:05", "5 min").replace("7", "8") + "\n]",
        "array.json:4: [1].transcript[0].timestamp: expected the time said as HH:MM:SS, found '5 min'");
    refused("fathom", "invitee.json", FATHOM.replace("\"created_at\"", "\"calendar_invitees\": [{\"email\": \"nobody\"}], \"created_at\""),
        "invitee.json:1: calendar_invitees[0].email: expected an email address, found 'nobody'");
    refused("fathom", "broken.json", "{\"recording_id\": 1,", "broken.json:1: expected JSON: ");
    refused("fathom", "numbers.json", "[1, 2]", "numbers.json:1: [0]: expected a JSON object, found number");
    refused("fireflies", "no-id.json", "{\"title\": \"x\"}", "no-id.json:1: id: expected a Fireflies transcript with an id, found none");
    refused("fireflies", "fathom.json", FATHOM,
        "fathom.json:1: id: expected a Fireflies transcript with an id, found none (a Fathom meeting? use --format fathom)");
    refused("fireflies", "times.ndjson", "{\"id\": \"a\", \"title\": \"A\"}\n{\"id\": \"b\", \"title\": \"B\", \"sentences\": "
            + "[{\"text\": \"hi\", \"start_time\": 1}, {\"text\": \"ho\", \"start_time\": \"soon\"}]}\n",
        "times.ndjson:2: sentences[1].start_time: expected a number, found 'soon'");
    refused("fireflies", "ends.json", "{\"id\": \"a\", \"title\": \"A\", \"sentences\": [{\"text\": \"hi\", \"start_time\": 2, \"end_time\": 1}]}",
        "ends.json:1: sentences[0].end_time: expected the end in seconds, not before start_time");
    refused("fireflies", "participants.json", "{\"id\": \"a\", \"title\": \"A\", \"participants\": [\"ann@acme.com, Ann\"]}",
        "participants.json:1: participants[0]: expected email addresses, found 'Ann'");
  }

  @Test
  void oneBadFileAmongGoodOnesImportsNoneAndEveryBadOneIsNamed() throws Exception {
    Path good = write("good.vtt", GOOD_VTT), bad = write("bad.vtt", "WEBVTT\n\n00:01.000 -> 00:02.000\nHi\n"),
        worse = write("worse.vtt", "1\n");
    refused(List.of("--format", "vtt"), List.of(good, bad, worse),
        "bad.vtt:3: skipped: expected a cue timing line such as '00:01:02.000 --> 00:01:05.500', found text outside any cue: "
            + "'00:01.000 -> 00:02.000' (an empty line ends a cue)",
        "bad.vtt:4: expected at least one cue, found none",
        "worse.vtt:1: expected the WebVTT header line 'WEBVTT', found '1'",
        "import refused: 2 fault(s) in the vtt files; nothing was imported");
    assertEquals(List.of(), api.hits(ALL, "zqrefusedword"));
  }

  @Test
  void whatTheImportItselfRefusesIsNamedByTheSourceFile() throws Exception {
    Path good = write("elsewhere.vtt", GOOD_VTT);
    CliRun run = refused(List.of("--format", "vtt", "--workspace", "nope"), List.of(good),
        "elsewhere.vtt: workspace: no workspace 'nope' in the database or on an earlier line");
    assertTrue(run.err().contains("import refused: 1 bad line(s); nothing was imported"), run.err());
    Path fathom = write("fathom-elsewhere.json", "[" + FATHOM + "," + FATHOM.replace("7", "9") + "]");
    refused(List.of("--format", "fathom", "--workspace", "nope"), List.of(fathom),
        "fathom-elsewhere.json:1: [0]: workspace: no workspace 'nope'", "fathom-elsewhere.json:2: [1]: workspace: no workspace 'nope'");
  }

  @Test
  void unusableOptionsAreUsageErrorsNamingTheOption() throws Exception {
    Path a = write("a.vtt", GOOD_VTT), b = write("b.vtt", GOOD_VTT.replace("Ann", "Bob"));
    usage("--workspace is required with --format vtt", "--format", "vtt", a.toString());
    usage("--format must be ndjson, vtt, srt, fathom or fireflies, not 'docx'", "--format", "docx", "--workspace", "acme", a.toString());
    usage("--id names one meeting: give one file with it", "--format", "vtt", "--workspace", "acme",
        "--id", "123e4567-e89b-12d3-a456-426614174000", a.toString(), b.toString());
    usage("--id must be a UUID", "--format", "vtt", "--workspace", "acme", "--id", "42", a.toString());
    usage("--starts-at must be an RFC 3339 date-time", "--format", "vtt", "--workspace", "acme", "--starts-at", "2026-03-02", a.toString());
    usage("--platform must be one of teams, meet, zoom, upload", "--format", "vtt", "--workspace", "acme", "--platform", "webex", a.toString());
    usage("--visible-to takes email addresses, not 'ann'", "--format", "vtt", "--workspace", "acme", "--visible-to", "ann@acme.com,ann", a.toString());
    usage("--title, --starts-at and --id name one meeting: they apply to --format vtt and srt only",
        "--format", "fathom", "--workspace", "acme", "--title", "x", a.toString());
    usage("apply to --format vtt, srt, fathom and fireflies; an NDJSON line names its own", "--workspace", "acme", a.toString());
    usage("a transcript read from standard input needs --title", "--format", "srt", "--workspace", "acme", "-");
    usage("--strict applies to --format vtt and srt only", "--format", "fathom", "--workspace", "acme", "--strict", a.toString());
    usage("--strict applies to --format vtt and srt only", "--strict", a.toString());
  }

  // ------------------------------------------------------------------ helpers

  private void refused(String format, String name, String text, String expected) throws Exception {
    refused(List.of("--format", format), List.of(write(name, text)), expected);
  }

  /** Refused with --strict, and imported without it. */
  private void strict(String format, String name, String text, String expected) throws Exception {
    Path file = write(name, text);
    refused(List.of("--format", format, "--strict"), List.of(file), expected);
    CliRun lenient = api.cli("import", "--format", format, "--workspace", "acme", file.toString());
    assertEquals(0, lenient.code(), lenient.err());
  }

  /** Runs the import with --workspace acme unless given; checks the refusal and that nothing changed. */
  private static CliRun refused(List<String> options, List<Path> files, String... expected) throws Exception {
    String cursor = api.cursor(ALL);
    long rows = rows();
    List<String> args = new java.util.ArrayList<>(List.of("import"));
    args.addAll(options);
    if (!options.contains("--workspace")) args.addAll(List.of("--workspace", "acme"));
    files.forEach(f -> args.add(f.toString()));
    CliRun run = api.cli(args.toArray(String[]::new));
    assertEquals(1, run.code(), run.out() + run.err());
    for (String e : expected) assertTrue(run.err().contains(e), "expected\n  " + e + "\nin\n" + run.err());
    assertEquals("", run.out());
    assertEquals(rows, rows(), "nothing is written");
    assertEquals(List.of(), api.changes(ALL, cursor));
    return run;
  }

  private static void usage(String expected, String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "import";
    System.arraycopy(args, 0, all, 1, args.length);
    CliRun run = api.cli(all);
    assertEquals(2, run.code(), run.err());
    assertTrue(run.err().contains(expected), "expected\n  " + expected + "\nin\n" + run.err());
  }

  /** Every row of the tables an import writes. */
  private static long rows() throws Exception {
    try (var c = api.store().write()) {
      long n = 0;
      for (String table : List.of("meeting", "meeting_viewer", "participant", "protocol", "action_item", "transcript_segment", "change_log")) {
        n += new Sql("SELECT count(*) FROM " + table).count(c);
      }
      return n;
    }
  }

  private static Path dir() throws IOException {
    return Files.createDirectories(api.dir().resolve("refused"));
  }

  private static Path write(String name, String text) throws IOException {
    return Files.writeString(dir().resolve(name), text);
  }
}
