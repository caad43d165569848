package dev.sieve.range;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;

/**
 * The range filters' builders' common supertype. A range filter is a filter over the keys' order,
 * so the generic {@code build(long[])} builds over the keys themselves ({@link KeyScheme#IDENTITY},
 * as {@code buildFromKeys} does) unless a scheme was set: the filter then answers range queries and
 * point queries alike. Byte and text keys through the generic {@code build} methods are hashed by
 * the scheme (XXPH3 unless set), and so is every key once a scheme is set: that gives a point
 * filter over key hashes, whose range queries throw ({@code RangeFilterBase}); {@code
 * buildFromByteKeys} builds a range filter over byte keys' order-preserving prefixes.
 *
 * @param <F> the filter class
 */
abstract class RangeBuilderBase<F extends Filter> extends FilterBuilder<F> {

  /** Whether {@link #keyScheme(KeyScheme)} was called: then long keys are hashed by the scheme. */
  private boolean schemeSet;

  RangeBuilderBase() {}

  @Override
  public FilterBuilder<F> keyScheme(KeyScheme scheme) {
    super.keyScheme(scheme);
    schemeSet = true;
    return this;
  }

  /**
   * {@return true: a range filter is built over the keys themselves, as their own hashes ({@link
   * KeyScheme#IDENTITY}), unless a scheme is set}
   */
  @Override
  protected final boolean isIdentitySafe() {
    return true;
  }

  @Override
  protected final F buildFromLongKeys(long[] keys) {
    return schemeSet ? null : buildOverKeys(keys.clone());
  }

  /** The filter over {@code keys} themselves (scheme IDENTITY); the array may be reordered. */
  abstract F buildOverKeys(long[] keys);
}
