package dev.sieve.ribbon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.math.BloomMath;
import org.junit.jupiter.api.Test;

/** The Ribbon FPR models in {@link BloomMath}: worked values, limits, and their relations. */
class RibbonMathTest {

  @Test
  void wholeAndFractionalResultBits() {
    assertEquals(1.0, BloomMath.ribbonFpRate(0));
    assertEquals(0.5, BloomMath.ribbonFpRate(1));
    assertEquals(1.0 / 128, BloomMath.ribbonFpRate(7));
    assertEquals(Math.pow(2, -32), BloomMath.ribbonFpRate(32));
    // linear between the neighbouring powers of two: 6.78 → 0.22·2^-6 + 0.78·2^-7
    assertEquals(0.22 / 64 + 0.78 / 128, BloomMath.ribbonFpRate(6.78), 1e-15);
    assertEquals(0.0095, BloomMath.ribbonFpRate(6.784), 0.00001);
    assertThrows(IllegalArgumentException.class, () -> BloomMath.ribbonFpRate(-0.1));
    assertThrows(IllegalArgumentException.class, () -> BloomMath.ribbonFpRate(Double.NaN));
  }

  @Test
  void resultBitsForFpRateInvertsTheModelAndStaysNearTheFloor() {
    double worst = 0;
    for (double f = 0.9; f > 1e-9; f *= 0.913) {
      double r = BloomMath.ribbonResultBitsForFpRate(f);
      assertEquals(f, BloomMath.ribbonFpRate(r), f * 1e-12);
      double excess = r - BloomMath.informationFloorBitsPerKey(f);
      assertTrue(excess >= -1e-12, "never below the floor");
      worst = Math.max(worst, excess);
    }
    // the linear interpolation costs at most φ + log2(1 − φ/2) at φ = 2 − 1/ln 2: 0.0861 bits
    assertTrue(worst < 0.0862 && worst > 0.08, "worst excess " + worst);
    assertEquals(7.0, BloomMath.ribbonResultBitsForFpRate(1.0 / 128), 1e-12);
    assertEquals(0.0, BloomMath.ribbonResultBitsForFpRate(1.0));
    assertThrows(IllegalArgumentException.class, () -> BloomMath.ribbonResultBitsForFpRate(0));
  }

  @Test
  void interleavedModelIsRocksDbsExpectedFpRate() {
    // 2 blocks, 7 segments: 3 columns in block 0, 4 in block 1; 128 of 129 starts in block 0
    double p = 128.0 / 129;
    assertEquals(p / 8 + (1 - p) / 16, BloomMath.interleavedRibbonFpRate(2, 4, 1), 1e-15);
    assertEquals(1.0 / 16, BloomMath.interleavedRibbonFpRate(100, 4, 0), 1e-15);
    assertEquals(0.0, BloomMath.interleavedRibbonFpRate(0, 0, 0));
    // equals ribbonFpRate at r = c − p
    for (int usb = 0; usb < 40; usb += 3) {
      double lp = usb * 128.0 / (40 * 128 - 127);
      assertEquals(
          BloomMath.ribbonFpRate(7 - lp), BloomMath.interleavedRibbonFpRate(40, 7, usb), 1e-15);
    }
  }

  @Test
  void ribbonIsCloseToTheFloorWhereBloomIsNot() {
    double f = 1.0 / RibbonSizing.oneInFpRateForBloomBitsPerKey(10);
    double bloomOverhead = BloomMath.overheadOverFloor(10, f);
    double ribbonBits = 1.05 * BloomMath.ribbonResultBitsForFpRate(f);
    assertTrue(bloomOverhead > 1.45, "FastLocalBloom at 10 bits/key: " + bloomOverhead);
    assertTrue(BloomMath.overheadOverFloor(ribbonBits, f) < 1.07);
  }

  @Test
  void numKeysForSlotsInvertsTheSlotTable() {
    // the table's own points, and a weighted point between two of them
    assertEquals(0, RibbonSizing.numKeysForSlots(0));
    assertEquals(248, RibbonSizing.numKeysForSlots(256));
    assertEquals(499, RibbonSizing.numKeysForSlots(512));
    assertEquals(374, RibbonSizing.numKeysForSlots(384)); // (248.851 + 499.532) / 2
    assertEquals(63447, RibbonSizing.numKeysForSlots(1 << 16));
    assertThrows(IllegalArgumentException.class, () -> RibbonSizing.numKeysForSlots(128));
    int prev = 0;
    for (int slots = 256; slots < 50_000_000; slots += 128 + slots / 64 / 128 * 128) {
      int keys = RibbonSizing.numKeysForSlots(slots);
      assertTrue(keys >= prev, "monotone at " + slots);
      prev = keys;
    }
    // the slots RocksDB gives n keys hold at least n keys again
    for (int n = 250; n < 10_000_000; n += 1 + n / 7) {
      int slots = RibbonSizing.numSlotsForKeys(n);
      assertTrue(RibbonSizing.numKeysForSlots(slots) >= n - 1, n + " keys, " + slots + " slots");
    }
  }
}
