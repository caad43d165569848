package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#STANDARD_BLOOM}. */
class StandardBloomContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.STANDARD_BLOOM;
  }

  /**
   * BloomMath.standardFpRate's e^(-kn/m) for (1-1/m)^(kn) and independent probes: 2%, as
   * BloomFprStatisticalTest states.
   */
  @Override
  protected double modelTolerance() {
    return 0.02;
  }
}
