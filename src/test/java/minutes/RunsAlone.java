package minutes;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A test class that must not share the machine with another: it checks a bound in wall-clock
 * time that a busy neighbour could break (searchable within 2 s, a retry after 5 s, a 1 ms
 * statement limit that must not fire on a key lookup, a 50 ms queue wait), or it swaps or
 * pauses what the whole JVM shares (System.err, a forced GC). Every other class runs beside
 * others, three at a time (src/test/resources/junit-platform.properties); these run one after
 * another once those are done; so does a test that watches the whole JVM (a JFR trace of the
 * request threads). A new test with such a bound takes this annotation.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Isolated
public @interface RunsAlone {}
