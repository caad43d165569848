package dev.sieve.xor;

import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;

/**
 * What the four fingerprint filters' builders share: the {@link #seed(long)} of the first
 * construction attempt and {@link #fpRate(double)}, which checks the rate against the fixed
 * fingerprint width (the size does not depend on it), and the construction itself, through the
 * class's {@link FingerprintFilter.Form}. The Binary Fuse builders add the arity ({@link
 * FuseFilter.Builder}).
 *
 * @param <F> the filter built
 * @param <B> the concrete builder, returned by the setters
 */
abstract class FingerprintBuilder<F extends FingerprintFilter, B extends FingerprintBuilder<F, B>>
    extends FilterBuilder<F> {
  private final FingerprintFilter.Form<?, F> form;

  /** The seed of the first construction attempt. */
  long seed = SeededHash.DEFAULT_SEED;

  /** Slots per key: 3, or for Binary Fuse 3 or 4 ({@link FuseFilter.Builder#arity(int)}). */
  int arity = 3;

  FingerprintBuilder(FingerprintFilter.Form<?, F> form) {
    super(KeyScheme.FAST);
    this.form = form;
  }

  @SuppressWarnings("unchecked")
  final B self() {
    return (B) this; // B is the concrete builder's own class
  }

  @Override
  public B keyScheme(KeyScheme scheme) {
    super.keyScheme(scheme);
    return self();
  }

  /**
   * {@return true: the probes remix each key hash with the seed through a full 64-bit finalizer}
   */
  @Override
  protected final boolean isIdentitySafe() {
    return true;
  }

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
   * 8-bit filters, {@code 2^-16} for the 16-bit ones. The size does not depend on it: the class
   * fixes the width, and {@code fpRate} neither narrows nor widens it, so a 16-bit filter asked for
   * a loose rate is still a 16-bit filter ({@code Xor16Filter.builder().fpRate(0.01)} builds 19.7
   * bits/key at 0.0015%, where {@code Xor8Filter} meets 0.01 in 9.8 bits/key at 0.39%). Pick the
   * class for the rate; {@code fpRate} only guards against asking one for a rate it cannot reach.
   *
   * @return this builder
   * @throws IllegalArgumentException if the rate is lower than the filter reaches, naming both
   */
  @Override
  public B fpRate(double fpRate) {
    XorConstruction.checkFpRate(form.className(), fpRate, form.fingerprintBits());
    return self();
  }

  /**
   * The construction of each builder's {@code buildFromHashes} (declared in each public builder,
   * where the API listing pins it): the first {@code count} hashes, which may be reordered.
   */
  final F construct(long[] hashes, int count) {
    return form.build(hashes, count, seed, arity);
  }
}
