package dev.sieve.ribbon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.math.RibbonMath;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Measured false-positive rates of Standard128Ribbon against its model.
 *
 * <p>Setup: {@value #KEYS} random 64-bit key hashes are added; {@value #QUERIES} further random
 * hashes from an independent stream are queried (a collision with an added hash has probability
 * about 10^-8 in the whole run). The number of false positives {@code X} is Binomial(N, p).
 *
 * <p>The model: {@link RibbonMath#interleavedRibbonFpRate}, {@code p·2^-(c-1) + (1-p)·2^-c} for the
 * filter's column split, i.e. {@code 2^-r} at the fractional result bits {@code r}. It is exact up
 * to the quality of the hash bits: for an absent key the result row is uniform and independent of
 * the coefficient row, so each column matches the solution's parity with probability 1/2.
 *
 * <p>The interval: pass when {@code |X/N − model| ≤ 4.42·σ + 0.01·model}, {@code σ = sqrt(model(1 −
 * model)/N)}: 4.42σ is the two-sided 99.999% normal interval for sampling error (the streams are
 * seeded, so a run is reproducible), 1% an allowance for the model. The settings cover fractional
 * and whole result bits, from 1.3 to 12 bits.
 */
class RibbonFprStatisticalTest {
  private static final int KEYS = 200_000;
  private static final int QUERIES = 2_000_000;
  private static final double Z = 4.42;

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "bloom-equivalent 1, 1, 0",
    "bloom-equivalent 2, 2, 0",
    "bloom-equivalent 5, 5, 0",
    "bloom-equivalent 10, 10, 0",
    "bloom-equivalent 16, 16, 0",
    "fpr 2^-7 (whole columns), 0, 0.0078125",
    "fpr 1/3000, 0, 0.00033333333333",
  })
  void measuredFprIsInsideTheModelInterval(String name, double bitsPerKey, double fpRate) {
    SplittableRandom keys = new SplittableRandom(name.hashCode());
    long[] h = new long[KEYS];
    for (int i = 0; i < KEYS; i++) {
      h[i] = keys.nextLong();
    }
    Standard128RibbonFilterBuilder b = Standard128RibbonFilter.builder();
    Standard128RibbonFilter f =
        (fpRate > 0 ? b.fpRate(fpRate) : b.bloomEquivalentBitsPerKey(bitsPerKey))
            .buildFromHashes(h);
    double model = f.modelledFpRate();
    assertEquals(RibbonMath.ribbonFpRate(f.resultBits()), model, 1e-9);
    double target =
        fpRate > 0 ? fpRate : 1.0 / RibbonSizing.oneInFpRateForBloomBitsPerKey(bitsPerKey);
    // the sizing meets the target to within the rounding of the column split to whole blocks
    assertEquals(target, model, target * 0.01);

    SplittableRandom queries = new SplittableRandom(~name.hashCode());
    long fp = 0;
    for (int i = 0; i < QUERIES; i++) {
      if (f.mayContainHash(queries.nextLong())) {
        fp++;
      }
    }
    double measured = (double) fp / QUERIES;
    double sigma = Math.sqrt(model * (1 - model) / QUERIES);
    double bound = Z * sigma + 0.01 * model;
    System.out.printf(
        "Ribbon %s: %.3f result bits, %.3f bits/key (%.4f× floor), measured %.5f%%, model %.5f%%,"
            + " ratio %.4f, allowed ±%.5f%%%n",
        name,
        f.resultBits(),
        f.bitsPerKey(),
        f.overheadOverFloor(),
        measured * 100,
        model * 100,
        measured / model,
        bound * 100);
    assertTrue(
        Math.abs(measured - model) <= bound,
        () -> name + ": measured " + measured + " outside model " + model + " ± " + bound);
  }
}
