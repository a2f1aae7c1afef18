package minutes;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A test class that runs alone, after every other class (the others run beside each other:
 * src/test/resources/junit-platform.properties), for the reason its {@link #value} gives: it
 * checks a bound in wall-clock time that a busy neighbour could break (searchable within 2 s, a
 * retry after 5 s, a 1 ms statement limit that a key lookup must not meet), it swaps, pauses or
 * watches what the whole JVM shares (System.err, a forced GC, a JFR trace of every request
 * thread), or it failed beside others for a cause not yet understood. A new test with such a
 * bound or such a need takes this annotation and says why.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Isolated
public @interface RunsAlone {
  /** Why the class cannot run beside others: the bound or the shared state, in a few words. */
  String value();
}
