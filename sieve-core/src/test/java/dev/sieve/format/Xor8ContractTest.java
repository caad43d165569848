package dev.sieve.format;

import dev.sieve.registry.FilterType;

/** The {@link FilterContract} for {@link FilterType#XOR8}. */
class Xor8ContractTest extends FilterContract {

  @Override
  protected FilterType type() {
    return FilterType.XOR8;
  }

  /** exactly 2^-8 per absent key (FingerprintMath.xorFilterFpRate); no model error. */
  @Override
  protected double modelTolerance() {
    return 0.0;
  }
}
