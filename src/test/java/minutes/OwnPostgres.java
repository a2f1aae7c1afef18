package minutes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server of a test's own, for tests that stop and start it (the shared test
 * server must stay up): started and stopped with the same script functions as the suite's
 * (scripts/postgres.sh), on one port for its whole life, so clients reconnect to a restarted
 * server where they left it.
 */
public final class OwnPostgres implements AutoCloseable {
  private final Path dir;
  private final int port;

  private OwnPostgres(Path dir, int port) {
    this.dir = dir;
    this.port = port;
  }

  /**
   * Initialises a server in a new folder of its own and starts it on a free port. Not under a
   * test's @TempDir: run as root, the server's user could not enter that owner-only folder.
   */
  public static OwnPostgres start() throws IOException, InterruptedException {
    Path dir = java.nio.file.Files.createTempDirectory("minutes-own-pg-");
    String port = script("pg_start '" + dir + "' >&2 && echo $PG_PORT");
    return new OwnPostgres(dir, Integer.parseInt(port.trim()));
  }

  /** The superuser URL of the server's default database. */
  public String url() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
  }

  /** Stops the server at once, as a crash or a pulled cable would look to its clients. */
  public void stop() throws IOException, InterruptedException {
    script("pg_stop '" + dir + "'");
  }

  /** Starts the stopped server again, on the same port. */
  public void restart() throws IOException, InterruptedException {
    script("pg_start '" + dir + "' " + port + " >&2");
  }

  /** Stops the server and deletes its folder. */
  @Override
  public void close() throws IOException, InterruptedException {
    script("pg_stop '" + dir + "'; rm -rf '" + dir + "'");
  }

  private static String script(String commands) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("bash", "-c", "set -e; source scripts/postgres.sh; " + commands)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("scripts/postgres.sh failed: " + commands);
    }
    return out;
  }
}
