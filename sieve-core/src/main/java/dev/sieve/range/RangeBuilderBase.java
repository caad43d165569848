package dev.sieve.range;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.internal.SeededFinalizer;

/**
 * The range filters' builders' common supertype: they take {@code KeyScheme.IDENTITY} (the keys as
 * they are, for range queries).
 *
 * @param <F> the filter class
 */
abstract class RangeBuilderBase<F extends Filter> extends FilterBuilder<F>
    implements SeededFinalizer {}
