package minutes.formats;

/**
 * A source that is not what its format needs: the file, the line (where a JSON object starts,
 * for the JSON formats), the JSON path when there is one, and what was expected. Printed as the
 * import prints a bad NDJSON line: {@code file:line: path: message}.
 */
public final class FormatError extends RuntimeException {
  private final String file;
  private final long line;
  private final String path;

  FormatError(String file, long line, String path, String message) {
    super(message, null, false, false);
    this.file = file;
    this.line = line;
    this.path = path;
  }

  @Override
  public String toString() {
    return file + ":" + line + ": " + (path == null || path.isEmpty() ? "" : path + ": ") + getMessage();
  }

  /**
   * Text from a source as a message quotes it: in single quotes, cut after 60 characters, and
   * control characters (C0, DEL, C1) written as {@code \u0000}, so that a terminal shows what
   * the file holds rather than acting on it (a NUL or a lone CR can make a bad line look right).
   */
  static String quote(String s) {
    String cut = s.length() <= 60 ? s : s.substring(0, 57) + "...";
    StringBuilder out = new StringBuilder(cut.length() + 2).append('\'');
    for (int i = 0; i < cut.length(); i++) {
      char c = cut.charAt(i);
      if (c < 0x20 || c >= 0x7f && c <= 0x9f) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('\'').toString();
  }
}
