package dev.sieve.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The progress bar in its two looks: the CLI's counter (drawn for large totals only, redrawn in
 * place, cleared at the end) and the benchmark report's steps (one line per step, or redrawn).
 */
class ProgressBarTest {

  private static PrintStream to(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }

  @Test
  void drawsLargeWorkInPlaceAndClearsIt() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar bar = ProgressBar.counter(to(bytes), "reading db", true);
    bar.update(10, 40);
    bar.update(11, 40); // within 100 ms of the last draw: skipped
    bar.update(40, 40); // the last one is always drawn
    bar.finish();
    String s = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(s.startsWith("\rreading db [#######                       ] 10/40"), s);
    assertTrue(s.contains("\rreading db [##############################] 40/40"), s);
    assertEquals(-1, s.indexOf("11/40"), s);
    assertTrue(s.endsWith("\r" + " ".repeat("reading db".length() + 50) + "\r"), "cleared: " + s);
    assertEquals(-1, s.indexOf('\n'), "one line, never a newline");
  }

  @Test
  void smallWorkOrNoConsoleDrawsNothing() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar small = ProgressBar.counter(to(bytes), "x", true);
    small.update(5, ProgressBar.MIN_FILES - 1);
    small.finish();
    ProgressBar off = ProgressBar.counter(to(bytes), "x", false);
    off.update(500, 1000);
    off.finish();
    assertEquals(0, bytes.size());
  }

  @Test
  void stepsWithoutAConsoleAreOneLineEach() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar bar = ProgressBar.steps(to(bytes), 4, false);
    bar.step("keys n=1000");
    bar.advance();
    bar.step("round 1");
    bar.finish("done");
    String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n", -1);
    assertEquals(4, lines.length, String.join("|", lines));
    assertTrue(lines[0].matches("\\[-{30}]   0/4  0:0\\d keys n=1000"), lines[0]);
    assertTrue(lines[1].matches("\\[#{7}-{23}]   1/4  0:0\\d round 1"), lines[1]);
    assertTrue(lines[2].matches("\\[#{30}]   4/4  0:0\\d done"), lines[2]);
    assertEquals("", lines[3]);
  }

  @Test
  void stepsOnAConsoleAreRedrawnPaddedAndCutToTheWidth() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar bar = ProgressBar.steps(to(bytes), 0, true); // no steps: a total of 1
    bar.step("x".repeat(200));
    bar.finish("done");
    String s = bytes.toString(StandardCharsets.UTF_8);
    String[] draws = s.split("\r", -1);
    assertEquals(3, draws.length, s);
    assertEquals("", draws[0]);
    assertEquals(ProgressBar.LINE, draws[1].length(), draws[1]);
    assertTrue(draws[1].startsWith("[------------------------------]   0/1  0:0"), draws[1]);
    assertTrue(draws[1].endsWith("x…"), draws[1]);
    assertEquals(100 + 1, draws[2].length(), "padded to 100 columns, then a newline");
    assertTrue(draws[2].matches("\\[#{30}]   1/1  0:0\\d done +\n"), draws[2]);
  }

  @Test
  void eachLookHasItsOwnMethods() {
    ProgressBar counter = ProgressBar.counter(to(new ByteArrayOutputStream()), "x", true);
    ProgressBar steps = ProgressBar.steps(to(new ByteArrayOutputStream()), 3, false);
    assertThrows(IllegalStateException.class, () -> counter.step("a"));
    assertThrows(IllegalStateException.class, () -> steps.update(1, 40));
    assertThrows(IllegalStateException.class, steps::finish);
  }
}
