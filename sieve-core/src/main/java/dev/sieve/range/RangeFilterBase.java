package dev.sieve.range;

import dev.sieve.Filter;
import dev.sieve.internal.SeededFinalizer;

/**
 * The range filters' common supertype: each mixes its keys itself (Grafite's block hash, the prefix
 * Bloom filter's prefix hash), so keys may be given as their own hashes ({@code
 * KeyScheme.IDENTITY}), the scheme under which the range methods see the keys themselves.
 */
abstract class RangeFilterBase implements Filter, RangeFilter, SeededFinalizer {}
