package dev.sieve.testing;

import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;

/**
 * Key-hash sets for the properties of RocksDB's filter blocks (the Ribbon builder in sieve-core,
 * the Ribbon level of RocksDB's policy in sieve-rocksdb): sizes drawn mostly small and now and then
 * up to 10^6, hash sets with consecutive and scattered duplicates, and the contract's check on a
 * built filter and on the one read back from its block.
 */
public final class RocksDbHashSets {
  private RocksDbHashSets() {}

  /** Sizes 0 to 10^6, mostly under 3,000 so that a run stays short. */
  public static Arbitrary<Integer> sizes() {
    return Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.integers().between(0, 3000)),
        Tuple.of(3, Arbitraries.integers().between(3000, 60_000)),
        Tuple.of(1, Arbitraries.integers().between(60_000, 1_000_000)));
  }

  /** A key-hash set of {@code size} entries; {@code dupPercent} of them repeat an earlier one. */
  public static long[] hashes(long seed, int size, int dupPercent) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] h = new long[size];
    for (int i = 0; i < size; i++) {
      if (i > 0 && rnd.nextInt(100) < dupPercent) {
        // half consecutive repeats (dropped by RocksDB's AddKey), half scattered (kept)
        h[i] = rnd.nextBoolean() ? h[i - 1] : h[rnd.nextInt(i)];
      } else {
        h[i] = rnd.nextLong();
      }
    }
    return h;
  }

  /** Fails naming {@code what} and the hash if {@code f} answers "absent" for any of them. */
  public static void assertAllPresent(Filter f, long[] hashes, String what) {
    for (long h : hashes) {
      if (!f.mayContainHash(h)) {
        throw new AssertionError(what + ": false negative for hash " + h + " in " + f);
      }
    }
  }

  /** A Ribbon or blocked Bloom filter read back from its RocksDB filter block. */
  public static Filter readBack(Filter f) {
    if (f instanceof Standard128RibbonFilter r) {
      return Standard128RibbonFilter.fromRocksDbFilterBlock(r.toRocksDbFilterBlock());
    }
    return BlockedBloomFilter.fromRocksDbFilterBlock(
        ((BlockedBloomFilter) f).toRocksDbFilterBlock());
  }
}
