package minutes.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import minutes.StoreIndependent;
import org.junit.jupiter.api.Test;

@StoreIndependent
class QmsumCorpusTest {

  @Test
  void cleansMarkersAndTokenSpacing() {
    assertEquals(
        "Yeah, it's there. So Morgan wants it?",
        QmsumCorpus.clean("Yeah , it 's {disfmarker} there . So {vocalsound} Morgan wants it ?"));
    assertEquals("I'm not sure what that", QmsumCorpus.clean("I 'm not sure what that @ @ {disfmarker}"));
    assertEquals("Mm-hmm.", QmsumCorpus.clean("Mm - hmm ."));
    assertEquals("usually there'll be more", QmsumCorpus.clean("usually {there 'll be more"));
    assertEquals("", QmsumCorpus.clean("{vocalsound} {gap}"));
    assertEquals("So, there", QmsumCorpus.clean("So ,there"));
  }

  @Test
  void loadsAllMeetingsWithoutMarkup() {
    QmsumCorpus corpus = TestCorpus.get();
    assertEquals(197, corpus.meetings().size());
    for (QmsumCorpus.Meeting m : corpus.meetings()) {
      assertFalse(m.turns().isEmpty(), m.name());
      assertFalse(m.topics().isEmpty(), m.name());
      assertFalse(m.summary().isBlank(), m.name());
      for (QmsumCorpus.Turn t : m.turns()) {
        assertFalse(t.text().contains("{"), t.text());
        assertFalse(t.text().contains(" ,"), t.text());
        assertEquals(QmsumCorpus.utf8Length(t.text()), t.text().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
      }
    }
    QmsumCorpus.Meeting bdb = corpus.meeting("Bdb001");
    assertTrue(bdb.topics().getFirst().text().startsWith("Current XML format"));
    assertFalse(bdb.topics().getFirst().answers().isEmpty(), "answers are matched to topics by span");
  }
}
