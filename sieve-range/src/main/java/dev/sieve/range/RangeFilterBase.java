package dev.sieve.range;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.KeySchemeException;

/**
 * The range filters' common supertype: each mixes its keys itself (Grafite's block hash, the prefix
 * Bloom filter's prefix hash), so keys are given as their own hashes ({@code KeyScheme.IDENTITY}),
 * the scheme under which the stored values are the keys themselves and a range of keys is a range
 * of stored values. Under any other scheme the stored values are key hashes, whose order has
 * nothing to do with the keys' order: such a filter answers point queries only, and every range
 * query on it is refused ({@link #checkRangeQueries()}) rather than answered, since an answer would
 * miss keys.
 */
abstract class RangeFilterBase implements Filter, RangeFilter {

  /**
   * Refuses a range (or range-point) query unless the stored values are the keys themselves.
   *
   * @throws KeySchemeException if the filter's keys were hashed ({@link #keyScheme()} is not {@link
   *     KeyScheme#IDENTITY})
   */
  final void checkRangeQueries() {
    KeyScheme s = keyScheme();
    if (s != KeyScheme.IDENTITY) {
      throw new KeySchemeException(
          getClass().getSimpleName()
              + " holds its keys hashed by "
              + s
              + ", so it answers point queries (mayContain) only: a range of keys says nothing"
              + " about their hashes. For range queries build it over the keys themselves:"
              + " builder().build(long[]) with no key scheme set, buildFromKeys(long[]) or"
              + " buildFromByteKeys(byte[][])");
    }
  }
}
