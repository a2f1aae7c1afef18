package minutes;

import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * A property checked on generated cases: each case has a seed of its own and a size that grows
 * with the case number (the first cases are the smallest, often empty, so the first failure
 * found tends to be a small one), and a failure names the property, the case's seed and size,
 * so that it replays alone ({@link #example}) and can be kept as a named example test. The run's
 * seed is random unless {@code -Dproperty.seed=S} fixes it; the seed is in the failure message.
 * Stateless.
 *
 * <p>Why not jqwik: from 1.10 on its maintainers ask, in an "Anti-AI Usage Clause", that it not
 * be used with AI coding agents, and issue 30 allows an equivalent seeded generator.
 */
public final class Property {
  private Property() {}

  /** One generated case: its random source, its size (0 for the first case) and the seed that replays it. */
  public record Case(Random random, int size, long seed) {
    public int nextInt(int bound) {
      return random.nextInt(bound);
    }

    /** An int in [from, to], both included. */
    public int between(int from, int to) {
      return from + random.nextInt(to - from + 1);
    }

    public boolean chance(double p) {
      return random.nextDouble() < p;
    }

    public <T> T pick(List<T> from) {
      return from.get(random.nextInt(from.size()));
    }
  }

  /** A check of one case; it fails by throwing (an assertion error, or anything else). */
  @FunctionalInterface
  public interface Check {
    void run(Case c) throws Exception;
  }

  /** The run's seed: {@code -Dproperty.seed}, or random. */
  private static long runSeed() {
    Long fixed = Long.getLong("property.seed");
    return fixed != null ? fixed : new SplittableRandom().nextLong();
  }

  /** Runs {@code check} on {@code cases} cases of sizes 0 to {@code maxSize}; fails on the first that fails. */
  public static void forAll(String property, int cases, int maxSize, Check check) {
    forAll(property, cases, maxSize, () -> { }, check);
  }

  /**
   * As {@link #forAll(String, int, int, Check)}, then up to {@code cases} more cases (of size
   * {@code maxSize}) while {@code coverage}, the test's coverage assertions, still fails: the corners
   * a test requires are drawn by chance, and a run that met them too seldom by luck proves nothing
   * about the code; more cases only check more. The test asserts {@code coverage} itself afterwards.
   */
  public static void forAll(String property, int cases, int maxSize, Runnable coverage, Check check) {
    long runSeed = runSeed();
    SplittableRandom seeds = new SplittableRandom(runSeed);
    for (int i = 0; i < cases || i < 2 * cases && !holds(coverage); i++) {
      long seed = seeds.nextLong();
      int size = i >= cases - 1 ? maxSize : (int) ((long) i * maxSize / (cases - 1));
      try {
        check.run(new Case(new Random(seed), size, seed));
      } catch (Throwable t) {
        throw new AssertionError(String.format(
            "property \"%s\" failed at case %d of %d (size %d, case seed %dL; run seed %d, replay the run with "
                + "-Dproperty.seed=%d, the case with Property.example(%dL, %d, ...)): %s",
            property, i, cases, size, seed, runSeed, runSeed, seed, size, t), t);
      }
    }
  }

  private static boolean holds(Runnable assertions) {
    try {
      assertions.run();
      return true;
    } catch (AssertionError e) {
      return false;
    }
  }

  /** Runs {@code check} on the one case that a failure message named. */
  public static void example(long seed, int size, Check check) throws Exception {
    check.run(new Case(new Random(seed), size, seed));
  }
}
