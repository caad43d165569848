package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.math.BloomMath;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Measured false-positive rates against the models, over real keys hashed with the RocksDB key
 * hash.
 *
 * <p>Setup: {@value #KEYS} random {@code long} keys with the top bit clear are added; {@value
 * #QUERIES} random keys with the top bit set (so certainly absent) are queried. The number of false
 * positives {@code X} is Binomial(N, p) for the true rate {@code p}.
 *
 * <p>The interval: the test passes when {@code |X/N - model| <= 4.42 · σ + tol · model}, with
 * {@code σ = sqrt(model (1 - model) / N)}: 4.42σ is a two-sided 99.999% normal interval for the
 * sampling error alone (a false alarm about once in 10^5 runs; the seeds are fixed, so a run is
 * reproducible), and {@code tol} is the stated accuracy of the model itself: 2% for {@link
 * BloomMath#standardFpRate} (the {@code e^(-kn/m)} approximation of {@code (1-1/m)^(kn)} and the
 * independence of probes, both negligible at 10^7 bits) and 6% for RocksDB's {@link
 * BloomMath#cacheLocalFpRate}, which replaces the Poisson average over block loads by the mean of
 * two points one standard deviation either side (RocksDB itself reports 0.957% measured against the
 * model's 0.9535% at 10 bits/key).
 */
class BloomFprStatisticalTest {
  private static final int KEYS = 1_000_000;
  private static final int QUERIES = 2_000_000;
  private static final double Z = 4.42;

  private static long[] keys(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] keys = new long[KEYS];
    for (int i = 0; i < KEYS; i++) {
      keys[i] = random.nextLong() >>> 1;
    }
    return keys;
  }

  private static double measure(Filter filter, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long fp = 0;
    for (int i = 0; i < QUERIES; i++) {
      if (filter.mayContain(random.nextLong() | Long.MIN_VALUE)) {
        fp++;
      }
    }
    return (double) fp / QUERIES;
  }

  private static void assertWithin(double measured, double model, double tolerance, String what) {
    double sigma = Math.sqrt(model * (1 - model) / QUERIES);
    double bound = Z * sigma + tolerance * model;
    System.out.printf(
        "%s: measured %.5f%%, model %.5f%%, ratio %.4f, allowed ±%.5f%%%n",
        what, measured * 100, model * 100, measured / model, bound * 100);
    assertTrue(
        Math.abs(measured - model) <= bound,
        () -> what + ": measured " + measured + " outside model " + model + " ± " + bound);
  }

  @ParameterizedTest(name = "{0} bits/key")
  @ValueSource(doubles = {6, 8, 10, 12, 16})
  void standardBloomMatchesStandardFpRate(double bitsPerKey) {
    StandardBloomFilter filter =
        StandardBloomFilter.builder().bitsPerKey(bitsPerKey).build(keys(11));
    double model = BloomMath.standardFpRate(bitsPerKey, filter.numProbes());
    assertWithin(
        measure(filter, 12),
        model,
        0.02,
        "standard Bloom @" + bitsPerKey + " b/k, k=" + filter.numProbes());
    // the model the filter reports is the same formula (plus the negligible 64-bit collision rate)
    assertTrue(Math.abs(filter.modelledFpRate() - model) < 1e-9);
    // at the optimal k about half the bits are set (1 - e^(-k/b))
    double expectedSet = 1 - Math.exp(-filter.numProbes() / bitsPerKey);
    assertTrue(Math.abs(filter.fractionOfBitsSet() - expectedSet) < 0.002);
  }

  @ParameterizedTest(name = "{0} bits/key")
  @ValueSource(doubles = {6, 8, 10, 12, 16})
  void blockedBloomMatchesCacheLocalFpRate(double bitsPerKey) {
    BlockedBloomFilter filter = BlockedBloomFilter.builder().bitsPerKey(bitsPerKey).build(keys(21));
    double actualBitsPerKey = (double) filter.sizeInBits() / KEYS;
    double model = BloomMath.cacheLocalFpRate(actualBitsPerKey, filter.numProbes(), 512);
    assertWithin(
        measure(filter, 22),
        model,
        0.06,
        "blocked Bloom @" + bitsPerKey + " b/k, k=" + filter.numProbes());
    assertTrue(Math.abs(filter.modelledFpRate() - model) < 1e-9);
  }
}
