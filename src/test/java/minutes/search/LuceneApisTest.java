package minutes.search;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import minutes.StoreIndependent;
import org.apache.lucene.util.Version;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lucene's unstable surface, named where it is taken (issue 31 item 3): the classes src/main
 * refers to that Lucene marks experimental or internal (per src/test/resources/lucene-apis.txt)
 * are exactly those docs/SEARCH.md lists, and each file that uses one says, in a comment
 * starting "Risk:", what breaks and how we would notice; and the methods of stable classes that
 * Lucene marks so, which SEARCH.md's second table lists, are those the Risk: comments name, file
 * by file. Keyed on what src/main refers to when the test runs, so that a class added or dropped
 * by any change shows here.
 */
@StoreIndependent
class LuceneApisTest {
  private static final Path MAIN = Path.of("src", "main", "java");
  private static final Path SEARCH_MD = Path.of("docs", "SEARCH.md");
  private static final String SECTION = "### Lucene APIs used beyond the stable ones";
  private static final Pattern QUALIFIED = Pattern.compile("\\borg\\.apache\\.lucene\\.(?:[a-z0-9_]+\\.)+[A-Z]\\w*(?:\\.[A-Z]\\w*)*");
  /** A comment: a block, or a run of line comments. */
  private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|(?://[^\\n]*\\n\\s*)+", Pattern.DOTALL);

  private static String luceneVersion;
  /** Every catalogued Lucene class, by qualified name: stable, experimental or internal. */
  private static final Map<String, String> stability = new TreeMap<>();
  /** The Lucene classes each file of src/main refers to, by qualified name. */
  private static final Map<Path, Set<String>> uses = new TreeMap<>();

  @BeforeAll
  static void read() throws IOException {
    try (InputStream in = LuceneApisTest.class.getResourceAsStream("/lucene-apis.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) continue;
        String[] f = line.trim().split(" ");
        if (f[0].equals("lucene")) luceneVersion = f[1];
        else stability.put(f[0], f[1]);
      }
    }
    try (Stream<Path> files = Files.walk(MAIN)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        Set<String> used = luceneClasses(Files.readString(file));
        if (!used.isEmpty()) uses.put(file, used);
      }
    }
  }

  /**
   * The Lucene classes a source file names: imported or written out in full, and the nested
   * types it reaches through them ({@code PhraseQuery.PostingsAndFreq}).
   */
  static Set<String> luceneClasses(String source) {
    Set<String> named = new TreeSet<>();
    QUALIFIED.matcher(source).results().forEach(m -> named.add(m.group()));
    for (String outer : List.copyOf(named)) {
      String simple = outer.substring(outer.lastIndexOf('.') + 1);
      Matcher nested = Pattern.compile("(?<![\\w.])" + simple + "\\.([A-Z]\\w*)").matcher(source);
      while (nested.find()) {
        if (nested.group(1).chars().anyMatch(Character::isLowerCase)) named.add(outer + "." + nested.group(1)); // not a CONSTANT
      }
    }
    return named;
  }

  private static boolean unstable(String luceneClass) {
    return !stability.get(luceneClass).equals("stable");
  }

  /** A Lucene class as docs/SEARCH.md names it: its simple name, with its outer class when nested. */
  private static String documented(String luceneClass) {
    return luceneClass.replaceAll("^org\\.apache\\.lucene\\.(?:[a-z0-9_]+\\.)+", "");
  }

  @Test
  void theCatalogueIsForTheLuceneInUse() {
    assertEquals(Version.LATEST.toString(), luceneVersion,
        "Lucene was upgraded: check each class of src/test/resources/lucene-apis.txt against the new javadoc");
  }

  @Test
  void everyLuceneClassSrcMainUsesIsCatalogued() {
    Set<String> missing = new TreeSet<>();
    uses.values().forEach(used -> used.stream().filter(c -> !stability.containsKey(c)).forEach(missing::add));
    assertEquals(Set.of(), missing, "read each class's javadoc (@lucene.experimental, @lucene.internal) and add it to "
        + "src/test/resources/lucene-apis.txt");
  }

