package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sieve.KeyScheme;
import dev.sieve.internal.LongKeyBlocks;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * The builds from {@code long} keys that hash the keys a block at a time ({@link
 * BloomLongKeyBuild}) give, word for word, the filter of the same shape with the keys added one by
 * one, and the filter built from the keys' hashes: for random key sets crossing several blocks,
 * with repeats next to each other (which RocksDB's build counts once) and apart, at any bits/key,
 * under every scheme the builders take; and the builders' own path with the touch pass of large
 * filters forced on these small ones gives the same words.
 */
class BloomLongKeyBuildPropertyTest {

  @Provide
  Arbitrary<long[]> keySets() {
    Arbitrary<long[]> repeats =
        Combinators.combine(
                Arbitraries.integers().between(1, 3000),
                Arbitraries.integers().between(0, 2500),
                Arbitraries.of(false, true))
            .as(
                (range, n, sorted) -> {
                  SplittableRandom r = new SplittableRandom(31L * range + n);
                  long[] keys = new long[n];
                  for (int i = 0; i < n; i++) {
                    keys[i] = r.nextInt(range) - range / 2;
                  }
                  if (sorted) {
                    Arrays.sort(keys); // runs of equal neighbours
                  }
                  return keys;
                });
    return Arbitraries.oneOf(repeats, Arbitraries.longs().array(long[].class).ofMaxSize(2500));
  }

  @Provide
  Arbitrary<KeyScheme> schemes() {
    return Arbitraries.of(
        KeyScheme.XXPH3,
        KeyScheme.FAST,
        KeyScheme.MIX64,
        KeyScheme.PARQUET_XXH64,
        KeyScheme.ORC_MURMUR3);
  }

  @Property(tries = 250, seed = "4127093384170442717")
  void blockedBloomEqualsAddsOneByOne(
      @ForAll("keySets") long[] keys,
      @ForAll("schemes") KeyScheme scheme,
      @ForAll @DoubleRange(min = 1, max = 40) double bitsPerKey) {
    BlockedBloomFilterBuilder builder =
        BlockedBloomFilter.builder().bitsPerKey(bitsPerKey).keyScheme(scheme);
    BlockedBloomFilter built = builder.build(keys);
    assertEquals(builder.buildFromHashes(hashes(keys, scheme)), built);
    if (built.numBlocks() == 0) {
      assertEquals(0, keys.length);
      return;
    }
    BlockedBloomFilter oneByOne =
        BlockedBloomFilter.withShape(built.numBlocks() * 64L, built.numProbes())
            .withKeyScheme(scheme);
    for (long key : keys) {
      oneByOne.add(key);
    }
    assertEquals(oneByOne, built);
    if (LongKeyBlocks.injective(scheme)) { // the builder's own path, with its touch pass forced
      assertEquals(
          oneByOne,
          BloomLongKeyBuild.blocked(keys, scheme, builder.millibitsPerKey(), 0)
              .withKeyScheme(scheme));
    }
  }

  @Property(tries = 250, seed = "-6630468061349212385")
  void twoWordBloomEqualsAddsOneByOne(
      @ForAll("keySets") long[] keys,
      @ForAll("schemes") KeyScheme scheme,
      @ForAll @DoubleRange(min = 1, max = 40) double bitsPerKey,
      @ForAll @IntRange(min = 0, max = 4) int bitsPerWord) {
    TwoWordBloomFilter.Builder builder =
        TwoWordBloomFilter.builder()
            .bitsPerKey(bitsPerKey)
            .bitsPerWord(bitsPerWord == 1 ? 0 : bitsPerWord)
            .keyScheme(scheme);
    TwoWordBloomFilter built = builder.build(keys);
    assertEquals(builder.buildFromHashes(hashes(keys, scheme)), built);
    TwoWordBloomFilter oneByOne =
        TwoWordBloomForm.empty(built.numBlocks(), built.bitsPerWord()).withKeyScheme(scheme);
    for (long key : keys) {
      oneByOne.add(key);
    }
    assertEquals(oneByOne, built);
    if (LongKeyBlocks.injective(scheme)) { // the builder's own path, with its touch pass forced
      assertEquals(
          oneByOne,
          BloomLongKeyBuild.twoWord(keys, scheme, builder.bitsPerKey(), built.bitsPerWord(), 0)
              .withKeyScheme(scheme));
    }
  }

  private static long[] hashes(long[] keys, KeyScheme scheme) {
    long[] hashes = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      hashes[i] = scheme.hash(keys[i]);
    }
    return hashes;
  }
}
