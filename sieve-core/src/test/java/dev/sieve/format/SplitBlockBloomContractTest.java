package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#SPLIT_BLOCK_BLOOM}. */
class SplitBlockBloomContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.SPLIT_BLOCK_BLOOM;
  }

  /**
   * BloomMath.splitBlockBloomFpRate treats the eight words of a block as independent; 4%, as
   * SplitBlockBloomFilterTest states.
   */
  @Override
  protected double modelTolerance() {
    return 0.04;
  }

  /**
   * The payload is Parquet's raw bitset, whose length is the filter's size: a bitset cut to whole
   * 32-byte blocks is a smaller valid filter (the container's recorded length catches the cut).
   */
  @Override
  protected boolean payloadDetectsTruncation() {
    return false;
  }
}