  @Test
  void searchMdListsExactlyTheUnstableClassesSrcMainUses() throws IOException {
    Set<String> used = new TreeSet<>();
    uses.values().forEach(u -> u.stream().filter(stability::containsKey).filter(LuceneApisTest::unstable)
        .map(LuceneApisTest::documented).forEach(used::add));
    assertTrue(used.size() > 5, "the scan finds the unstable classes src/main uses: " + used);
    assertEquals(used, classesListed(Files.readString(SEARCH_MD)), "docs/SEARCH.md, \"" + SECTION + "\"");
  }

  @Test
  void everyFileUsingOneNamesItsRiskInAComment() throws IOException {
    List<String> unnamed = new ArrayList<>();
    for (Map.Entry<Path, Set<String>> file : uses.entrySet()) {
      String risks = risks(Files.readString(file.getKey()));
      for (String c : file.getValue()) {
        String simple = c.substring(c.lastIndexOf('.') + 1);
        if (stability.containsKey(c) && unstable(c) && !Pattern.compile("\\b" + simple + "\\b").matcher(risks).find()) {
          unnamed.add(file.getKey().getFileName() + ": " + simple);
        }
      }
    }
    assertEquals(List.of(), unnamed, "a comment starting \"Risk:\" at the use says what breaks and how we would notice");
  }

