package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#XOR16}. */
class Xor16ContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.XOR16;
  }

  /** exactly 2^-16 per absent key; no model error. */
  @Override
  protected double modelTolerance() {
    return 0.0;
  }
}
