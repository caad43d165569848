package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Pins the figures of the widening policy quoted in {@link ExpandableFilter}'s class comment. */
class ExpandableMathTest {

  @Test
  void wideningIsOneBitPerDoublingOfTheDoublings() {
    int[] want = {0, 1, 1, 2, 2, 2, 2, 3};
    for (int j = 0; j < want.length; j++) {
      assertEquals(want[j], ExpandableMath.widening(j), "j=" + j);
    }
    assertEquals(4, ExpandableMath.widening(15));
    assertEquals(4, ExpandableMath.widening(ExpandableMath.MAX_DOUBLINGS));
    assertEquals(26, ExpandableMath.MAX_DOUBLINGS);
    assertEquals(4.75, ExpandableMath.wideningSum(ExpandableMath.MAX_DOUBLINGS), 1e-12);
    for (int g = 0; g <= ExpandableMath.MAX_DOUBLINGS; g++) {
      int bands = 32 - Integer.numberOfLeadingZeros(g + 1);
      assertTrue(ExpandableMath.wideningSum(g) <= bands, "g=" + g);
    }
  }

  @Test
  void baseFingerprintIsTheShortestThatKeepsTheBound() {
    assertEquals(9, ExpandableMath.baseFingerprintBits(0.01));
    assertEquals(12, ExpandableMath.baseFingerprintBits(0.001));
    assertEquals(12, ExpandableMath.fingerprintBits(0.01, 0) + ExpandableMath.SLOT_OVERHEAD_BITS);
    assertEquals(16, ExpandableMath.fingerprintBits(0.01, 15) + ExpandableMath.SLOT_OVERHEAD_BITS);
    for (double f = 0.5; f > 1e-7; f /= 1.7) {
      int bits = ExpandableMath.baseFingerprintBits(f);
      double sum = ExpandableMath.wideningSum(ExpandableMath.MAX_DOUBLINGS);
      assertTrue(ExpandableMath.MAX_LOAD * sum * Math.scalb(1.0, -bits) <= f, "f=" + f);
      assertTrue(bits == 1 || ExpandableMath.MAX_LOAD * sum * Math.scalb(1.0, 1 - bits) > f);
      for (int g = 0; g < ExpandableMath.MAX_DOUBLINGS; g++) {
        assertTrue(ExpandableMath.wideningSum(g) < sum, "g=" + g); // the bound grows with g
      }
    }
    assertEquals(4.75, ExpandableMath.wideningSum(26), 1e-15);
  }

  @Test
  void modelCountsKnownHashBits() {
    long[] counts = new long[65];
    counts[10] = 512; // 512 entries knowing 10 bits: 0.5
    counts[12] = 1024; // 0.25
    assertEquals(0.75, ExpandableMath.modelFpRate(counts), 1e-15);
    counts[3] = 100;
    assertEquals(1.0, ExpandableMath.modelFpRate(counts));
    assertEquals(30.5, ExpandableMath.bitsPerKey(15, 0.5), 1e-12); // 15.25 bits a slot
  }
}
