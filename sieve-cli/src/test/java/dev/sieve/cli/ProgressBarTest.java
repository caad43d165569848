package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The database progress bar: drawn for large totals only, redrawn in place, cleared at the end. */
class ProgressBarTest {

  @Test
  void drawsLargeWorkInPlaceAndClearsIt() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar bar =
        new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), "reading db", true);
    bar.update(10, 40);
    bar.update(11, 40); // within 100 ms of the last draw: skipped
    bar.update(40, 40); // the last one is always drawn
    bar.finish();
    String s = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(s.startsWith("\rreading db [#######                       ] 10/40"), s);
    assertTrue(s.contains("\rreading db [##############################] 40/40"), s);
    assertEquals(-1, s.indexOf("11/40"), s);
    assertTrue(s.endsWith("\r"), "cleared: " + s);
    assertEquals(-1, s.indexOf('\n'), "one line, never a newline");
  }

  @Test
  void smallWorkOrNoConsoleDrawsNothing() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar small =
        new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), "x", true);
    small.update(5, ProgressBar.MIN_FILES - 1);
    small.finish();
    ProgressBar off =
        new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), "x", false);
    off.update(500, 1000);
    off.finish();
    assertEquals(0, bytes.size());
  }
}
