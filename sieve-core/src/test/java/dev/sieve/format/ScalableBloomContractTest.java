package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#SCALABLE_BLOOM}. */
class ScalableBloomContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.SCALABLE_BLOOM;
  }

  /**
   * the stages' blocked-Bloom rates combined as independent events
   * (BloomMath.independentProbabilitySum); 8%, as ScalableBloomFilterTest states for 10^5 keys and
   * more.
   */
  @Override
  protected double modelTolerance() {
    return 0.08;
  }
}
