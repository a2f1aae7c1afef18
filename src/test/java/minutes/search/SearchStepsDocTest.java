package minutes.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/SEARCH.md's "One search, step by step" stays true to the code (issue 31 item 1): every
 * {@code file.java:line} it cites exists, a cited method name ({@code `file.java:line` `name`},
 * or {@code `:line` `name`} for the file cited last) is on that line, and the classes its count
 * sentence names are the classes its steps cite, no more than twelve.
 */
class SearchStepsDocTest {
  private static final Path MAIN = Path.of("src", "main", "java", "minutes");
  private static final Pattern CITE = Pattern.compile("`((?:[a-z]+/)?[A-Za-z]+\\.java)?:(\\d+)`(?: `(\\w+)`)?");
  private static final Pattern COUNT = Pattern.compile("A plain search passes (\\d+) project classes: ([^(]+?) \\(");

  private static String section() throws IOException {
    String doc = Files.readString(Path.of("docs", "SEARCH.md"));
    int from = doc.indexOf("## One search, step by step");
    assertTrue(from >= 0, "SEARCH.md has the section");
    return doc.substring(from, doc.indexOf("\n## ", from + 1));
  }

  @Test
  void everyCitedLineHoldsWhatTheStepNames() throws IOException {
    String file = null;
    List<String> wrong = new ArrayList<>();
    Matcher m = CITE.matcher(section());
    int cited = 0;
    while (m.find()) {
      if (m.group(1) != null) file = m.group(1);
      List<String> lines = Files.readAllLines(MAIN.resolve(file));
      int line = Integer.parseInt(m.group(2));
      cited++;
      if (line > lines.size()) {
        wrong.add(file + ":" + line + " is past the end");
      } else if (m.group(3) != null && !lines.get(line - 1).contains(m.group(3) + "(")) {
        wrong.add(file + ":" + line + " does not hold " + m.group(3) + ": " + lines.get(line - 1).strip());
      }
    }
    assertTrue(cited >= 12, "the steps cite their lines");
    assertEquals(List.of(), wrong);
  }

  @Test
  void theCountNamesTheClassesTheStepsCiteAtMostTwelve() throws IOException {
    String section = section();
    Matcher count = COUNT.matcher(section.replace('\n', ' '));
    assertTrue(count.find(), "the section says how many classes a plain search passes");
    Set<String> named = new LinkedHashSet<>(List.of(count.group(2).trim().split(",\\s*")));
    assertEquals(Integer.parseInt(count.group(1)), named.size(), "the count is the number of classes it names");
    assertTrue(named.size() <= 12, "at most 12 project classes: " + named);
    Set<String> cited = new LinkedHashSet<>();
    Matcher m = CITE.matcher(section);
    while (m.find()) {
      if (m.group(1) != null) cited.add(m.group(1).replaceAll(".*/|\\.java", ""));
    }
    // Reached only when the data changed since the generation, and only for moments asked for, as the section says.
    cited.removeAll(Set.of("ChangedSince", "Moments"));
    Set<String> notCited = new LinkedHashSet<>(named);
    notCited.removeAll(cited);
    notCited.remove("Params"); // cited as `http/Params`, without a line: every parameter passes it
    assertEquals(Set.of(), notCited, "each class counted has its step");
    cited.removeAll(named);
    assertEquals(Set.of(), cited, "each class cited is counted");
  }
}
