package minutes.relevance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import minutes.StoreIndependent;
import minutes.relevance.Figures.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The relevance benchmark's own rules: query forms, labels, figures, the BM25 reference and the floor. */
@StoreIndependent
class RelevanceMeasuresTest {

  @Test
  void contentWordsLeaveOutStopWordsAndTheWordsThatAsk() {
    String q = "What did the group discuss about the remote's buttons?";
    assertEquals(q, QueryForms.ASKED.of(q));
    assertEquals("remote's buttons", QueryForms.CONTENT.of(q));
    String s = "Summarize the discussion about the current XML format to link up different components in data";
    assertEquals("current XML format link up different components data", QueryForms.CONTENT.of(s));
    assertEquals("current XML format", QueryForms.FIRST_THREE.of(s));
    assertEquals("voice unvoice detection", QueryForms.CONTENT.of("Summarize the discussion about voice-unvoice detection"));
    assertEquals("", QueryForms.FIRST_THREE.of("What was said?"), "a question of framing words only has no content word");
    assertEquals("Budget plan", QueryForms.CONTENT.of("Budget plan? The budget!"), "a repeated word counts once, as first written");
  }

  /** Dropped turns (markup only) keep the labels pointing at QMSum's own turn indices. */
  @Test
  void turnsKeepTheirIndexInQmsumWhenEmptyTurnsAreDropped(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("q.jsonl.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(("""
          {"name":"M1","topic_list":[{"topic":"Budget","relevant_text_span":[["1","2"]]}],\
          "general_query_list":[{"query":"Summarize the whole meeting.","answer":"They planned ."}],\
          "specific_query_list":[{"query":"What about the budget?","relevant_text_span":[["2","2"],["4","5"]]}],\
          "meeting_transcripts":[{"speaker":"A","content":"Hello ."},{"speaker":"B","content":"{vocalsound}"},\
          {"speaker":"A","content":"The budget is {disfmarker} fine ."}]}
          """).getBytes(StandardCharsets.UTF_8));
    }
    QmsumSet set = QmsumSet.load(file);
    QmsumSet.Meeting m = set.meetings().get(0);
    assertEquals("They planned.", m.summary());
    assertEquals(List.of(new QmsumSet.Turn(0, "A", "Hello."), new QmsumSet.Turn(2, "A", "The budget is fine.")), m.turns());
    QmsumSet.Query question = set.queries(QmsumSet.Kind.QUESTION).get(0);
    assertEquals("M1", question.meeting());
    assertTrue(question.answeredBy(2) && question.answeredBy(4) && question.answeredBy(5));
    assertFalse(question.answeredBy(3) || question.answeredBy(1) || question.answeredBy(6));
    assertEquals("Budget", set.queries(QmsumSet.Kind.TOPIC).get(0).text());

    try (Bm25Reference bm25 = new Bm25Reference(set)) {
      Figures f = bm25.measure(set.queries(QmsumSet.Kind.QUESTION), QueryForms.ASKED);
      assertEquals(new Figures(1, 100, 100, 100, 1, 100, 100), f, "the one meeting, and its turn 2 among the best");
      assertEquals(0, bm25.measure(List.of(new QmsumSet.Query(QmsumSet.Kind.QUESTION, "M1", "zebra", List.of())),
          QueryForms.ASKED).answered());
    }
  }

  @Test
  void figuresCountRanksUpToTenAndMomentsAsGiven() {
    Figures f = Figures.of(List.of(new Outcome(true, 1, true, true), new Outcome(true, 3, false, true),
        new Outcome(true, 7, false, false), new Outcome(true, 0, false, false), Outcome.NONE));
    assertEquals(5, f.queries());
    assertEquals(80, f.answered(), 1e-9);
    assertEquals(20, f.atOne(), 1e-9);
    assertEquals(40, f.topFive(), 1e-9);
    assertEquals((1 + 1 / 3.0 + 1 / 7.0) / 5, f.mrr(), 1e-9);
    assertEquals(20, f.moments(), 1e-9);
    assertEquals(40, f.inMeeting(), 1e-9);
  }

  @Test
  void theFloorFailsAFallOfMoreThanTwoPointsAndAModeNoLongerAnswered() {
    RelevanceTable.Row all = new RelevanceTable.Row(QmsumSet.Kind.QUESTION, QueryForms.ASKED, RelevanceTable.ALL);
    RelevanceTable.Row most = new RelevanceTable.Row(QmsumSet.Kind.QUESTION, QueryForms.ASKED, RelevanceTable.MOST);
    Map<RelevanceTable.Row, Figures> recorded = new LinkedHashMap<>();
    recorded.put(all, new Figures(10, 50, 20, 30, 0.25, 10, 10));
    recorded.put(most, null);
    String floor = RelevanceTable.floor(recorded);

    Map<RelevanceTable.Row, Figures> now = new LinkedHashMap<>();
    now.put(all, new Figures(10, 48.1, 20, 30, 0.231, 10, 10));
    now.put(most, new Figures(10, 90, 40, 60, 0.5, 30, 30));
    assertEquals(List.of(), RelevanceTable.fallen(now, floor), "2 points down is allowed; a mode new since is no fall");

    now.put(all, new Figures(10, 47.9, 20, 30, 0.229, 10, 10));
    assertEquals(2, RelevanceTable.fallen(now, floor).size(), RelevanceTable.fallen(now, floor).toString());

    recorded.put(most, new Figures(10, 90, 40, 60, 0.5, 30, 30));
    now.put(all, recorded.get(all));
    now.put(most, null);
    assertEquals(6, RelevanceTable.fallen(now, RelevanceTable.floor(recorded)).size(), "every figure of a mode gone");
  }
}
