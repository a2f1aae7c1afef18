package minutes.relevance;

import java.util.List;

/**
 * One row of the relevance table: over a group of queries in one form, searched one way, the
 * share (in %) answered with at least one hit, with the right meeting first, with it among the
 * first 5, the mean reciprocal rank of the right meeting among the first 10 (0 to 1), the share
 * whose right meeting is among the 10 hits with a right turn among its first 3 moments, and the
 * share with a right turn among the first 3 segments found searching in the right meeting only.
 */
record Figures(int queries, double answered, double atOne, double topFive, double mrr, double moments,
    double inMeeting) {

  /** The figures' names, as the floor file and the table give them, in {@link #values()} order. */
  static final List<String> NAMES = List.of("answered", "at_1", "top_5", "mrr_10", "moments", "in_meeting");

  /**
   * What one query gave. {@code rank}: the right meeting's place among the (up to 10) hits,
   * from 1; 0 when it is not among them. {@code moment}: it is among them and a right turn is
   * among its first 3 moments. {@code inMeeting}: a right turn among the first 3 segments that
   * a search in the right meeting alone finds.
   */
  record Outcome(boolean answered, int rank, boolean moment, boolean inMeeting) {
    static final Outcome NONE = new Outcome(false, 0, false, false);
  }

  static Figures of(List<Outcome> outcomes) {
    int n = outcomes.size();
    return new Figures(n,
        percent(outcomes.stream().filter(Outcome::answered).count(), n),
        percent(outcomes.stream().filter(o -> o.rank() == 1).count(), n),
        percent(outcomes.stream().filter(o -> o.rank() >= 1 && o.rank() <= 5).count(), n),
        n == 0 ? 0 : outcomes.stream().mapToDouble(o -> o.rank() >= 1 && o.rank() <= 10 ? 1.0 / o.rank() : 0).sum() / n,
        percent(outcomes.stream().filter(Outcome::moment).count(), n),
        percent(outcomes.stream().filter(Outcome::inMeeting).count(), n));
  }

  List<Double> values() {
    return List.of(answered, atOne, topFive, mrr, moments, inMeeting);
  }

  /**
   * How far a figure may fall below its recorded value before the guard fails: 2 points, on
   * the percentages' scale; MRR (0 to 1) on its own scale, 0.02.
   */
  static double allowedFall(String name) {
    return name.equals("mrr_10") ? 0.02 : 2.0;
  }

  private static double percent(long count, int of) {
    return of == 0 ? 0 : 100.0 * count / of;
  }
}
