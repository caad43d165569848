package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#RIBBON}. */
class RibbonContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.RIBBON;
  }

  /**
   * RibbonMath.interleavedRibbonFpRate, 2^-r at the fractional result bits, is exact up to the
   * hash's quality; 1%, as RibbonFprStatisticalTest states.
   */
  @Override
  protected double modelTolerance() {
    return 0.01;
  }
}
