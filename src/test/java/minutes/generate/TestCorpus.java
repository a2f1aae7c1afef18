package minutes.generate;

import java.io.IOException;
import java.io.UncheckedIOException;

/** The bundled QMSum corpus, loaded once for all the test classes that read it (a load takes a second of CPU). */
public final class TestCorpus {
  private static QmsumCorpus corpus;

  private TestCorpus() {}

  public static synchronized QmsumCorpus get() {
    if (corpus == null) {
      try {
        corpus = QmsumCorpus.load(QmsumCorpus.DEFAULT_PATH);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return corpus;
  }
}
