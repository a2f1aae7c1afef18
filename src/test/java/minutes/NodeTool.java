package minutes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a Node.js program of src/test/node (whose packages the build installs, see pom.xml) and
 * returns what it printed; a program that fails or hangs fails the test, and never outlives it.
 */
public final class NodeTool {
  public static final Path DIR = Path.of("src", "test", "node");
  private static final long TIMEOUT_SECONDS = 120;

  private NodeTool() {}

  /** What a finished run printed, and how it exited. */
  public record Run(int exit, String out, String err) {}

  /** Runs {@code node ARGS...} in src/test/node with extra environment variables. */
  public static Run node(Map<String, String> env, String... args) throws IOException, InterruptedException {
    if (!Files.isDirectory(DIR.resolve("node_modules"))) {
      throw new AssertionError(DIR.resolve("node_modules") + " is missing: mvn verify installs it (npm ci in " + DIR + ")");
    }
    List<String> command = new ArrayList<>(List.of("node"));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(DIR.toFile());
    pb.environment().putAll(env);
    pb.environment().put("NO_COLOR", "1");
    Path out = Files.createTempFile("node-out-", ".txt"), err = Files.createTempFile("node-err-", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    try {
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new AssertionError("node " + String.join(" ", args) + " did not finish in " + TIMEOUT_SECONDS + " s");
      }
      return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      p.destroyForcibly();
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
