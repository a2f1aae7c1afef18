package minutes;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test (a class, or one method of a class that otherwise runs on both) whose answer does not
 * depend on the store: it never opens a database, or shows what is the same on either (the
 * docs page in a browser, the change stream's keep-alive comment on an idle connection). The
 * suite's second run, on PostgreSQL, leaves it out by this tag (pom.xml), which moves with the
 * test wherever it goes.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(StoreIndependent.TAG)
public @interface StoreIndependent {
  String TAG = "store-independent";
}
