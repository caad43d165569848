package dev.sieve.cuckoo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sieve.KeyScheme;
import dev.sieve.hash.KeyHash;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * A build's bulk adds ({@link CuckooBulkAdd}) give, word for word, the table that {@link
 * CuckooFilter#addHashIfAbsent} of each key hash in turn gives: for random key sets with repeats
 * (keys drawn from a small range), every fingerprint width (lanes that straddle words at 12 bits),
 * tables sized by the builder and tables far too small (kicks, and the add that finds the table
 * full at the same key).
 */
class CuckooBulkBuildPropertyTest {

  @Provide
  Arbitrary<long[]> keySets() {
    Arbitrary<long[]> repeats =
        Combinators.combine(
                Arbitraries.integers().between(1, 4000), Arbitraries.integers().between(0, 3000))
            .as(
                (range, n) -> {
                  long[] keys = new long[n];
                  java.util.SplittableRandom r = new java.util.SplittableRandom(31L * range + n);
                  for (int i = 0; i < n; i++) {
                    keys[i] = r.nextInt(range);
                  }
                  return keys;
                });
    return Arbitraries.oneOf(repeats, Arbitraries.longs().array(long[].class).ofMaxSize(3000));
  }

  /**
   * The builder's filter, from {@code long} keys (hashed a block at a time) and from their hashes,
   * is the one adding each key hash to a fresh table of its size gives.
   */
  @Property(tries = 200, seed = "7063607924056215640")
  void buildEqualsAddsOneByOne(
      @ForAll("keySets") long[] keys, @ForAll @IntRange(min = 4, max = 16) int fingerprintBits) {
    CuckooFilter built = CuckooFilter.builder().fingerprintBits(fingerprintBits).build(keys);
    CuckooFilter oneByOne = addOneByOne(keys, fingerprintBits);
    assertEquals(oneByOne.withKeyScheme(KeyScheme.FAST), built);
    assertEquals(oneByOne.numKeys(), built.numKeys());
    assertEquals(oneByOne.numBuckets(), built.numBuckets());
    assertEquals(
        built,
        CuckooFilter.builder().fingerprintBits(fingerprintBits).buildFromHashes(hashes(keys)));
  }

  /**
   * Into a table of 1 to 40 buckets, the hashes given in blocks of any length: the same words as
   * the adds one by one while they all succeed, and failure exactly where one of them fails.
   */
  @Property(tries = 300, seed = "-1811302245937365405")
  void smallTablesKickAndFailAsTheAddsDo(
      @ForAll("keySets") long[] keys,
      @ForAll @IntRange(min = 4, max = 16) int fingerprintBits,
      @ForAll @IntRange(min = 1, max = 40) int numBuckets,
      @ForAll @IntRange(min = 1, max = 600) int block) {
    long[] hashes = hashes(keys);
    CuckooFilter oneByOne = CuckooBuild.withBuckets(numBuckets, fingerprintBits);
    for (long h : hashes) {
      oneByOne.addHashIfAbsent(h);
      if (oneByOne.failedAdds() != 0) {
        break;
      }
    }
    long[] words = new long[CuckooKernel.wordsFor(numBuckets, fingerprintBits)];
    CuckooBulkAdd adds = new CuckooBulkAdd(words, numBuckets, fingerprintBits);
    boolean fits = true;
    for (int off = 0; fits && off < hashes.length; off += block) {
      long[] part = Arrays.copyOfRange(hashes, off, Math.min(hashes.length, off + block));
      fits = adds.add(part, part.length);
    }
    assertEquals(oneByOne.failedAdds() == 0, fits);
    if (fits) {
      assertEquals(
          oneByOne, new CuckooFilter(words, null, numBuckets, fingerprintBits, adds.stored()));
    }
  }

  private static long[] hashes(long[] keys) {
    long[] hashes = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      hashes[i] = KeyHash.mix64(keys[i]); // the builder's default scheme, FAST
    }
    return hashes;
  }

  /** The build as adds one at a time: grown by one bucket in eight while a set does not fit. */
  private static CuckooFilter addOneByOne(long[] keys, int fingerprintBits) {
    long[] hashes = hashes(keys);
    long buckets = CuckooBuild.bucketsFor(hashes.length);
    while (true) {
      CuckooFilter f = CuckooBuild.withBuckets((int) buckets, fingerprintBits);
      for (long h : hashes) {
        f.addHashIfAbsent(h);
      }
      if (f.failedAdds() == 0) {
        return f;
      }
      buckets += Math.max(1, buckets / 8);
    }
  }
}
