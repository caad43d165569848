package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#EXPANDABLE}. */
class ExpandableContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.EXPANDABLE;
  }

  /**
   * ExpandableMath.modelFpRate is the expected number of matching entries, Σ 2^-k over the entries'
   * known bits k: exact for the count of matches, an upper bound on the rate by at most the chance
   * of two matches in one run (below 1% of the rate at 1%); 2% allowed.
   */
  @Override
  protected double modelTolerance() {
    return 0.02;
  }
}
