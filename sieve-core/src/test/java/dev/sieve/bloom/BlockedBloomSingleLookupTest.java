package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import dev.sieve.format.SieveFormat;
import dev.sieve.hash.KeyHash;
import dev.sieve.testing.SingleLookupCheck;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The blocked Bloom filter's single {@code long} lookup (the key's hash from the scheme field, the
 * heap probe called directly) against the hash path and the batch, for every scheme the builder
 * takes for {@code long} keys, on the heap and wrapped, in cache (branch-free probes, six and other
 * counts) and past {@link BlockedBloomKernel#BRANCH_FREE_MAX_BYTES} (early exit, six and other
 * counts); enough rounds that the single lookup runs interpreted first and compiled by C2 last.
 */
class BlockedBloomSingleLookupTest {
  private static final int KEYS = 20_000;
  private static final int QUERIES = 100_000;
  private static final int ROUNDS = 12;

  @Test
  void theSingleLookupAnswersAsTheHashPathAndTheBatch() {
    long[] keys = keys(KEYS, 7);
    long[] queries = new long[QUERIES];
    SplittableRandom rnd = new SplittableRandom(42);
    for (int i = 0; i < QUERIES; i++) {
      queries[i] = i % 5 == 0 ? keys[rnd.nextInt(KEYS)] : rnd.nextLong();
    }
    List<KeyScheme> taken = new ArrayList<>();
    for (KeyScheme scheme : KeyScheme.values()) {
      BlockedBloomFilter built;
      try {
        built = BlockedBloomFilter.builder().bitsPerKey(10).keyScheme(scheme).build(keys);
      } catch (IllegalArgumentException e) {
        continue; // a scheme this filter cannot carry (checked below)
      }
      taken.add(scheme);
      for (BlockedBloomFilter f : forms(built, scheme, keys)) {
        SingleLookupCheck.check(f, scheme, keys, queries, ROUNDS);
      }
    }
    assertTrue(taken.containsAll(List.of(KeyScheme.XXPH3, KeyScheme.FAST, KeyScheme.MIX64)));
    assertTrue(taken.containsAll(List.of(KeyScheme.PARQUET_XXH64, KeyScheme.ORC_MURMUR3)));
    assertFalse(taken.contains(KeyScheme.IDENTITY), "the blocked Bloom filter mixes no hash");
  }

  /** A filter of zero blocks answers "absent" on both paths. */
  @Test
  void anEmptyFilterAnswersAbsent() {
    BlockedBloomFilter empty = BlockedBloomFilter.buildRocksDb(new long[0], 0, 10_000);
    assertEquals(0, empty.numBlocks());
    for (long q : keys(1_000, 3)) {
      assertFalse(empty.mayContain(q));
      assertFalse(empty.mayContainHash(KeyHash.hash64(q)));
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> BlockedBloomFilter.builder().keyScheme(KeyScheme.IDENTITY).build(keys(10, 1)));
  }

  /**
   * The built filter, its wrapped copy, and filters of other shapes with the same keys: the built
   * one's six probes at 10 bits/key in cache, seven probes in cache (the general branch-free loop),
   * and past the branch-free size six probes and two (the early exits), there with more keys added
   * so that some absent queries answer "maybe".
   */
  private static List<BlockedBloomFilter> forms(
      BlockedBloomFilter built, KeyScheme scheme, long[] keys) {
    assertEquals(6, built.numProbes());
    BlockedBloomFilter wrapped =
        SieveFormat.wrap(ByteBuffer.wrap(SieveFormat.toBytes(built)), BlockedBloomFilter.class);
    assertTrue(wrapped.isWrapped());
    assertEquals(scheme, wrapped.keyScheme());
    long large = BlockedBloomKernel.BRANCH_FREE_MAX_BYTES + 64 * 1024;
    BlockedBloomFilter seven = filled(BlockedBloomFilter.withShape(32 * 1024, 7), scheme, keys, 0);
    BlockedBloomFilter six =
        filled(BlockedBloomFilter.withShape(large, 6), scheme, keys, 1_500_000);
    BlockedBloomFilter two = filled(BlockedBloomFilter.withShape(large, 2), scheme, keys, 300_000);
    assertTrue(six.numBlocks() > BlockedBloomKernel.BRANCH_FREE_MAX_BLOCKS);
    return List.of(built, wrapped, seven, six, two);
  }

  private static BlockedBloomFilter filled(
      BlockedBloomFilter empty, KeyScheme scheme, long[] keys, int moreKeys) {
    BlockedBloomFilter f = empty.withKeyScheme(scheme);
    for (long k : keys) {
      f.add(k);
    }
    for (long k : keys(moreKeys, 11)) {
      f.add(k);
    }
    return f;
  }

  private static long[] keys(int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] k = new long[n];
    for (int i = 0; i < n; i++) {
      k[i] = rnd.nextLong();
    }
    return k;
  }
}
