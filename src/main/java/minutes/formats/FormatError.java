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
}
