package minutes;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import minutes.cli.Cli;

/** A command run in-process as a user runs it, with {@code --config FILE}, and what it printed. */
public record CliRun(int code, String out, String err) {

  public static CliRun of(Path config, String... args) {
    String[] withConfig = Arrays.copyOf(args, args.length + 2);
    withConfig[args.length] = "--config";
    withConfig[args.length + 1] = config.toString();
    StringWriter out = new StringWriter(), err = new StringWriter();
    int code = Cli.run(withConfig, new PrintWriter(out, true), new PrintWriter(err, true));
    return new CliRun(code, out.toString(), err.toString());
  }

  /** The last line printed to standard output (e.g. the key of {@code keys create}). */
  public String lastLine() {
    String[] lines = out.strip().split("\n");
    return lines[lines.length - 1].trim();
  }
}
