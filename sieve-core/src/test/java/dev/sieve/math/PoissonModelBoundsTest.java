package dev.sieve.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;

/**
 * The Poisson-sum models ({@link SplitBlockMath#splitBlockFpRate}, {@link
 * BloomMath#poissonBlockedFpRate}, {@link GrowthMath#blockedBloomFpRateWithProbeCollisions}) return
 * promptly for any input and agree with the term-by-term sums they replaced.
 */
class PoissonModelBoundsTest {

  private static final Duration PROMPT = Duration.ofMillis(200);

  // ---- the sums as they were before the window: one term per j from 0 to λ + 12√λ + 20

  static double oldSplitBlock(double bitsPerKey) {
    double lambda = 256 / bitsPerKey;
    double logZero = Math.log(31.0 / 32.0);
    int last = (int) Math.ceil(lambda + 12 * Math.sqrt(lambda) + 20);
    double logPoisson = -lambda;
    double sum = 0.0;
    for (int j = 0; j <= last; j++) {
      if (j > 0) {
        logPoisson += Math.log(lambda / j);
      }
      sum += Math.exp(logPoisson) * Math.pow(-Math.expm1(j * logZero), 8);
    }
    return sum;
  }

  static double oldPoissonBlocked(double bitsPerKey, int numProbes, int blockBits) {
    double lambda = blockBits / bitsPerKey;
    double logZeroPerProbe = Math.log1p(-1.0 / blockBits);
    int last = (int) Math.ceil(lambda + 12 * Math.sqrt(lambda) + 20);
    double logPoisson = -lambda;
    double sum = 0.0;
    for (int j = 0; j <= last; j++) {
      if (j > 0) {
        logPoisson += Math.log(lambda / j);
      }
      double setFraction = -Math.expm1((double) j * numProbes * logZeroPerProbe);
      sum += Math.exp(logPoisson) * Math.pow(setFraction, numProbes);
    }
    return sum;
  }

  static double oldWithCollisions(double bitsPerKey, int numProbes, int blockBits) {
    double[] distinct = new double[numProbes + 1];
    distinct[0] = 1.0;
    for (int draw = 0; draw < numProbes; draw++) {
      for (int d = Math.min(draw + 1, numProbes); d >= 0; d--) {
        double stay = distinct[d] * d / blockBits;
        double arrive = d > 0 ? distinct[d - 1] * (blockBits - (d - 1)) / (double) blockBits : 0;
        distinct[d] = stay + arrive;
      }
    }
    double lambda = blockBits / bitsPerKey;
    double logZeroPerProbe = Math.log1p(-1.0 / blockBits);
    int last = (int) Math.ceil(lambda + 12 * Math.sqrt(lambda) + 20);
    double logPoisson = -lambda;
    double sum = 0.0;
    for (int j = 0; j <= last; j++) {
      if (j > 0) {
        logPoisson += Math.log(lambda / j);
      }
      double set = -Math.expm1((double) j * numProbes * logZeroPerProbe);
      double all = 0;
      double power = 1;
      for (int d = 0; d <= numProbes; d++) {
        all += distinct[d] * power;
        power *= set;
      }
      sum += Math.exp(logPoisson) * all;
    }
    return sum;
  }

  private static void assertClose(double expected, double actual, String what) {
    assertClose(expected, actual, 1e-9, what);
  }

  private static void assertClose(double expected, double actual, double tolerance, String what) {
    double rel = Math.abs(actual - expected) / Math.max(Math.abs(expected), 1e-300);
    assertTrue(
        rel <= tolerance, what + ": old " + expected + ", new " + actual + ", relative " + rel);
  }

  /**
   * 1e-9 up to λ = 10^5; above, the old loop's own recurrence drifts (one rounding of {@code
   * ln(λ/j)} per term, 4·10^5 terms at λ = 4·10^5 put its sum of the pmf at 1 − 8·10^-9), so the
   * comparison there allows 10^-7.
   */
  private static double tolerance(double lambda) {
    return lambda <= 1e5 ? 1e-9 : 1e-7;
  }

  private static final double[] BITS_PER_KEY = {
    0.01, 0.05, 0.1, 0.2, 0.25, 0.3, 0.5, 1, 1.5, 2, 3, 4.5, 6, 7.77, 10, 12.5, 16, 20, 24, 32, 50,
    64, 100
  };

  @Test
  void splitBlockAgreesWithTheTermByTermSum() {
    for (double b : BITS_PER_KEY) {
      assertClose(oldSplitBlock(b), SplitBlockMath.splitBlockFpRate(b), "split block at " + b);
    }
  }

  @Test
  void poissonBlockedAgreesWithTheTermByTermSum() {
    for (int blockBits : new int[] {64, 256, 512, 4096, 65536, 1 << 20}) {
      for (int k : new int[] {1, 2, 6, 8, 13, 24}) {
        for (double b : BITS_PER_KEY) {
          if (blockBits / b > 2e6) {
            continue; // the old loop is too slow to be the reference there
          }
          assertClose(
              oldPoissonBlocked(b, k, blockBits),
              BloomMath.poissonBlockedFpRate(b, k, blockBits),
              tolerance(blockBits / b),
              "poisson blocked " + b + "/" + k + "/" + blockBits);
        }
      }
    }
  }

