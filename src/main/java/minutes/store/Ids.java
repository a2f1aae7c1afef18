package minutes.store;

import java.util.UUID;
import java.util.regex.Pattern;

/** The one definition of an id's shape: UUIDs, stored and compared in lower case. */
public final class Ids {
  private static final Pattern UUID_SHAPE =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private Ids() {}

  public static boolean isUuid(String s) {
    return s != null && UUID_SHAPE.matcher(s).matches();
  }

  /** Ids are stored lower-case; a file, a path or a filter may spell them in upper case. */
  public static String canonical(String uuid) {
    return UUID.fromString(uuid).toString();
  }
}
