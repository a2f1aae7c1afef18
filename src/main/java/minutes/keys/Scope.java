package minutes.keys;

import java.util.Optional;

/** The three scopes a key can hold (api-spec section 5). */
public enum Scope {
  MEETINGS_READ("meetings:read"),
  ACTION_ITEMS_READ("action_items:read"),
  TRANSCRIPTS_READ("transcripts:read");

  private final String value;

  Scope(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  public static Optional<Scope> parse(String s) {
    for (Scope scope : values()) if (scope.value.equals(s)) return Optional.of(scope);
    return Optional.empty();
  }
}
