package minutes;

import java.io.PrintWriter;
import minutes.cli.Cli;

/** Entry point: hands the arguments to the command line and exits with its code. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(Cli.run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }
}
