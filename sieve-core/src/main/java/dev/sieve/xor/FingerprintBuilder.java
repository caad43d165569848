package dev.sieve.xor;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.internal.SeededFinalizer;

/**
 * What the four fingerprint filters' builders share: the {@link #seed(long)} of the first
 * construction attempt and {@link #fpRate(double)}, which checks the rate against the fixed
 * fingerprint width (the size does not depend on it). Each public builder adds its own settings
 * (Binary Fuse: the arity) and its construction.
 *
 * @param <F> the filter built
 * @param <B> the concrete builder, returned by the setters
 */
abstract class FingerprintBuilder<F extends Filter, B extends FingerprintBuilder<F, B>>
    extends FilterBuilder<F> implements SeededFinalizer {
  private final String filterName;
  private final int fingerprintBits;

  /** The seed of the first construction attempt. */
  long seed = SeededHash.DEFAULT_SEED;

  FingerprintBuilder(String filterName, int fingerprintBits) {
    this.filterName = filterName;
    this.fingerprintBits = fingerprintBits;
  }

  abstract B self();

  /**
   * The seed of the first construction attempt (default: a fixed constant, so builds are
   * reproducible); a failed attempt moves to the next seed deterministically.
   *
   * @return this builder
   */
  @Override
  public B seed(long seed) {
    this.seed = seed;
    return self();
  }

  /**
   * Checks that the fixed fingerprint width reaches {@code fpRate}: at least {@code 2^-8} for the
   * 8-bit filters, {@code 2^-16} for the 16-bit ones. The size does not depend on it.
   *
   * @return this builder
   * @throws IllegalArgumentException if the rate is lower than the filter reaches, naming both
   */
  @Override
  public B fpRate(double fpRate) {
    XorConstruction.checkFpRate(filterName, fpRate, fingerprintBits);
    return self();
  }
}
