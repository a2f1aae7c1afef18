package minutes;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

/**
 * A test class that spends most of its time waiting on a contract's timer (a lease, a drain
 * bound, a pool's wait, a killed process) rather than on the CPU: it runs on a second thread
 * while the other classes run one after another on the first (src/test/resources/
 * junit-platform.properties). Its own waits stay as they are. Classes that replace the JVM's
 * standard error take it exclusively ({@code @ResourceLock(Resources.SYSTEM_ERR)}), since a
 * class running beside them may log there.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(value = Resources.SYSTEM_ERR, mode = ResourceAccessMode.READ)
public @interface RunsBesideOthers {}
