package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jfree.chart.axis.LogAxis;
import org.junit.jupiter.api.Test;

/** The three tick labellings of the report's log axes, and the axis they configure. */
class LogAxesTest {

  private static String label(LogAxes.Ticks t, double v) {
    return t.format().format(v);
  }

  @Test
  void powersOfTenReadAsPowersAndOtherValuesAsNumbers() {
    assertEquals("1", label(LogAxes.Ticks.POWER_OF_TEN, 1));
    assertEquals("10", label(LogAxes.Ticks.POWER_OF_TEN, 10));
    assertEquals("10^6", label(LogAxes.Ticks.POWER_OF_TEN, 1e6));
    assertEquals("10^-3", label(LogAxes.Ticks.POWER_OF_TEN, 1e-3));
    assertEquals("300", label(LogAxes.Ticks.POWER_OF_TEN, 300));
    assertEquals("2.5", label(LogAxes.Ticks.POWER_OF_TEN, 2.5));
    assertEquals("0.50", label(LogAxes.Ticks.POWER_OF_TEN, 0.5));
  }

  @Test
  void powersOfTwoAreWholeUpToSixteenThenExponents() {
    assertEquals("1", label(LogAxes.Ticks.POWER_OF_TWO, 1));
    assertEquals("16", label(LogAxes.Ticks.POWER_OF_TWO, 16));
    assertEquals("2^5", label(LogAxes.Ticks.POWER_OF_TWO, 32));
    assertEquals("2^20", label(LogAxes.Ticks.POWER_OF_TWO, 1 << 20));
    assertEquals("3.00", label(LogAxes.Ticks.POWER_OF_TWO, 3));
    assertEquals("0.750", label(LogAxes.Ticks.POWER_OF_TWO, 0.75));
  }

  @Test
  void plainNumbersAreWholeFromOne() {
    assertEquals("128", label(LogAxes.Ticks.PLAIN, 128));
    assertEquals("3", label(LogAxes.Ticks.PLAIN, 2.5));
    assertEquals("0.50", label(LogAxes.Ticks.PLAIN, 0.5));
  }

  @Test
  void anAxisHasItsBaseTickStepAndLabels() {
    LogAxis a = LogAxes.of("x", 2, 2, LogAxes.Ticks.POWER_OF_TWO);
    assertEquals("x", a.getLabel());
    assertEquals(2.0, a.getBase());
    assertEquals(2.0, a.getTickUnit().getSize());
    assertEquals("2^5", a.getNumberFormatOverride().format(32));
    assertEquals(
        "10",
        LogAxes.of("y", 10, 0, LogAxes.Ticks.POWER_OF_TEN).getNumberFormatOverride().format(10));
  }
}