  /**
   * The second table of the section, "Methods of otherwise stable classes", and the {@code Risk:}
   * comments of src/main agree, as pairs of a file and a method: each file a row names under
   * "used in" names each method of the row in a Risk comment, and each method of a stable class
   * a Risk comment names is in a row with that file. Both sides are read by {@link #methodsNamed}.
   */
  @Test
  void theMethodTableAndTheRiskCommentsNameTheSameMethodsInTheSameFiles() throws IOException {
    Set<String> inComments = new TreeSet<>();
    try (Stream<Path> files = Files.walk(MAIN)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        String name = file.getFileName().toString().replaceFirst("\\.java$", "");
        methodsNamed(risks(Files.readString(file))).forEach(m -> inComments.add(name + ": " + m));
      }
    }
    Set<String> inTable = methodRows(Files.readString(SEARCH_MD));
    assertTrue(inTable.size() >= 8, "the table is read: " + inTable);
    Set<String> unnamed = new TreeSet<>(inTable), unlisted = new TreeSet<>(inComments);
    unnamed.removeAll(inComments);
    unlisted.removeAll(inTable);
    String table = "docs/SEARCH.md, \"" + SECTION + "\", the table headed \"| method |\"";
    assertEquals(Set.of(), unnamed, "in " + table + " but named by no Risk: comment of that file (FILE: METHOD)");
    assertEquals(Set.of(), unlisted, "named by a Risk: comment but not in " + table + " with that file (FILE: METHOD)");
  }

  /**
   * The methods and constructors of stable Lucene classes (lucene-apis.txt) that a text names:
   * {@code Class.method} (a lower-case name after the dot; argument lists do not count) and a
   * constructor as {@code Class(...)} or {@code Class's constructor}, both read as
   * {@code Class(...)}. Backticks are ignored, so that a table cell and a comment read alike.
   */
  static Set<String> methodsNamed(String text) {
    String plain = text.replace("`", "");
    Set<String> stable = stableSimpleNames(), named = new TreeSet<>();
    Matcher m = METHOD_OR_CONSTRUCTOR.matcher(plain);
    while (m.find()) {
      if (!stable.contains(m.group(1))) continue;
      named.add(m.group(2) != null ? m.group(1) + "." + m.group(2) : m.group(1) + "(...)");
    }
    return named;
  }

  private static final Pattern METHOD_OR_CONSTRUCTOR =
      Pattern.compile("(?<![\\w.#])([A-Z]\\w*)(?:\\.([a-z]\\w*)|\\(|'s constructor)");

  /** Simple names of the classes lucene-apis.txt calls stable (a nested one by its own name). */
  private static Set<String> stableSimpleNames() {
    Set<String> names = new TreeSet<>();
    stability.forEach((c, s) -> {
      if (s.equals("stable")) names.add(c.substring(c.lastIndexOf('.') + 1));
    });
    return names;
  }

  /** "FILE: METHOD" for each method of each row of the section's table headed "| method |" and each file of its "used in". */
  static Set<String> methodRows(String markdown) {
    Set<String> pairs = new TreeSet<>();
    for (String line : rows(markdown, "| method |")) {
      String[] cells = line.split("\\|");
      Set<String> methods = methodsNamed(cells[1]);
      assertTrue(!methods.isEmpty(), "a row names no method of a stable class: " + line);
      Matcher file = Pattern.compile("`(\\w+)`").matcher(cells[2]);
      boolean any = false;
      while (file.find()) {
        any = true;
        for (String m : methods) pairs.add(file.group(1) + ": " + m);
      }
      assertTrue(any, "a row names no file: " + line);
    }
    return pairs;
  }

  @Test
  void methodsAreReadAsTheTableAndTheCommentsWriteThem() {
    assertEquals(Set.of("IndexSearcher(...)", "IndexSearcher.search", "IndexSearcher.createWeight", "PhraseWeight(...)",
        "LeafReader.checkIntegrity"),
        methodsNamed("`IndexSearcher(IndexReader, Executor)`, `IndexSearcher.search(Query, CollectorManager)`; "
            + "IndexSearcher.createWeight, `PhraseWeight`'s constructor and LeafReader.checkIntegrity"));
    assertEquals(Set.of(), methodsNamed("IndexSearcher.LeafSlice, IndexWriter.WRITE_LOCK_NAME, Similarity.computeNorm "
        + "(experimental class), SegmentReader#getSegmentInfo(), foldToASCII, org.apache.lucene.search.IndexSearcher"),
        "nested types, constants, unstable classes, javadoc links and bare method names are not methods of the table");
  }

  @Test
  void theScanFindsImportsFullNamesAndNestedTypes() {
    String source = """
        import org.apache.lucene.search.PhraseQuery;
        import org.apache.lucene.util.ArrayUtil;
        class X {
          PhraseQuery.PostingsAndFreq p; int n = PhraseQuery.MAX; // a constant is no type
          org.apache.lucene.index.SegmentInfos infos;
        }
        """;
    assertEquals(Set.of("org.apache.lucene.search.PhraseQuery", "org.apache.lucene.search.PhraseQuery.PostingsAndFreq",
        "org.apache.lucene.util.ArrayUtil", "org.apache.lucene.index.SegmentInfos"), luceneClasses(source));
  }

  /** The text after "Risk:" of every comment that has one. */
  private static String risks(String source) {
    StringBuilder risks = new StringBuilder();
    Matcher m = COMMENT.matcher(source);
    while (m.find()) {
      int at = m.group().indexOf("Risk:");
      if (at >= 0) risks.append(m.group(), at, m.group().length()).append('\n');
    }
    return risks.toString();
  }

  /** The text of the section {@value #SECTION}, up to the next heading. */
  private static String section(String markdown) {
    int from = markdown.indexOf(SECTION);
    assertTrue(from >= 0, "docs/SEARCH.md has the section \"" + SECTION + "\"");
    String section = markdown.substring(from + SECTION.length());
    int next = section.indexOf("\n#");
    return next >= 0 ? section.substring(0, next) : section;
  }

  /** The classes named in backticks in the first column of the section's class table (the one headed "| class |"). */
  static Set<String> classesListed(String markdown) {
    Set<String> listed = new TreeSet<>();
    for (String line : rows(markdown, "| class |")) {
      Matcher name = Pattern.compile("`([A-Za-z0-9.]+)`").matcher(line.split("\\|")[1]);
      while (name.find()) listed.add(name.group(1));
    }
    return listed;
  }

  /** The body rows of the section's table whose header line starts with {@code header}. */
  private static List<String> rows(String markdown, String header) {
    List<String> rows = new ArrayList<>();
    boolean inTable = false;
    for (String line : section(markdown).split("\n")) {
      if (line.startsWith(header)) inTable = true;
      else if (!line.startsWith("|")) inTable = false;
      else if (inTable && !line.startsWith("|---")) rows.add(line);
    }
    return rows;
  }
}
