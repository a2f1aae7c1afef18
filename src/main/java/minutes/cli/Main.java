package minutes.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * Entry point: hands the arguments to the command line and exits with its code. It lives with
 * the commands, not beside {@code App}, so that the serve command's use of {@code App} is no
 * package cycle.
 */
public final class Main {
  private Main() {}

  // Lucene warns on every start that the optional vector module is off; it only speeds up
  // vector search, which minutes does not use. Held here because JUL keeps loggers weakly.
  private static final java.util.logging.Logger LUCENE_VECTORS =
      java.util.logging.Logger.getLogger("org.apache.lucene.internal.vectorization");

  public static void main(String[] args) {
    // Undertow and XNIO log through jboss-logging: route it to slf4j so every line has one format.
    System.setProperty("org.jboss.logging.provider", "slf4j");
    LUCENE_VECTORS.setLevel(java.util.logging.Level.SEVERE);
    // UTF-8 whatever the locale: names and titles are rarely ASCII.
    System.exit(Cli.run(args, new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true),
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true)));
  }
}
