package dev.sieve.bench.report;

import java.io.PrintStream;

/**
 * A one-line progress bar on the terminal ({@code \r}-redrawn when a console is attached, one line
 * per step otherwise): steps done of total, elapsed time, the current step.
 */
public final class ProgressBar {
  private static final int WIDTH = 30;
  private final PrintStream out;
  private final int total;
  private final boolean redraw;
  private final long start = System.nanoTime();
  private int done;

  public ProgressBar(PrintStream out, int total, boolean redraw) {
    this.out = out;
    this.total = Math.max(1, total);
    this.redraw = redraw;
  }

  /** Shows {@code label} as the step now running. */
  public void step(String label) {
    draw(label);
  }

  /** Marks one step done. */
  public void advance() {
    done = Math.min(total, done + 1);
  }

  /** Ends the bar. */
  public void finish(String label) {
    done = total;
    draw(label);
    if (redraw) {
      out.println();
    }
  }

  /** The bar's text for the current state. */
  String render(String label) {
    int filled = (int) ((long) done * WIDTH / total);
    long secs = (System.nanoTime() - start) / 1_000_000_000L;
    return String.format(
        "[%s%s] %3d/%d %2d:%02d %s",
        "#".repeat(filled), "-".repeat(WIDTH - filled), done, total, secs / 60, secs % 60, label);
  }

  private void draw(String label) {
    String line = render(label);
    if (line.length() > ConsoleSummary.WIDTH) { // a redrawn line must not wrap
      line = line.substring(0, ConsoleSummary.WIDTH - 1) + "…";
    }
    if (redraw) {
      out.print("\r" + line + " ".repeat(Math.max(0, 100 - line.length())));
      out.flush();
    } else {
      out.println(line);
    }
  }
}
