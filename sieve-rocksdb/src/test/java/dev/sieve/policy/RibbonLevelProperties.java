package dev.sieve.policy;

import static dev.sieve.testing.RocksDbHashSets.assertAllPresent;
import static dev.sieve.testing.RocksDbHashSets.hashes;
import static dev.sieve.testing.RocksDbHashSets.readBack;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sieve.Filter;
import dev.sieve.RocksDbFilter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.ribbon.RibbonSizing;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.testing.RocksDbHashSets;
import dev.sieve.testing.SplitMix64;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * A Ribbon level of RocksDB's Ribbon policy: the contract as properties (every added hash is
 * present, in the built filter, Ribbon or Bloom fallback, and in the one read back from its block),
 * and the edges of the build: no keys, every seed failing, duplicates, bad arguments.
 */
class RibbonLevelProperties {

  @Provide
  Arbitrary<Integer> sizes() {
    return RocksDbHashSets.sizes();
  }

  @Property(tries = 60)
  void ribbonLevelHasNoFalseNegatives(
      @ForAll long seed,
      @ForAll("sizes") int size,
      @ForAll @DoubleRange(min = 1.0, max = 30.0) double bitsPerKey,
      @ForAll @IntRange(min = 0, max = 60) int dupPercent) {
    long[] h = hashes(seed, size, dupPercent);
    Filter f = RocksDbBuilds.ribbonLevel(h, h.length, bitsPerKey);
    assertAllPresent(f, h, "built");
    if (size > 0) {
      assertAllPresent(readBack(f), h, "read back");
    }
  }

  /** Arbitrary values, edge cases (0, ±1, MIN, MAX) and heavy duplication from a small pool. */
  @Provide
  Arbitrary<long[]> hashArrays() {
    Arbitrary<Long> pool = Arbitraries.longs().between(-40, 40);
    Arbitrary<Long> any = Arbitraries.longs();
    return Arbitraries.oneOf(any, pool, Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L))
        .array(long[].class)
        .ofMaxSize(3000);
  }

  @Property(tries = 100)
  void arbitraryHashArraysHaveNoFalseNegatives(
      @ForAll("hashArrays") long[] h,
      @ForAll @DoubleRange(min = 1.0, max = 30.0) double bitsPerKey) {
    assertAllPresent(RocksDbBuilds.ribbonLevel(h, h.length, bitsPerKey), h, "rocksdb");
  }

  @Example
  void noKeysIsRocksDbsZeroByteBlock() {
    RocksDbFilter rocks = RocksDbBuilds.ribbonLevel(new long[] {1, 2}, 0, 10);
    assertFalse(rocks.mayContainHash(1));
    assertEquals(0, ((Standard128RibbonFilter) rocks).toRocksDbFilterBlock().length);
  }

  @Example
  void whenEverySeedFailsTheLevelFallsBackToBloom() {
    long[] h = new long[1030];
    SplitMix64 rnd = new SplitMix64(42);
    for (int i = 0; i < h.length; i++) {
      h[i] = rnd.next();
    }
    BlockedBloomFilter bloom =
        (BlockedBloomFilter) RocksDbBuilds.ribbonAtSlots(h, h.length, 10, 1024, false);
    assertEquals(6, bloom.numProbes());
    assertAllPresent(bloom, h, "fallback");
  }

  @Example
  void scatteredDuplicatesAreSizedAsEntries() {
    // 20,000 entries over 2,000 distinct hashes in scattered order: sized for 20,000, solves at
    // the first seed because every repeat cancels to (0, 0)
    long[] distinct = hashes(11, 2000, 0);
    long[] h = new long[20_000];
    for (int i = 0; i < h.length; i++) {
      h[i] = distinct[(i * 7) % 2000];
    }
    Standard128RibbonFilter r =
        (Standard128RibbonFilter) RocksDbBuilds.ribbonLevel(h, h.length, 10);
    assertEquals((int) h[0] & 255, r.seed());
    assertEquals(20_000, r.numKeys());
    assertEquals(RibbonSizing.numSlotsForKeys(20_000), r.numSlots());
    assertAllPresent(r, distinct, "duplicates");
  }

  @Example
  void badArgumentsAreRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> RocksDbBuilds.ribbonLevel(new long[1], 1, 0.2));
    assertThrows(
        IndexOutOfBoundsException.class, () -> RocksDbBuilds.ribbonLevel(new long[1], 2, 10));
  }
}
