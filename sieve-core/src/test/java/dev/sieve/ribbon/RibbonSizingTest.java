package dev.sieve.ribbon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.math.BloomMath;
import dev.sieve.math.RibbonMath;
import org.junit.jupiter.api.Test;

/** {@link RibbonSizing}: the slot table, and the Ribbon sizing against the Bloom filter's. */
class RibbonSizingTest {

  @Test
  void ribbonIsCloseToTheFloorWhereBloomIsNot() {
    double f = 1.0 / RibbonSizing.oneInFpRateForBloomBitsPerKey(10);
    double bloomOverhead = BloomMath.overheadOverFloor(10, f);
    double ribbonBits = 1.05 * RibbonMath.ribbonResultBitsForFpRate(f);
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
