package dev.sieve.range;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.internal.SeededFinalizer;

/**
 * The range filters' builders' common supertype. A range filter is a filter over the keys' order,
 * so its builder's scheme is {@link KeyScheme#IDENTITY} unless set: the generic {@code
 * build(long[])} then stores the keys themselves and the filter answers range queries and point
 * queries alike. Byte and text keys have no {@code long} value under that scheme and are refused
 * ({@code KeySchemeException}); {@code buildFromByteKeys} maps them to their order-preserving
 * prefixes instead. Setting a hashing scheme ({@code keyScheme(KeyScheme.XXPH3)}) builds a point
 * filter over key hashes, whose range queries throw.
 *
 * @param <F> the filter class
 */
abstract class RangeBuilderBase<F extends Filter> extends FilterBuilder<F>
    implements SeededFinalizer {

  RangeBuilderBase() {
    super.keyScheme(KeyScheme.IDENTITY);
  }
}
