package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#BUMPED_RIBBON}. */
class BumpedRibbonContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.BUMPED_RIBBON;
  }

  /**
   * 2^-r per layer reached, exact up to the hash's quality; 1%, as BumpedRibbonFilterTest states.
   */
  @Override
  protected double modelTolerance() {
    return 0.01;
  }
}
