package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#SHARDED}. */
class ShardedContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.SHARDED;
  }

  /**
   * the mean of the shards' Ribbon models (the tests' sharded filter is 4 Ribbon shards); 2%, as
   * ShardedFilterFprStatisticalTest states for Ribbon shards, whose column split rounds per shard.
   */
  @Override
  protected double modelTolerance() {
    return 0.02;
  }
}
