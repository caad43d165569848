package dev.sieve.ribbon;

import static dev.sieve.testing.RocksDbHashSets.assertAllPresent;
import static dev.sieve.testing.RocksDbHashSets.hashes;
import static dev.sieve.testing.RocksDbHashSets.readBack;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.testing.RocksDbHashSets;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * The contract, as properties: every added key is reported present, by the built filter and by the
 * filter read back from its RocksDB block, for arbitrary key sets (with consecutive and scattered
 * duplicates), sizes 0 to 10^6 and bloom-equivalent bits/key in [1, 30] (RocksDB's policy with its
 * Bloom fallback: sieve-rocksdb's {@code RibbonLevelProperties}). Sizes are drawn mostly small and
 * occasionally up to 10^6 to keep the run short.
 */
class RibbonNoFalseNegativeProperties {

  @Provide
  Arbitrary<Integer> sizes() {
    return RocksDbHashSets.sizes();
  }

  @Property(tries = 40)
  void ribbonBuilderHasNoFalseNegatives(
      @ForAll long seed,
      @ForAll("sizes") int size,
      @ForAll @DoubleRange(min = 1.0, max = 30.0) double bitsPerKey,
      @ForAll @IntRange(min = 0, max = 60) int dupPercent) {
    long[] h = hashes(seed, size, dupPercent);
    Standard128RibbonFilter f =
        Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(bitsPerKey).buildFromHashes(h);
    assertAllPresent(f, h, "built");
    assertAllPresent(readBack(f), h, "read back");
  }

  @Property(tries = 60)
  void ribbonBuilderAtAnyFpRateHasNoFalseNegatives(
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 5000) int size,
      @ForAll @DoubleRange(min = 0.2, max = 40.0) double log2OneInFp) {
    double fpRate = Math.pow(2.0, -log2OneInFp);
    long[] h = hashes(seed, size, 10);
    Standard128RibbonFilter f = Standard128RibbonFilter.builder().fpRate(fpRate).buildFromHashes(h);
    assertAllPresent(f, h, "fpRate " + fpRate);
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
    assertAllPresent(
        Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(bitsPerKey).buildFromHashes(h),
        h,
        "ribbon");
  }

  /**
   * Keys added one at a time, in any order: the band is order-independent, so with the same first
   * key (which picks the seed and the rounding) any order of the rest gives the same bytes.
   */
  @Property(tries = 30)
  void incrementalAddInAnyOrderGivesTheSameFilter(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 20_000) int size) {
    long[] h = hashes(seed, size, 5);
    Standard128RibbonFilterBuilder builder =
        Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(8);
    for (long x : h) {
      builder.addHash(x);
    }
    Standard128RibbonFilter inOrder = builder.buildAdded();
    assertEquals(0, builder.numAdded());
    // the first key stays first, the rest are shuffled
    long[] shuffled = h.clone();
    SplittableRandom rnd = new SplittableRandom(seed ^ 0x5eed);
    for (int i = shuffled.length - 1; i > 1; i--) {
      int j = 1 + rnd.nextInt(i);
      long t = shuffled[i];
      shuffled[i] = shuffled[j];
      shuffled[j] = t;
    }
    int consecutiveBefore = countConsecutiveRepeats(h);
    int consecutiveAfter = countConsecutiveRepeats(shuffled);
    for (long x : shuffled) {
      builder.addHash(x);
    }
    Standard128RibbonFilter anyOrder = builder.buildAdded();
    assertAllPresent(anyOrder, h, "shuffled");
    if (consecutiveBefore == consecutiveAfter) {
      // same count after RocksDB's consecutive de-duplication → same size, seed and solution
      assertArrayEquals(inOrder.toRocksDbFilterBlock(), anyOrder.toRocksDbFilterBlock());
    }
    assertTrue(inOrder.numKeys() > 0);
  }

  private static int countConsecutiveRepeats(long[] h) {
    int c = 0;
    for (int i = 1; i < h.length; i++) {
      if (h[i] == h[i - 1]) {
        c++;
      }
    }
    return c;
  }
}
