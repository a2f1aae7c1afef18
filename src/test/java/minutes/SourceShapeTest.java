package minutes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shape the project keeps its code in (AGENTS.md, "How we write code"), checked so that it
 * holds without anyone counting: no line of {@code src/main} longer than {@link #MAX_LINE}
 * characters (a reader sees it whole beside another file) and no file of it longer than
 * {@link #MAX_FILE_LINES} lines (a file longer than that holds more than one idea); and every
 * test the build leaves out of a run names a test that exists, since a test moved to another
 * package otherwise runs where it was meant not to, unnoticed.
 */
class SourceShapeTest {
  static final int MAX_LINE = 140;
  static final int MAX_FILE_LINES = 400;

  @Test
  void everyMainSourceLineAndFileFits() throws IOException {
    List<String> tooLong = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
        List<String> lines = Files.readAllLines(file);
        if (lines.size() > MAX_FILE_LINES) tooLong.add(file + ": " + lines.size() + " lines");
        for (int i = 0; i < lines.size(); i++) {
          int length = lines.get(i).codePointCount(0, lines.get(i).length());
          if (length > MAX_LINE) tooLong.add(file + ":" + (i + 1) + ": " + length + " characters");
        }
      }
    }
    assertEquals(List.of(), tooLong, "lines over " + MAX_LINE + " characters, files over " + MAX_FILE_LINES + " lines");
  }

  @Test
  void everyExcludedTestExists() throws IOException {
    List<String> missing = new ArrayList<>();
    Matcher exclude = Pattern.compile("<exclude>([^<]+)</exclude>").matcher(Files.readString(Path.of("pom.xml")));
    while (exclude.find()) {
      String path = exclude.group(1);
      int slash = path.lastIndexOf('/');
      Path dir = Path.of("src/test/java", path.substring(0, slash));
      String glob = "glob:" + path.substring(slash + 1);
      boolean found;
      try (Stream<Path> files = Files.isDirectory(dir) ? Files.list(dir) : Stream.empty()) {
        found = files.anyMatch(f -> dir.getFileSystem().getPathMatcher(glob).matches(f.getFileName()));
      }
      if (!found) missing.add(path);
    }
    assertEquals(List.of(), missing, "pom.xml leaves out tests that are not there (moved or renamed?)");
  }
}
