package dev.sieve.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.hash.KeyHash;
import dev.sieve.range.RangeFilter;
import dev.sieve.registry.FilterType;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The {@code -fasthash} rows measure the hashing the former {@code FastLongKeyFilter} wrapper gave
 * them, now as the filter's own key scheme: keys as their own hashes for the filters that mix
 * hashes themselves (Xor, Binary Fuse), {@link KeyHash#mix64} for the others; the plain rows keep
 * Sieve's default hash, except the range filters, built over the keys themselves.
 */
class FastHashRowsTest {

  @Test
  void fastHashRowsCarryTheSchemeTheWrapperUsed() {
    long[] keys = new SplittableRandom(3).longs(2000).toArray();
    int fastRows = 0;
    for (StructureKind kind : SieveAdapters.kinds()) {
      Filter f = ((SieveFilterMembership) kind.builder().build(keys, 10)).filter();
      if (!kind.name().contains(SieveAdapters.FASTHASH_SUFFIX)) {
        // a range filter's build(long[]) keeps the keys as they are, so that it answers ranges;
        // its pre-hashed row is built from the hashes, as every pre-hashed row is
        boolean keysAsTheyAre =
            f instanceof RangeFilter && !kind.name().endsWith(SieveAdapters.PREHASHED_SUFFIX);
        // the other plain rows are built as a user's default builder builds: its key scheme
        KeyScheme plain =
            keysAsTheyAre ? KeyScheme.IDENTITY : FilterType.of(f).builder().keyScheme();
        assertEquals(plain, f.keyScheme(), kind.name());
        continue;
      }
      fastRows++;
      boolean identity = FilterType.of(f).isIdentitySafe();
      assertEquals(identity ? KeyScheme.IDENTITY : KeyScheme.MIX64, f.keyScheme(), kind.name());
      for (long key : keys) {
        long hash = identity ? key : KeyHash.mix64(key);
        assertTrue(f.mayContainHash(hash), kind.name() + " " + key);
        assertTrue(f.mayContain(key), kind.name() + " " + key);
      }
      assertFalse(f.getClass().getSimpleName().contains("FastLong"), "no wrapper");
    }
    assertTrue(fastRows >= 2, "the fast-hash rows are listed");
  }
}
