package dev.sieve.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The Ribbon models of {@link RibbonMath}: worked values, limits, and their relations. */
class RibbonMathTest {

  @Test
  void wholeAndFractionalResultBits() {
    assertEquals(1.0, RibbonMath.ribbonFpRate(0));
    assertEquals(0.5, RibbonMath.ribbonFpRate(1));
    assertEquals(1.0 / 128, RibbonMath.ribbonFpRate(7));
    assertEquals(Math.pow(2, -32), RibbonMath.ribbonFpRate(32));
    // linear between the neighbouring powers of two: 6.78 → 0.22·2^-6 + 0.78·2^-7
    assertEquals(0.22 / 64 + 0.78 / 128, RibbonMath.ribbonFpRate(6.78), 1e-15);
    assertEquals(0.0095, RibbonMath.ribbonFpRate(6.784), 0.00001);
    assertThrows(IllegalArgumentException.class, () -> RibbonMath.ribbonFpRate(-0.1));
    assertThrows(IllegalArgumentException.class, () -> RibbonMath.ribbonFpRate(Double.NaN));
  }

  @Test
  void resultBitsForFpRateInvertsTheModelAndStaysNearTheFloor() {
    double worst = 0;
    for (double f = 0.9; f > 1e-9; f *= 0.913) {
      double r = RibbonMath.ribbonResultBitsForFpRate(f);
      assertEquals(f, RibbonMath.ribbonFpRate(r), f * 1e-12);
      double excess = r - BloomMath.informationFloorBitsPerKey(f);
      assertTrue(excess >= -1e-12, "never below the floor");
      worst = Math.max(worst, excess);
    }
    // the linear interpolation costs at most φ + log2(1 − φ/2) at φ = 2 − 1/ln 2: 0.0861 bits
    assertTrue(worst < 0.0862 && worst > 0.08, "worst excess " + worst);
    assertEquals(7.0, RibbonMath.ribbonResultBitsForFpRate(1.0 / 128), 1e-12);
    assertEquals(0.0, RibbonMath.ribbonResultBitsForFpRate(1.0));
    assertThrows(IllegalArgumentException.class, () -> RibbonMath.ribbonResultBitsForFpRate(0));
  }

  @Test
  void interleavedModelIsRocksDbsExpectedFpRate() {
    // 2 blocks, 7 segments: 3 columns in block 0, 4 in block 1; 128 of 129 starts in block 0
    double p = 128.0 / 129;
    assertEquals(p / 8 + (1 - p) / 16, RibbonMath.interleavedRibbonFpRate(2, 4, 1), 1e-15);
    assertEquals(1.0 / 16, RibbonMath.interleavedRibbonFpRate(100, 4, 0), 1e-15);
    assertEquals(0.0, RibbonMath.interleavedRibbonFpRate(0, 0, 0));
    // equals ribbonFpRate at r = c − p
    for (int usb = 0; usb < 40; usb += 3) {
      double lp = usb * 128.0 / (40 * 128 - 127);
      assertEquals(
          RibbonMath.ribbonFpRate(7 - lp), RibbonMath.interleavedRibbonFpRate(40, 7, usb), 1e-15);
    }
  }

  @Test
  void bumpedRibbonModelFunctions() {
    assertEquals(0.25, RibbonMath.bumpedRibbonFpRate(new double[] {0}, new double[] {0.25}), 0);
    // a quarter bumped from layer 0 at 2^-3, all matched at 2^-3 in layer 1: 2^-3
    assertEquals(
        0.125,
        RibbonMath.bumpedRibbonFpRate(new double[] {0.25, 0}, new double[] {0.75 / 8, 1.0 / 8}),
        1e-15);
    assertThrows(
        IllegalArgumentException.class,
        () -> RibbonMath.bumpedRibbonFpRate(new double[1], new double[2]));
    assertEquals(1.01 * (7 + 2.0 / 128), RibbonMath.bumpedRibbonBitsPerKey(7, 1.01, 2), 1e-12);
  }
}
