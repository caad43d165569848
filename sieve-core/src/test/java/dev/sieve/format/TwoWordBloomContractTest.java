package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#TWO_WORD_BLOOM}. */
class TwoWordBloomContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.TWO_WORD_BLOOM;
  }

  /**
   * BloomMath.twoWordBloomFpRate treats a key's two words as independent given the block's load;
   * 3%, as TwoWordBloomFilterTest states.
   */
  @Override
  protected double modelTolerance() {
    return 0.03;
  }
}
