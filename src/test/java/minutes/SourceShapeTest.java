package minutes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
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
 * test the build leaves out of a run by its path names a test that exists, since a test moved
 * to another package otherwise runs where it was meant not to, unnoticed.
 */
@StoreIndependent
class SourceShapeTest {
  static final int MAX_LINE = 140;
  static final int MAX_FILE_LINES = 400;
  private static final Path TESTS = Path.of("src/test/java");

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
    List<Path> tests;
    try (Stream<Path> files = Files.walk(TESTS)) {
      tests = files.map(TESTS::relativize).toList();
    }
    List<String> missing = new ArrayList<>();
    Matcher exclude = Pattern.compile("<exclude>([^<]+)</exclude>").matcher(Files.readString(Path.of("pom.xml")));
    while (exclude.find()) {
      PathMatcher named = TESTS.getFileSystem().getPathMatcher("glob:" + exclude.group(1));
      if (tests.stream().noneMatch(named::matches)) missing.add(exclude.group(1));
    }
    assertEquals(List.of(), missing, "pom.xml leaves out tests that are not there (moved or renamed?)");
  }
}
