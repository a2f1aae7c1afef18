package minutes.store;

import java.util.regex.Pattern;

/**
 * Emails: the one definition of their shape, for imports and parameters (text, one @, more
 * text, no spaces), and how they compare wherever the API matches them (visibility, users,
 * keys): ignoring the case of ASCII letters only, as SQLite's NOCASE does. Lower-casing all of
 * Unicode would let a key for "Ülla@x" see the meetings of "ülla@x".
 */
public final class Emails {
  private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+");

  private Emails() {}

  public static boolean isEmail(String s) {
    return s != null && EMAIL.matcher(s).matches();
  }

  /** The form emails are stored and looked up in where case does not count. */
  public static String key(String email) {
    char[] chars = email.toCharArray();
    for (int i = 0; i < chars.length; i++) {
      if (chars[i] >= 'A' && chars[i] <= 'Z') chars[i] += 'a' - 'A';
    }
    return new String(chars);
  }
}
