package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#CUCKOO}. */
class CuckooContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.CUCKOO;
  }

  /**
   * FingerprintMath.cuckooFilterFpRate at the filter's own load is exact for uniform fingerprints
   * (as CuckooFilterTest checks it); no model error.
   */
  @Override
  protected double modelTolerance() {
    return 0.0;
  }
}
