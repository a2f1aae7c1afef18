package minutes.generate;

import java.util.SplittableRandom;

/** Hands out the task total over all protocols of a generated corpus, uneven but exact in sum. Not thread-safe. */
final class TaskBudget {
  private final long total;
  private final long protocols;
  private final long spread;
  private long handedOut;
  private long seen;

  TaskBudget(long total, long protocols) {
    this.total = total;
    this.protocols = protocols;
    this.spread = protocols == 0 ? 0 : total / protocols / 2;
  }

  /**
   * Follows the even share, plus or minus half an average: each protocol stays within that of
   * the running target, and the last one takes exactly what is left.
   */
  int next(SplittableRandom rnd) {
    seen++;
    long target = (long) ((double) total * seen / protocols);
    if (seen == protocols) {
      target = total;
    } else if (spread > 0) {
      target += rnd.nextLong(-spread, spread + 1);
    }
    long count = Math.max(0, Math.min(total, target) - handedOut);
    handedOut += count;
    return (int) count;
  }
}
