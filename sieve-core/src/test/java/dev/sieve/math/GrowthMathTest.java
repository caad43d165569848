package dev.sieve.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Scale;
import org.junit.jupiter.api.Test;

/** The scalable chain's models in {@link GrowthMath}: worked values and the chain's promise. */
class GrowthMathTest {

  @Test
  void stageRatesAndCapacitiesWorkedValues() {
    // f · (1 − r) · r^i at f = 2%, r = 0.8
    assertEquals(0.004, GrowthMath.scalableStageFpRate(0.02, 0.8, 0), 1e-18);
    assertEquals(0.00256, GrowthMath.scalableStageFpRate(0.02, 0.8, 2), 1e-18);
    // c_0 = n0, c_{i+1} = ceil(c_i · s): 100, 300, 900, 2700 at s = 3; 3, 5, 8 at s = 1.5
    assertEquals(100, GrowthMath.scalableStageCapacity(100, 3, 0));
    assertEquals(2700, GrowthMath.scalableStageCapacity(100, 3, 3));
    assertEquals(5, GrowthMath.scalableStageCapacity(3, 1.5, 1));
    assertEquals(8, GrowthMath.scalableStageCapacity(3, 1.5, 2));
    assertEquals(Long.MAX_VALUE / 2, GrowthMath.scalableStageCapacity(1L << 60, 16, 4));
    // one stage: 1 − (1 − f(1 − r)) = f(1 − r)
    assertEquals(0.004, GrowthMath.scalableChainFpRateBound(0.02, 0.8, 1), 1e-15);
    assertThrows(IllegalArgumentException.class, () -> GrowthMath.scalableStageFpRate(1.0, 0.8, 0));
    assertThrows(
        IllegalArgumentException.class, () -> GrowthMath.scalableStageFpRate(0.01, 1.0, 0));
    assertThrows(IllegalArgumentException.class, () -> GrowthMath.scalableStageCapacity(0, 2, 0));
    assertThrows(IllegalArgumentException.class, () -> GrowthMath.scalableStageCapacity(10, 1, 0));
  }

  /**
   * At f = 1%, r = 1/2: the first stage alone spends {@code b(f/2) / b(f) = 1 + ln 2 / ln 100 =
   * 1.1505}; just after the second (twice as large) opened, {@code (b(f/2) + 2 b(f/4)) / b(f) =
   * 3.7526} of one filter sized right for the keys the first stage took.
   */
  @Test
  void worstMemoryRatioWorkedValues() {
    assertEquals(1.150515, GrowthMath.scalableWorstMemoryRatio(0.01, 2, 0.5, 0), 1e-6);
    assertEquals(3.752575, GrowthMath.scalableWorstMemoryRatio(0.01, 2, 0.5, 1), 1e-6);
  }

  /** A stage's own-probe collisions cost more than the Poisson model without them. */
  @Test
  void probeCollisionsRaiseTheBlockedRate() {
    double with = GrowthMath.blockedBloomFpRateWithProbeCollisions(28.1, 13, 512);
    assertTrue(with > BloomMath.poissonBlockedFpRate(28.1, 13, 512));
    assertTrue(with > BloomMath.cacheLocalFpRate(28.1, 13, 512));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            GrowthMath.blockedBloomFpRateWithProbeCollisions(
                10, GrowthMath.MAX_MODEL_PROBES + 1, 512));
  }

  @Property(tries = 30)
  void stageCapacitiesAreIncreasingAndRatesSumBelowF(
      @ForAll @LongRange(min = 1, max = 1L << 40) long n0,
      @ForAll @DoubleRange(min = 1.25, max = 16) double s,
      @ForAll @DoubleRange(min = 0.05, max = 0.995) @Scale(3) double r,
      @ForAll @IntRange(min = 1, max = 64) int stages) {
    double sum = 0;
    for (int i = 0; i < stages; i++) {
      sum += GrowthMath.scalableStageFpRate(0.01, r, i);
      if (i > 0) {
        assertTrue(
            GrowthMath.scalableStageCapacity(n0, s, i)
                    > GrowthMath.scalableStageCapacity(n0, s, i - 1)
                || GrowthMath.scalableStageCapacity(n0, s, i) == Long.MAX_VALUE / 2);
      }
    }
    assertTrue(sum < 0.01 * (1 + 1e-12));
    assertTrue(GrowthMath.scalableChainFpRateBound(0.01, r, stages) <= sum * (1 + 1e-12));
  }
}
