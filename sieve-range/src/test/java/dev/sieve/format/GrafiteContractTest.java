package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.range.GrafiteFilter;
import dev.sieve.registry.FilterType;

/**
 * The {@link FilterContract} for {@link FilterType#GRAFITE}, as a point filter (its range contract
 * is {@code dev.sieve.range.RangeFilterPropertyTest}).
 */
class GrafiteContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.GRAFITE;
  }

  /** Ranges up to 16 at 16%: points at 1%, where the false-positive check has power. */
  @Override
  protected FilterBuilder<? extends Filter> builder() {
    // the contract asks keys of every form and their XXPH3 hashes: the point filter over hashes
    // (the range builders' own scheme, the keys themselves, is checked in dev.sieve.range)
    return GrafiteFilter.builder()
        .maxRangeLength(16)
        .fpRate(0.16)
        .seed(7)
        .keyScheme(KeyScheme.XXPH3);
  }

  /**
   * The model {@code 1 − (1 − 1/r)^m} is the exact chance that a random code meets one of the m
   * stored ones (the block hash is a strong mixer); 2% allowed.
   */
  @Override
  protected double modelTolerance() {
    return 0.02;
  }
}
