package minutes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shape the project keeps its code in (AGENTS.md, "How we write code"), checked so that it
 * holds without anyone counting: no line of {@code src/main} longer than {@link #MAX_LINE}
 * characters (a reader sees it whole beside another file) and no file of it longer than
 * {@link #MAX_FILE_LINES} lines (a file longer than that holds more than one idea).
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
}
