package dev.sieve.expand;

import dev.sieve.KeyScheme;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.internal.base.Checks;

/**
 * Builds {@link ExpandableFilter}s: {@link #fpRate(double)} (default 1%) and an optional {@link
 * #expectedKeys(long)} hint, and {@link #keyScheme(KeyScheme)}. Without the hint {@link #create()}
 * starts at the smallest table, {@code 2^}{@value ExpandableMath#MIN_LOG_SLOTS} slots, and grows;
 * with it, at the smallest table that holds that many keys. A build from keys sizes for them and
 * adds each.
 */
public final class ExpandableFilterBuilder extends MutableFilterBuilder<ExpandableFilter> {
  private double fpRate = 0.01;
  private boolean hinted;

  ExpandableFilterBuilder() {
    super(KeyScheme.FAST);
  }

  /** {@inheritDoc} */
  @Override
  public ExpandableFilterBuilder keyScheme(KeyScheme scheme) {
    super.keyScheme(scheme);
    return this;
  }

  /**
   * {@inheritDoc} The rate holds at every size the filter grows to. The highest rate accepted is
   * {@value ExpandableMath#MAX_FP_RATE}, the lowest that of {@value
   * ExpandableMath#MAX_BASE_FINGERPRINT_BITS}-bit fingerprints, about {@code 1.5e-8}: a key's known
   * hash bits (quotient and fingerprint) must fit in its 64-bit hash at the largest size.
   */
  @Override
  public ExpandableFilterBuilder fpRate(double fpRate) {
    if (Checks.fpRate(fpRate) > ExpandableMath.MAX_FP_RATE) {
      throw new IllegalArgumentException(
          "fpRate " + fpRate + " is above the highest, " + ExpandableMath.MAX_FP_RATE);
    }
    int bits = ExpandableMath.baseFingerprintBits(fpRate);
    if (bits > ExpandableMath.MAX_BASE_FINGERPRINT_BITS) {
      throw new IllegalArgumentException(
          "fpRate "
              + fpRate
              + " is below the lowest this filter keeps at every size, "
              + ExpandableMath.MAX_LOAD
                  * ExpandableMath.wideningSum(ExpandableMath.MAX_DOUBLINGS)
                  * Math.scalb(1.0, -ExpandableMath.MAX_BASE_FINGERPRINT_BITS));
    }
    this.fpRate = fpRate;
    return this;
  }

  /**
   * A hint: the table starts at the size that holds this many keys, and grows past it as needed.
   *
   * @param expectedKeys at least 0
   * @return this builder
   */
  @Override
  public ExpandableFilterBuilder expectedKeys(long expectedKeys) {
    ExpandableGrowth.shapeFor(expectedKeys); // checks the range
    super.expectedKeys(expectedKeys);
    hinted = true;
    return this;
  }

  @Override
  protected ExpandableFilter createEmpty() {
    return create(fpRate, hinted ? ExpandableGrowth.shapeFor(expectedKeys()) : 0);
  }

  /**
   * A filter of the shape {@code log << 8 | mant} ({@link ExpandableGrowth#shapeFor}), sized for
   * its key count ({@link ExpandableMath#sizedBits}); 0: none, grown from the smallest table.
   */
  private static ExpandableFilter create(double fpRate, int shape) {
    if (shape == 0) {
      return ExpandableOps.empty(fpRate, ExpandableMath.MIN_LOG_SLOTS, 0, false);
    }
    return ExpandableOps.empty(fpRate, shape >>> 8, shape & 0xFF, true);
  }

  @Override
  protected ExpandableFilter buildFromHashes(long[] hashes, int count) {
    ExpandableFilter f = create(fpRate, ExpandableGrowth.shapeFor(count));
    for (int i = 0; i < count; i++) {
      f.addHash(hashes[i]);
    }
    return f;
  }
}
