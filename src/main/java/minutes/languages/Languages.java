package minutes.languages;

import java.util.regex.Pattern;

/**
 * A meeting's language as the API names it (decisions.md "Languages"): a BCP 47 primary
 * language subtag, two or three lower-case ASCII letters ({@code en}, {@code de}, {@code zh});
 * {@code und} for a meeting whose language nobody gave and detection could not tell.
 * Stateless.
 */
public final class Languages {
  /** BCP 47's "undetermined": read with today's (English) rules, like {@code en}. */
  public static final String UNDETERMINED = "und";

  private static final Pattern SUBTAG = Pattern.compile("[a-z]{2,3}");

  private Languages() {}

  /** Whether {@code value} is a primary language subtag as the import and the filters take it. */
  public static boolean isSubtag(String value) {
    return value != null && SUBTAG.matcher(value).matches();
  }

  /** What to tell a client or an importer whose value is not one. */
  public static String expected(String name) {
    return name + " must be a BCP 47 primary language subtag: two or three lower-case letters such as en, de or zh";
  }
}
