package dev.sieve.console;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The one-line progress bar of Sieve's tools: a {@value #BAR}-column bar of {@code #}, redrawn in
 * place with {@code \r} when a console is attached. Thread-safe. It comes in two looks:
 *
 * <ul>
 *   <li>{@link #counter}, the CLI's, for work over many files: {@code label [### ] done/total}, fed
 *       by {@link #update}, redrawn at most every 100 ms, drawn only in place and only for {@value
 *       #MIN_FILES} items or more (a pipe or a test capturing stderr sees nothing), cleared by
 *       {@link #finish()}.
 *   <li>{@link #steps}, the benchmark report's: {@code [###---] done/total m:ss step}, fed by
 *       {@link #step} and {@link #advance}, one line per step when not redrawn in place, ended by
 *       {@link #finish(String)}.
 * </ul>
 *
 * <p>Not API: sieve-cli and sieve-report use it from the class path.
 */
public final class ProgressBar {
  /** The bar's width in columns, between the brackets. */
  static final int BAR = 30;

  /** Fewer items than this finish too fast for a counter bar. */
  public static final int MIN_FILES = 32;

  /** A steps line longer than this (the report's console width) is cut to end in "…". */
  static final int LINE = 100;

  private final PrintStream out;
  private final String label; // the counter's fixed label; null for a steps bar
  private final boolean inPlace;
  private final long start = System.nanoTime();
  private int done;
  private int total;
  private long lastDraw;
  private boolean drawn;

  private ProgressBar(PrintStream out, String label, int total, boolean inPlace) {
    this.out = out;
    this.label = label;
    this.total = total;
    this.inPlace = inPlace;
  }

  /**
   * A counter bar on {@code out} that starts each line with {@code label}; draws nothing unless
   * {@code console}.
   */
  public static ProgressBar counter(PrintStream out, String label, boolean console) {
    return new ProgressBar(out, label, 0, console);
  }

  /**
   * A steps bar on {@code out} for {@code total} steps, redrawn in place if {@code redraw}, else
   * one line per step.
   */
  public static ProgressBar steps(PrintStream out, int total, boolean redraw) {
    return new ProgressBar(out, null, Math.max(1, total), redraw);
  }

  // ------------------------------------------------------------------ counter

  /** Counter bar: records that {@code done} of {@code total} items are finished. */
  public synchronized void update(int done, int total) {
    look(true);
    if (!inPlace || total < MIN_FILES) {
      return;
    }
    long now = System.nanoTime();
    if (done < total && drawn && now - lastDraw < 100_000_000L) {
      return;
    }
    lastDraw = now;
    drawn = true;
    out.print(
        String.format(Locale.ROOT, "\r%s %s %d/%d", label, bar(done, total, ' '), done, total));
    out.flush();
  }

  /** Counter bar: clears the bar's line. */
  public synchronized void finish() {
    look(true);
    if (inPlace && drawn) {
      out.print("\r" + " ".repeat(label.length() + 50) + "\r");
      out.flush();
    }
  }

  // -------------------------------------------------------------------- steps

  /** Steps bar: shows {@code step} as the step now running. */
  public synchronized void step(String step) {
    look(false);
    draw(step);
  }

  /** Steps bar: marks one step done. */
  public synchronized void advance() {
    look(false);
    done = Math.min(total, done + 1);
  }

  /** Steps bar: ends the bar with {@code step} as its last text. */
  public synchronized void finish(String step) {
    look(false);
    done = total;
    draw(step);
    if (inPlace) {
      out.println();
    }
  }

  /** Steps bar: the text for the current state, before it is cut to {@value #LINE} columns. */
  synchronized String render(String step) {
    long secs = (System.nanoTime() - start) / 1_000_000_000L;
    // the default format locale, as String.format(String, Object...) uses
    return String.format(
        Locale.getDefault(Locale.Category.FORMAT),
        "%s %3d/%d %2d:%02d %s",
        bar(done, total, '-'),
        done,
        total,
        secs / 60,
        secs % 60,
        step);
  }

  private void draw(String step) {
    String line = render(step);
    if (line.length() > LINE) { // a redrawn line must not wrap
      line = line.substring(0, LINE - 1) + "…";
    }
    if (inPlace) {
      out.print("\r" + line + " ".repeat(Math.max(0, 100 - line.length())));
      out.flush();
    } else {
      out.println(line);
    }
  }

  // ------------------------------------------------------------------- shared

  /** {@code [### ]}: {@code done/total} of {@value #BAR} columns filled, the rest {@code empty}. */
  static String bar(long done, long total, char empty) {
    int filled = total == 0 ? BAR : (int) (done * BAR / total);
    return "[" + "#".repeat(filled) + String.valueOf(empty).repeat(BAR - filled) + "]";
  }

  private void look(boolean counter) {
    if ((label != null) != counter) {
      throw new IllegalStateException(
          "a " + (counter ? "steps" : "counter") + " bar has no such method");
    }
  }
}
