package minutes.cli;

import java.io.PrintWriter;

/**
 * A progress bar redrawn in place on a terminal, at most four times a second; silent when
 * the output is not a terminal (CI logs, pipes). Not thread-safe.
 */
public final class ProgressLine {
  private static final long INTERVAL_NANOS = 250_000_000L;
  private final PrintWriter err;
  private final boolean enabled = System.console() != null;
  private long lastDrawn = Long.MIN_VALUE;
  private boolean drawn;

  public ProgressLine(PrintWriter err) {
    this.err = err;
  }

  /** Redraws "label [#####.....] 42% detail" when due; fraction may be NaN when unknown. */
  public void show(String label, double fraction, String detail) {
    if (!enabled) return;
    long now = System.nanoTime();
    if (drawn && now - lastDrawn < INTERVAL_NANOS && fraction < 1) return;
    lastDrawn = now;
    drawn = true;
    StringBuilder line = new StringBuilder("\r").append(String.format("%-10s", label)).append(' ');
    if (!Double.isNaN(fraction)) {
      int width = 30;
      int filled = (int) Math.round(Math.max(0, Math.min(1, fraction)) * width);
      line.append('[').append("#".repeat(filled)).append(".".repeat(width - filled)).append("] ")
          .append(String.format("%3d%% ", Math.round(fraction * 100)));
    }
    line.append(detail).append("\u001b[K");
    err.print(line);
    err.flush();
  }

  /** Ends the line so that later output starts on a fresh one. */
  public void done() {
    if (enabled && drawn) {
      err.println();
      drawn = false;
    }
  }
}