  @Test
  void withProbeCollisionsAgreesWithTheTermByTermSum() {
    for (int blockBits : new int[] {64, 512, 4096, 1 << 18}) {
      for (int k : new int[] {1, 3, 6, 9, 13, 24}) {
        for (double b : BITS_PER_KEY) {
          if (blockBits / b > 2e6) {
            continue;
          }
          assertClose(
              oldWithCollisions(b, k, blockBits),
              GrowthMath.blockedBloomFpRateWithProbeCollisions(b, k, blockBits),
              tolerance(blockBits / b),
              "with collisions " + b + "/" + k + "/" + blockBits);
        }
      }
    }
  }

  /** Every millibit setting the scalable filter's sizing search visits gives the same value. */
  @Test
  void scalableSizingSearchAgrees() {
    for (int millibits = 1000; millibits <= 100_000; millibits += 997) {
      int k = Math.max(1, Math.min(24, (int) Math.round(millibits / 1000.0 * 0.69)));
      assertClose(
          oldWithCollisions(millibits / 1000.0, k, 512),
          GrowthMath.blockedBloomFpRateWithProbeCollisions(millibits / 1000.0, k, 512),
          "stage model at " + millibits);
    }
  }

  private static double prompt(DoubleSupplier call) {
    double r = assertTimeoutPreemptively(PROMPT, call::getAsDouble);
    assertTrue(r >= 0 && r <= 1, "a probability, got " + r);
    return r;
  }

  /** Tiny bits per key (huge keys per block): each call returns within 200 ms, saturated. */
  @Test
  void hostileInputsReturnPromptly() {
    double[] tiny = {Double.MIN_VALUE, 1e-300, 1e-30, 1e-12, 2.56e-10, 1e-9, 1e-6, 1e-4};
    for (double b : tiny) {
      assertEquals(1.0, prompt(() -> SplitBlockMath.splitBlockFpRate(b)), 1e-12, "split " + b);
      prompt(() -> BloomMath.poissonBlockedFpRate(b, 6, 512));
      prompt(() -> BloomMath.poissonBlockedFpRate(b, 1, Integer.MAX_VALUE));
      prompt(() -> GrowthMath.blockedBloomFpRateWithProbeCollisions(b, 24, 512));
      prompt(() -> GrowthMath.blockedBloomFpRateWithProbeCollisions(b, 6, Integer.MAX_VALUE));
    }
    // the crafted inputs' shapes: 10^12 values over a 32-byte filter, 2^33 keys in 32 bytes
    assertEquals(
        1.0, prompt(() -> SplitBlockMath.splitBlockBloomFpRate(1_000_000_000_000L, 32)), 1e-9);
    assertEquals(1.0, prompt(() -> SplitBlockMath.splitBlockBloomFpRate(1L << 33, 32)), 1e-9);
    assertEquals(1.0, prompt(() -> SplitBlockMath.splitBlockBloomFpRate(Long.MAX_VALUE, 32)), 1e-9);
    // huge bits per key (an empty-ish filter): λ near 0
    assertEquals(0.0, prompt(() -> SplitBlockMath.splitBlockFpRate(Double.MAX_VALUE)), 1e-300);
    prompt(() -> BloomMath.poissonBlockedFpRate(1e300, 24, 512));
    prompt(() -> GrowthMath.blockedBloomFpRateWithProbeCollisions(1e300, 24, 512));
  }

  /** Many calls in a row stay fast: the window bounds the work, not just the worst case. */
  @Test
  void aThousandHostileCallsReturnPromptly() {
    assertTimeoutPreemptively(
        Duration.ofMillis(500),
        () -> {
          for (int i = 0; i < 1000; i++) {
            SplitBlockMath.splitBlockFpRate(1e-9 * (i + 1));
            BloomMath.poissonBlockedFpRate(1e-6 * (i + 1), 6, 1 << 30);
          }
        });
  }

  @Test
  void nanAndInfiniteInputsAreRefusedTyped() {
    assertTimeoutPreemptively(
        PROMPT,
        () -> {
          assertThrows(
              IllegalArgumentException.class, () -> SplitBlockMath.splitBlockFpRate(Double.NaN));
          assertThrows(
              IllegalArgumentException.class,
              () -> SplitBlockMath.splitBlockFpRate(Double.POSITIVE_INFINITY));
          assertThrows(
              IllegalArgumentException.class,
              () -> BloomMath.poissonBlockedFpRate(Double.NaN, 6, 512));
          assertThrows(
              IllegalArgumentException.class,
              () -> GrowthMath.blockedBloomFpRateWithProbeCollisions(Double.NaN, 6, 512));
          assertThrows(
              IllegalArgumentException.class,
              () -> GrowthMath.blockedBloomFpRateWithProbeCollisions(10, Integer.MAX_VALUE, 512));
        });
  }

  @Test
  void logPoissonPmfMatchesTheDirectFormula() {
    for (double lambda : new double[] {0.5, 3, 17.25, 300, 5000}) {
      double direct = -lambda;
      for (int j = 0; j <= 6000; j++) {
        if (j > 0) {
          direct += Math.log(lambda / j);
        }
        if (direct > -600) {
          assertEquals(direct, PoissonSums.logPmf(j, lambda), 1e-9, lambda + " " + j);
        }
      }
    }
  }
}
