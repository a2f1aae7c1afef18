package minutes;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test whose answer does not depend on the store: it never opens a database, or (the docs
 * page in a browser) shows what is the same on either. The suite's second run, on PostgreSQL,
 * leaves it out by this tag (pom.xml), which moves with the class wherever it goes.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(StoreIndependent.TAG)
public @interface StoreIndependent {
  String TAG = "store-independent";
}
