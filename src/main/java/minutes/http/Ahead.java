package minutes.http;

import java.util.OptionalLong;
import minutes.keys.ApiKeys;
import minutes.keys.Principal;

/**
 * An answer made ahead of its key check ({@link Routes#apiByStatement}): the body, or the error the
 * endpoint threw, for the principal the key had at its last request, and the data version the
 * answer assumed (empty: the answer holds at any version, as a refused parameter does). It is
 * sent only when the key's statement, run meanwhile, {@link #holdsFor confirms} both;
 * otherwise the request is answered again as usual. Immutable.
 */
public record Ahead(Principal principal, Object body, RuntimeException failure, OptionalLong dataVersion) {

  /** An answer ahead. */
  public static Ahead answer(Principal principal, Object body, long dataVersion) {
    return new Ahead(principal, body, null, OptionalLong.of(dataVersion));
  }

  /** A refusal ahead that depends on neither the data nor the version (a bad parameter: 400). */
  public static Ahead refusal(Principal principal, RuntimeException failure) {
    return new Ahead(principal, null, failure, OptionalLong.empty());
  }

  /** Whether this is the answer the route would give the caller the key's statement found. */
  boolean holdsFor(ApiKeys.Resolved caller) {
    return principal.equals(caller.principal())
        && (dataVersion.isEmpty() || dataVersion.equals(caller.dataVersion()));
  }

  Object get() {
    if (failure != null) throw failure;
    return body;
  }

  /** An endpoint that can answer ahead of its key check; {@link #answer} as usual otherwise. */
  public interface Endpoint extends minutes.http.Endpoint {
    /**
     * The answer for {@code principal} without the database, or null when this request needs
     * the database first. Never throws: what it would throw goes into the answer.
     */
    Ahead ahead(Principal principal, Params params);
  }
}
