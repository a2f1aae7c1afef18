package minutes.store;

/**
 * A fault at a line of an input file, as the import and the format converters report it:
 * {@code FILE:LINE: path: message}, the path (a field of an NDJSON line, a JSON path of a
 * notetaker's object) left out when there is none (null). Immutable.
 */
public record LineError(String file, long line, String path, String message) {
  @Override
  public String toString() {
    return in(place(file, line, null));
  }

  /**
   * The error said of another place than its own line, e.g. the source a converted line came
   * from: {@code place: path: message}.
   */
  public String in(String place) {
    return place + ": " + (path == null ? "" : path + ": ") + message;
  }

  /** A place in a file as errors name it: {@code FILE:LINE}, then {@code : path} when there is one. */
  public static String place(String file, long line, String path) {
    return file + ":" + line + (path == null ? "" : ": " + path);
  }
}
