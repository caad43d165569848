package dev.sieve.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link BloomMath#poissonBlockedFpRate}, the exact Poisson average behind the report's Q3. */
class PoissonBlockedFpRateTest {

  /**
   * At 10 bits/key, 6 probes, 512-bit blocks: 0.958%, just over RocksDB's two-point 0.953%; at
   * 64-bit blocks 1.77% against 1.70% (the two-point rule underestimates small blocks).
   */
  @Test
  void workedValues() {
    double poisson = BloomMath.poissonBlockedFpRate(10, 6, 512);
    assertEquals(0.00958, poisson, 0.00002);
    assertTrue(poisson > BloomMath.standardFpRate(10, 6));
    assertEquals(0.0177, BloomMath.poissonBlockedFpRate(10, 6, 64), 0.0001);
    assertTrue(BloomMath.poissonBlockedFpRate(10, 6, 64) > BloomMath.cacheLocalFpRate(10, 6, 64));
  }

  /** The crowding tax grows as blocks shrink, and vanishes as they grow. */
  @Test
  void taxFallsWithBlockSize() {
    double previous = 1;
    for (int bits : new int[] {64, 128, 256, 512, 4096, 65536}) {
      double f = BloomMath.poissonBlockedFpRate(10, 6, bits);
      assertTrue(f < previous, bits + ": " + f);
      previous = f;
    }
    assertEquals(BloomMath.standardFpRate(10, 6), previous, 0.01 * previous);
  }

  @Test
  void rejectsImpossibleParameters() {
    assertThrows(IllegalArgumentException.class, () -> BloomMath.poissonBlockedFpRate(0, 6, 512));
    assertThrows(IllegalArgumentException.class, () -> BloomMath.poissonBlockedFpRate(10, 0, 512));
    assertThrows(IllegalArgumentException.class, () -> BloomMath.poissonBlockedFpRate(10, 6, 0));
  }
}
