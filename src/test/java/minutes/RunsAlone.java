package minutes;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A test class that runs alone, after every other class: it checks a bound in wall-clock time
 * that a busy neighbour could break (searchable within 2 s, a retry after 5 s, a 1 ms statement
 * limit that a key lookup must not meet, a 50 ms queue wait), or it swaps, pauses or watches
 * what the whole JVM shares (System.err, a forced GC, a JFR trace of every request thread), or
 * it needs the shared PostgreSQL server quiet (a VACUUM of a page another reader pins, whose
 * outcome once changed with load on the server). The other classes run beside each other,
 * three at a time (src/test/resources/junit-platform.properties). A new test with such a bound
 * or such a need takes this annotation.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Isolated
public @interface RunsAlone {}
