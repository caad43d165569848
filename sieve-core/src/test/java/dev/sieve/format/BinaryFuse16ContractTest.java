package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#BINARY_FUSE16}. */
class BinaryFuse16ContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.BINARY_FUSE16;
  }

  /** exactly 2^-16 per absent key; no model error. */
  @Override
  protected double modelTolerance() {
    return 0.0;
  }
}
