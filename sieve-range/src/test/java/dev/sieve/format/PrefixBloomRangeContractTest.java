package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.range.PrefixBloomRangeFilter;
import dev.sieve.registry.FilterType;

/**
 * The {@link FilterContract} for {@link FilterType#PREFIX_BLOOM_RANGE}, as a point filter (its
 * range contract is {@code dev.sieve.range.RangeFilterPropertyTest}).
 */
class PrefixBloomRangeContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.PREFIX_BLOOM_RANGE;
  }

  @Override
  protected FilterBuilder<? extends Filter> builder() {
    // the contract asks keys of every form and their XXPH3 hashes: the point filter over hashes
    // (the range builders' own scheme, the keys themselves, is checked in dev.sieve.range)
    return PrefixBloomRangeFilter.builder()
        .maxRangeLength(16)
        .fpRate(0.01)
        .seed(7)
        .keyScheme(KeyScheme.XXPH3);
  }

  /** A point is one probe of the blocked Bloom filter: its model's accuracy (as blocked Bloom). */
  @Override
  protected double modelTolerance() {
    return 0.06;
  }
}
