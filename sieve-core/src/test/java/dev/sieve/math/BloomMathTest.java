package dev.sieve.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Worked values for every model, computed by hand from the formulas in the Javadoc. */
class BloomMathTest {

  @Test
  void standardFpRateWorkedValues() {
    // b=10, k=7: (1 - e^-0.7)^7 = 0.50341^7 = 0.008193
    assertEquals(0.008193, BloomMath.standardFpRate(10, 7), 0.000005);
    // b=16, k=11: (1 - e^-0.6875)^11 = 0.49718^11 = 0.000458
    assertEquals(0.000458, BloomMath.standardFpRate(16, 11), 0.000002);
    // b=10, k=6 (the un-blocked reference of the cache-local example): 0.008436
    assertEquals(0.008436, BloomMath.standardFpRate(10, 6), 0.000005);
    // one probe, one bit per key: 1 - e^-1
    assertEquals(1 - Math.exp(-1), BloomMath.standardFpRate(1, 1), 1e-12);
  }

  @Test
  void cacheLocalFpRateWorkedValues() {
    // b=10, k=6, 512-bit lines: mean 51.2 keys, sd 7.155; arms S(8.773,6)=1.482%,
    // S(11.624,6)=0.427%; average 0.954% (RocksDB's comment: "theoretical best ... 0.9535%")
    double blocked = BloomMath.cacheLocalFpRate(10, 6, 512);
    assertEquals(0.00954, blocked, 0.00003);
    assertEquals(1.13, blocked / BloomMath.standardFpRate(10, 6), 0.01);
    // the tax grows as blocks shrink: 1.26x, 1.52x, 2.02x at 256/128/64 bits and 6 probes
    double std = BloomMath.standardFpRate(10, 6);
    assertEquals(1.259, BloomMath.cacheLocalFpRate(10, 6, 256) / std, 0.001);
    assertEquals(1.515, BloomMath.cacheLocalFpRate(10, 6, 128) / std, 0.001);
    assertEquals(2.018, BloomMath.cacheLocalFpRate(10, 6, 64) / std, 0.001);
    assertEquals(1.0, BloomMath.cacheLocalFpRate(0, 6, 512));
  }

  @Test
  void fingerprintFpRateUsesBothBranches() {
    // tiny base estimate x = 1e6 / 2^64: x - x^2/2 ~ x
    double tiny = BloomMath.fingerprintFpRate(1e6, 64);
    assertEquals(1e6 / Math.pow(2, 64), tiny, 1e-25);
    // large base estimate: 1 - e^-x with x = 2^20 / 2^16 = 16
    assertEquals(1 - Math.exp(-16), BloomMath.fingerprintFpRate(1 << 20, 16), 1e-12);
    // continuity at the branch point x = 1e-4: both formulas agree to 1e-12
    double n = 1e-4 * Math.pow(2, 20);
    assertEquals(-Math.expm1(-1e-4), BloomMath.fingerprintFpRate(n, 20), 1e-12);
  }

  @Test
  void independentProbabilitySum() {
    assertEquals(0.28, BloomMath.independentProbabilitySum(0.1, 0.2), 1e-15);
    assertEquals(1e-20 + 1e-21, BloomMath.independentProbabilitySum(1e-20, 1e-21), 1e-35);
  }

  @Test
  void optimalProbesAreBTimesLn2() {
    assertEquals(7, BloomMath.optimalNumProbes(10)); // 6.93
    assertEquals(11, BloomMath.optimalNumProbes(16)); // 11.09
    assertEquals(4, BloomMath.optimalNumProbes(6)); // 4.16
    assertEquals(1, BloomMath.optimalNumProbes(1)); // 0.69 -> at least 1
    // the chosen k is no worse than its neighbours
    for (double b = 1; b <= 40; b += 0.25) {
      int k = BloomMath.optimalNumProbes(b);
      assertTrue(BloomMath.standardFpRate(b, k) <= BloomMath.standardFpRate(b, k + 1));
      if (k > 1) {
        assertTrue(BloomMath.standardFpRate(b, k) <= BloomMath.standardFpRate(b, k - 1));
      }
    }
  }

  @Test
  void floorAndOverhead() {
    // f = 0.82%: floor log2(1/0.0082) = 6.93 bits/key; 10 / 6.93 = 1.44
    assertEquals(6.93, BloomMath.informationFloorBitsPerKey(0.0082), 0.005);
    assertEquals(1.443, BloomMath.overheadOverFloor(10, 0.0082), 0.002);
    // Bloom at optimal real k spends exactly 1/ln2 times the floor
    assertEquals(
        1 / BloomMath.LN2,
        BloomMath.standardBitsPerKeyForFpRate(0.01) / BloomMath.informationFloorBitsPerKey(0.01),
        1e-12);
    assertEquals(12.0, BloomMath.informationFloorBitsPerKey(Math.pow(2, -12)), 1e-12);
    assertTrue(Double.isNaN(BloomMath.overheadOverFloor(10, 1.0)));
    assertTrue(Double.isNaN(BloomMath.overheadOverFloor(10, 0.0)));
  }

  @Test
  void fastLocalBloomEstimateCombinesCacheLocalAndHashCollisions() {
    long keys = 1_000_000;
    long bytes = keys * 10 / 8;
    double expected =
        BloomMath.independentProbabilitySum(
            BloomMath.cacheLocalFpRate(10, 6, 512), BloomMath.fingerprintFpRate(keys, 64));
    assertEquals(expected, BloomMath.fastLocalBloomFpRate(keys, bytes, 6, 64), 1e-15);
    assertEquals(0.0, BloomMath.fastLocalBloomFpRate(0, 64, 6, 64));
  }
}
