package dev.sieve.cli;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar on standard error for work over many files: redrawn with {@code \r} and
 * at most every 100 ms, then cleared. Drawn only when a console is attached (a pipe or a test
 * capturing stderr sees nothing) and the work is large enough to wait for; thread-safe, as the
 * files are read on a pool.
 */
final class ProgressBar {
  /** Fewer files than this finish too fast for a bar. */
  static final int MIN_FILES = 32;

  private final PrintStream err;
  private final String label;
  private final boolean enabled;
  private long lastDraw;
  private boolean drawn;

  ProgressBar(PrintStream err, String label, boolean enabled) {
    this.err = err;
    this.label = label;
    this.enabled = enabled;
  }

  /** A bar on stderr, silent unless a console is attached and the total is large. */
  static ProgressBar onConsole(String label) {
    return new ProgressBar(System.err, label, System.console() != null);
  }

  /** Records that {@code done} of {@code total} items are finished. */
  synchronized void update(int done, int total) {
    if (!enabled || total < MIN_FILES) {
      return;
    }
    long now = System.nanoTime();
    if (done < total && drawn && now - lastDraw < 100_000_000L) {
      return;
    }
    lastDraw = now;
    drawn = true;
    int width = 30;
    int filled = total == 0 ? width : (int) ((long) done * width / total);
    err.print(
        String.format(
            Locale.ROOT,
            "\r%s [%s%s] %d/%d",
            label,
            "#".repeat(filled),
            " ".repeat(width - filled),
            done,
            total));
    err.flush();
  }

  /** Clears the bar's line. */
  synchronized void finish() {
    if (enabled && drawn) {
      err.print("\r" + " ".repeat(label.length() + 50) + "\r");
      err.flush();
    }
  }
}
