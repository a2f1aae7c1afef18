package minutes;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of minutes' CLI ({@code minutes.cli.Main}) in a JVM of its own, for the tests
 * that need a real process (to kill, to signal, or as a second node): this JVM and its test
 * class path; the client compiler (as the suite's own JVM, pom.xml) and the serial collector
 * with a small heap, since such a process lives seconds and serves a few requests.
 */
public final class TestJvm {
  private TestJvm() {}

  public static List<String> command(String... args) {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", cp,
        "minutes.cli.Main"));
    cmd.addAll(List.of(args));
    return cmd;
  }
}
