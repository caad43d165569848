package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#ORC_BLOOM}. */
class OrcBloomContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.ORC_BLOOM;
  }

  /**
   * The standard Bloom model (1 - e^(-kn/m))^k with ORC's 32-bit double hashing: the same 2% as the
   * standard Bloom filter's (StandardBloomContractTest), m being far below 2^32.
   */
  @Override
  protected double modelTolerance() {
    return 0.02;
  }
}
