package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#BLOCKED_BLOOM}. */
class BlockedBloomContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.BLOCKED_BLOOM;
  }

  /**
   * RocksDB's cache-local model (BloomMath.cacheLocalFpRate) averages the block loads by two points
   * one standard deviation either side; 6%, as BloomFprStatisticalTest states.
   */
  @Override
  protected double modelTolerance() {
    return 0.06;
  }
}
