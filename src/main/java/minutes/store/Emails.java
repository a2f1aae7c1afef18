package minutes.store;

import java.util.regex.Pattern;

/** The one definition of an email's shape, for imports and parameters: text, one @, more text, no spaces. */
public final class Emails {
  private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+");

  private Emails() {}

  public static boolean isEmail(String s) {
    return s != null && EMAIL.matcher(s).matches();
  }
}
