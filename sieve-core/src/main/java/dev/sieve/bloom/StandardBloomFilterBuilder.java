package dev.sieve.bloom;

import dev.sieve.KeyScheme;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.internal.base.Checks;
import dev.sieve.math.BloomMath;

/**
 * Builds {@link StandardBloomFilter}s: {@code m = ceil(n · bitsPerKey)} bits (at least 64) and the
 * optimal probe count unless one is given.
 */
public final class StandardBloomFilterBuilder extends MutableFilterBuilder<StandardBloomFilter> {
  @Override
  public StandardBloomFilterBuilder keyScheme(KeyScheme scheme) {
    super.keyScheme(scheme);
    return this;
  }

  private double bitsPerKey = 10.0;
  private int numProbes;

  StandardBloomFilterBuilder() {}

  /**
   * Sets bits per key, fractional, in [1, 1000] (default 10).
   *
   * @param bitsPerKey the setting
   * @return this builder
   */
  public StandardBloomFilterBuilder bitsPerKey(double bitsPerKey) {
    this.bitsPerKey =
        Checks.bitsPerKey(
            bitsPerKey, StandardBloomFilter.MIN_BITS_PER_KEY, StandardBloomFilter.MAX_BITS_PER_KEY);
    return this;
  }

  /**
   * Sizes for a target false-positive rate: the smallest bits/key whose rate at the optimal probe
   * count is at most {@code fpRate}.
   */
  @Override
  public StandardBloomFilterBuilder fpRate(double fpRate) {
    Checks.fpRate(fpRate);
    double lo = StandardBloomFilter.MIN_BITS_PER_KEY;
    double hi = StandardBloomFilter.MAX_BITS_PER_KEY;
    if (rateAt(lo) <= fpRate) {
      bitsPerKey = lo;
      return this;
    }
    for (int i = 0; i < 100; i++) {
      double mid = (lo + hi) / 2;
      if (rateAt(mid) <= fpRate) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    bitsPerKey = hi;
    return this;
  }

  private static double rateAt(double bitsPerKey) {
    return BloomMath.standardFpRate(bitsPerKey, BloomMath.optimalNumProbes(bitsPerKey));
  }

  /**
   * Sets a fixed probe count (1 to 64) in place of the optimal one.
   *
   * @param numProbes the setting
   * @return this builder
   */
  public StandardBloomFilterBuilder numProbes(int numProbes) {
    if (numProbes < 1 || numProbes > StandardBloomFilter.MAX_PROBES) {
      throw new IllegalArgumentException(
          "number of probes must be in [1, "
              + StandardBloomFilter.MAX_PROBES
              + "], got "
              + numProbes);
    }
    this.numProbes = numProbes;
    return this;
  }

  /** {@return the bits/key setting} */
  public double bitsPerKey() {
    return bitsPerKey;
  }

  @Override
  public StandardBloomFilterBuilder expectedKeys(long expectedKeys) {
    super.expectedKeys(expectedKeys);
    return this;
  }

  /** {@inheritDoc} {@code ceil(expectedKeys · bitsPerKey)} bits, at least 64. */
  @Override
  protected StandardBloomFilter createEmpty() {
    return createEmpty(expectedKeys());
  }

  private StandardBloomFilter createEmpty(long expectedKeys) {
    Checks.count("expected keys", expectedKeys, (long) (StandardBloomFilter.MAX_BITS / bitsPerKey));
    long bits = Math.max(Long.SIZE, (long) Math.ceil(expectedKeys * bitsPerKey));
    if (bits > StandardBloomFilter.MAX_BITS) {
      throw new IllegalArgumentException(
          expectedKeys
              + " keys at "
              + bitsPerKey
              + " bits/key need "
              + bits
              + " bits, over the limit of "
              + StandardBloomFilter.MAX_BITS);
    }
    int k = numProbes > 0 ? numProbes : BloomMath.optimalNumProbes(bitsPerKey);
    return StandardBloomForm.empty(bits, Math.min(k, StandardBloomFilter.MAX_PROBES));
  }

  @Override
  protected StandardBloomFilter buildFromHashes(long[] hashes, int count) {
    StandardBloomFilter filter = createEmpty(count);
    long[] w = filter.words;
    for (int i = 0; i < count; i++) {
      StandardBloomKernel.addPlain(w, filter.numBits, filter.numProbes, hashes[i]);
    }
    filter.data.countKeys(count);
    return filter;
  }
}
