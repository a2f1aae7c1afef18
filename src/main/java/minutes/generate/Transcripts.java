package minutes.generate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import minutes.formats.ImportWriter.Segment;
import minutes.generate.CorpusGenerator.Options;
import minutes.generate.CorpusGenerator.Person;
import minutes.generate.QmsumCorpus.Turn;

/**
 * The transcripts of generated meetings: QMSum talk of the size a run asks for, varied so
 * that meetings differ. Prepared once per corpus; the same random stream gives the same text.
 * Not thread-safe.
 */
final class Transcripts {
  // Turns are shuffled within windows this long: the talk stays locally coherent.
  private static final int WINDOW = 8;

  private final QmsumCorpus corpus;
  private final String[] vocabulary;

  Transcripts(QmsumCorpus corpus) {
    this.corpus = corpus;
    Set<String> words = new HashSet<>();
    corpus.meetings().forEach(m -> m.turns().forEach(t -> collectWords(t.text(), words)));
    vocabulary = words.stream().sorted().toArray(String[]::new);
  }

  /**
   * QMSum turns from a random point on, shuffled within short windows, voiced by the attendees
   * in rotation and with some words swapped, until the size drawn from the range is reached.
   */
  List<Segment> transcript(
      Options options,
      String status, QmsumCorpus.Meeting first, List<Person> speakers, SplittableRandom rnd) {
    long max = options.transcriptMaxKb() * 1024L;
    if (max == 0) {
      return List.of();
    }
    switch (status) {
      case "scheduled", "no_bot", "failed" -> {
        return List.of();
      }
      case "no_speech" -> {
        Person p = speakers.getFirst();
        return List.of(
            new Segment(p.name(), p.email(), 0, 1600L, "Hello? Can anyone hear me?"),
            new Segment(p.name(), p.email(), 4200, 6000L, "Looks like nobody has joined yet."));
      }
      default -> {}
    }
    long min = options.transcriptMinKb() * 1024L;
    long target = min + rnd.nextLong(max - min + 1);
    List<Segment> segments = new ArrayList<>();
    Map<String, Person> voices = new HashMap<>();
    int rotation = rnd.nextInt(speakers.size());
    List<Turn> turns = first.turns();
    int pos = rnd.nextInt(turns.size());
    int[] window = new int[WINDOW];
    long bytes = 0;
    long clock = 0;
    while (bytes < target) {
      int n = Math.min(WINDOW, turns.size() - pos);
      if (n <= 0) {
        turns = corpus.meetings().get(rnd.nextInt(corpus.meetings().size())).turns();
        pos = 0;
        continue;
      }
      for (int k = 0; k < n; k++) {
        int swap = rnd.nextInt(k + 1);
        window[k] = window[swap];
        window[swap] = pos + k;
      }
      pos += n;
      for (int k = 0; k < n && bytes < target; k++) {
        Turn turn = turns.get(window[k]);
        String text = turn.text();
        long length = turn.utf8Length();
        if (rnd.nextInt(10) == 0) {
          text = substituteWord(text, rnd);
          length = QmsumCorpus.utf8Length(text);
        }
        if (bytes + length > max) {
          text = fit(text, max - bytes, min - bytes);
          if (text.isEmpty()) {
            return segments;
          }
          length = QmsumCorpus.utf8Length(text);
        }
        Person who =
            voices.computeIfAbsent(
                turn.speaker(), s -> speakers.get((rotation + voices.size()) % speakers.size()));
        long end = clock + MinutesText.speechMs(text);
        segments.add(new Segment(who.name(), who.internal() ? who.email() : null, clock, end, text));
        clock = end + 250 + rnd.nextInt(950);
        bytes += length;
      }
    }
    return segments;
  }

  /**
   * The longest prefix within {@code budget} bytes, cut at a word when that still leaves
   * {@code need} bytes.
   */
  private static String fit(String text, long budget, long need) {
    int end = 0;
    long bytes = 0;
    while (end < text.length()) {
      int cp = text.codePointAt(end);
      int size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (bytes + size > budget) {
        break;
      }
      bytes += size;
      end += Character.charCount(cp);
    }
    int space = text.lastIndexOf(' ', end);
    if (end < text.length() && space > 0 && QmsumCorpus.utf8Length(text.substring(0, space)) >= need) {
      end = space;
    }
    return text.substring(0, end);
  }

  /** Swaps one longer word for a word from elsewhere in the corpus, so meetings differ. */
  private String substituteWord(String text, SplittableRandom rnd) {
    int from = rnd.nextInt(text.length());
    while (from < text.length() && Character.isLetter(text.charAt(from))) {
      from++;
    }
    while (from < text.length() && !Character.isLetter(text.charAt(from))) {
      from++;
    }
    int to = from;
    while (to < text.length() && Character.isLetter(text.charAt(to))) {
      to++;
    }
    if (to - from < 4) {
      return text;
    }
    return text.substring(0, from) + vocabulary[rnd.nextInt(vocabulary.length)] + text.substring(to);
  }

  private static void collectWords(String text, Set<String> words) {
    int i = 0;
    while (i < text.length()) {
      while (i < text.length() && !Character.isLowerCase(text.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < text.length() && Character.isLowerCase(text.charAt(i))) {
        i++;
      }
      if (i - start >= 5 && i - start <= 12) {
        words.add(text.substring(start, i));
      }
    }
  }
}
