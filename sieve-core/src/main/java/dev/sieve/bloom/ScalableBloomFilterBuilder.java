package dev.sieve.bloom;

import dev.sieve.KeyScheme;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.internal.base.Checks;

/**
 * Builds {@link ScalableBloomFilter}s: {@link #create()} gives an empty filter; the {@code build}
 * methods over keys add them one by one to an empty filter.
 */
public final class ScalableBloomFilterBuilder extends MutableFilterBuilder<ScalableBloomFilter> {
  @Override
  public ScalableBloomFilterBuilder keyScheme(KeyScheme scheme) {
    super.keyScheme(scheme);
    return this;
  }

  private long expectedKeys = DEFAULT_EXPECTED_KEYS;
  private double fpRate = 0.01;
  private double growthFactor = ScalableBloomFilter.DEFAULT_GROWTH_FACTOR;
  private double tighteningRatio = ScalableBloomFilter.DEFAULT_TIGHTENING_RATIO;

  ScalableBloomFilterBuilder() {}

  /** The initial guess of the key count, stage 0's capacity: 1 to 2^40 (default 1,000). */
  @Override
  public ScalableBloomFilterBuilder expectedKeys(long expectedKeys) {
    super.expectedKeys(ScalableBloomBuild.checkExpectedKeys(expectedKeys));
    this.expectedKeys = expectedKeys;
    return this;
  }

  /** The false-positive rate of the whole filter at every size, in (0, 1) (default 0.01). */
  @Override
  public ScalableBloomFilterBuilder fpRate(double fpRate) {
    this.fpRate = Checks.fpRate(fpRate);
    return this;
  }

  /** The factor {@code s} by which each stage's capacity exceeds the last's (default 2). */
  public ScalableBloomFilterBuilder growthFactor(double growthFactor) {
    this.growthFactor = ScalableBloomStage.checkGrowthFactor(growthFactor);
    return this;
  }

  /**
   * The ratio {@code r} by which each stage's rate is tighter than the last's (default 0.9): stage
   * {@code i} gets {@code f · (1 − r) · r^i}.
   */
  public ScalableBloomFilterBuilder tighteningRatio(double tighteningRatio) {
    this.tighteningRatio = ScalableBloomStage.checkTighteningRatio(tighteningRatio);
    return this;
  }

  /**
   * An empty filter with stage 0 allocated ({@link #create()}).
   *
   * @throws IllegalArgumentException if stage 0 cannot be sized (a rate below what 100 bits per key
   *     reach, or more bytes than FastLocalBloom allows)
   */
  @Override
  protected ScalableBloomFilter createEmpty() {
    return ScalableBloomBuild.createEmpty(expectedKeys, fpRate, growthFactor, tighteningRatio);
  }

  @Override
  protected ScalableBloomFilter buildFromHashes(long[] hashes, int count) {
    return ScalableBloomBuild.addAll(create(), hashes, count);
  }
}
