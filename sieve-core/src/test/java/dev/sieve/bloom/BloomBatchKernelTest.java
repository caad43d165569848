package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The two-pass batch kernels of {@link SplitBlockBloomFilter} and {@link BlockedBloomFilter}
 * ({@code mayContainHashes}, and the key batches built on it) against scalar references written
 * from the formats' byte-level descriptions, independently of the classes: Parquet's eight 32-bit
 * words per block, RocksDB's bit {@code pos & 7} of byte {@code pos >>> 3}. Heap filters and
 * filters wrapped in buffers (heap and direct, at arbitrary byte offsets), arbitrary block counts,
 * offsets and lengths; every added hash must answer "maybe" (no false negative). The long tests
 * loop until the kernels have been compiled by C2 and keep comparing afterwards.
 */
class BloomBatchKernelTest {
  private static final int[] SALT = {
    0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31
  };

  // ---------------------------------------------------------------- the references

  /** Parquet's check over the stored bytes: all eight bits of the hash's block set. */
  static boolean splitBlockReference(byte[] bitset, long hash) {
    ByteBuffer words = ByteBuffer.wrap(bitset).order(ByteOrder.LITTLE_ENDIAN);
    long z = bitset.length / 32;
    long block = ((hash >>> 32) * z) >>> 32;
    int key = (int) hash;
    for (int i = 0; i < 8; i++) {
      int bit = (key * SALT[i]) >>> 27;
      if ((words.getInt((int) (block * 32 + 4 * i)) & (1 << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  /** RocksDB's FastLocalBloom check over the stored bytes (the data before the trailer). */
  static boolean blockedReference(byte[] block, int numProbes, long hash) {
    long numBlocks = (block.length - BlockedBloomForm.TRAILER_BYTES) / 64;
    if (numBlocks == 0) {
      return false;
    }
    long b = ((hash & 0xFFFFFFFFL) * numBlocks) >>> 32;
    int h = (int) (hash >>> 32);
    for (int i = 0; i < numProbes; i++) {
      int pos = h >>> 23;
      if ((block[(int) (b * 64 + (pos >>> 3))] & (1 << (pos & 7))) == 0) {
        return false;
      }
      h *= 0x9e3779b9;
    }
    return true;
  }

  // ---------------------------------------------------------------- properties

  @Property(tries = 60)
  void splitBlockBatchesAnswerAsTheReference(
      @ForAll @IntRange(min = 1, max = 300) int numBlocks,
      @ForAll @IntRange(min = 0, max = 4000) int n,
      @ForAll @IntRange(min = 0, max = 130) int off,
      @ForAll @IntRange(min = 0, max = 600) int len,
      @ForAll @IntRange(min = 0, max = 63) int bufferOffset,
      @ForAll long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] added = random.longs(n).toArray();
    SplitBlockBloomFilter filter = SplitBlockBloomFilter.withNumBytes(numBlocks * 32);
    for (long h : added) {
      filter.addHash(h);
    }
    byte[] bitset = SplitBlockForm.toBytes(filter);
    long[] queries = queries(random, added, off + len);
    for (SplitBlockBloomFilter f :
        new SplitBlockBloomFilter[] {
          filter,
          SplitBlockBloomFilter.wrapParquetBitset(at(bitset, bufferOffset, false), n),
          SplitBlockBloomFilter.wrapParquetBitset(at(bitset, bufferOffset, true), n)
        }) {
      check(f, queries, off, len, h -> splitBlockReference(bitset, h), added);
    }
  }

  @Property(tries = 60)
  void blockedBatchesAnswerAsTheReference(
      @ForAll @IntRange(min = 1, max = 200) int numBlocks,
      @ForAll @IntRange(min = 1, max = 30) int numProbes,
      @ForAll @IntRange(min = 0, max = 3000) int n,
      @ForAll @IntRange(min = 0, max = 130) int off,
      @ForAll @IntRange(min = 0, max = 600) int len,
      @ForAll @IntRange(min = 0, max = 63) int bufferOffset,
      @ForAll long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] added = random.longs(n).toArray();
    BlockedBloomFilter filter = BlockedBloomFilter.withShape(numBlocks * 64L, numProbes);
    for (long h : added) {
      filter.addHash(h);
    }
    byte[] block = filter.toRocksDbFilterBlock();
    long[] queries = queries(random, added, off + len);
    for (BlockedBloomFilter f :
        new BlockedBloomFilter[] {
          filter,
          BlockedBloomFilter.wrapRocksDbFilterBlock(at(block, bufferOffset, false), n),
          BlockedBloomFilter.wrapRocksDbFilterBlock(at(block, bufferOffset, true), n)
        }) {
      check(f, queries, off, len, h -> blockedReference(block, numProbes, h), added);
    }
  }

  // ---------------------------------------------------------------- compiled kernels

  /**
   * One filter per type, queried in batches until C2 has compiled the kernels many times over (a
   * few million lookups), every answer compared with the reference; blocks from empty to full.
   */
  @Test
  void compiledSplitBlockBatchesAnswerAsTheReference() {
    SplittableRandom random = new SplittableRandom(20);
    // 4 KiB, filled to about 20 bits per block: many blocks answer both ways
    SplitBlockBloomFilter filter = SplitBlockBloomFilter.withNumBytes(4096);
    long[] added = random.longs(2_000).toArray();
    for (long h : added) {
      filter.addHash(h);
    }
    byte[] bitset = SplitBlockForm.toBytes(filter);
    compiledRounds(filter, bitset.length, random, added, h -> splitBlockReference(bitset, h));
  }

  /**
   * A split-block filter over {@link BlockedBloomKernel#BRANCH_FREE_MAX_BYTES}, whose single
   * lookups leave at the first long that misses a bit: single and batch answers against the
   * reference, until compiled and after; filled so that about a third of absent keys pass the first
   * long and are decided by a later one.
   */
  @Test
  void compiledEarlyExitSplitBlockLookupsAnswerAsTheReference() {
    SplittableRandom random = new SplittableRandom(22);
    int bytes = (int) BlockedBloomKernel.BRANCH_FREE_MAX_BYTES * 2;
    SplitBlockBloomFilter filter = SplitBlockBloomFilter.withNumBytes(bytes);
    long[] added = random.longs(bytes / 32 * 26).toArray(); // 26 values a block: 10 bits each
    for (long h : added) {
      filter.addHash(h);
    }
    byte[] bitset = SplitBlockForm.toBytes(filter);
    long[] queries = queries(random, added, 1 << 16);
    int maybes = 0;
    int lookups = 0;
    for (int round = 0; round < 40; round++) {
      for (int i = 0; i < queries.length; i++) {
        long h = queries[i];
        boolean want = splitBlockReference(bitset, h);
        if (filter.mayContainHash(h) != want) {
          throw new AssertionError("round " + round + " query " + i + ": expected " + want);
        }
        maybes += want ? 1 : 0;
      }
      lookups += queries.length;
    }
    // half the queries are added values, the other half absent at about 1.3% FPR
    assertTrue(maybes > lookups * 0.49 && maybes < lookups * 0.53, maybes + " of " + lookups);
    compiledRounds(filter, bytes, random, added, h -> splitBlockReference(bitset, h));
  }

  @Test
  void compiledBlockedBatchesAnswerAsTheReference() {
    SplittableRandom random = new SplittableRandom(21);
    for (int numProbes : new int[] {6, 1, 17}) {
      BlockedBloomFilter filter = BlockedBloomFilter.withShape(64 * 64, numProbes);
      long[] added = random.longs(3_000).toArray();
      for (long h : added) {
        filter.addHash(h);
      }
      byte[] block = filter.toRocksDbFilterBlock();
      compiledRounds(
          filter, block.length, random, added, h -> blockedReference(block, numProbes, h));
    }
  }

  private static void compiledRounds(
      dev.sieve.Filter filter,
      int bytes,
      SplittableRandom random,
      long[] added,
      java.util.function.LongPredicate reference) {
    long[] queries = queries(random, added, 4096);
    long[] bits = new long[64];
    int maybes = 0;
    int lookups = 0;
    for (int round = 0; round < 1_500; round++) {
      int off = random.nextInt(1000);
      int len = 1 + random.nextInt(3000);
      int count = filter.mayContainHashes(queries, off, len, bits);
      int expected = 0;
      for (int i = 0; i < len; i++) {
        boolean want = reference.test(queries[off + i]);
        expected += want ? 1 : 0;
        if (want != ((bits[i >>> 6] >>> (i & 63) & 1) != 0)) {
          throw new AssertionError(
              filter + " (" + bytes + " bytes) round " + round + " key " + (off + i));
        }
      }
      assertEquals(expected, count, "round " + round);
      maybes += expected;
      lookups += len;
    }
    // both answers occur often, so the agreement is not vacuous
    assertTrue(maybes > lookups / 5 && maybes < lookups * 4 / 5, maybes + " of " + lookups);
  }

  // ---------------------------------------------------------------- helpers

  /** Added hashes at the even positions, random ones at the odd. */
  private static long[] queries(SplittableRandom random, long[] added, int length) {
    long[] q = new long[length];
    for (int i = 0; i < length; i++) {
      q[i] =
          added.length > 0 && i % 2 == 0 ? added[random.nextInt(added.length)] : random.nextLong();
    }
    return q;
  }

  /** {@code bytes} in a buffer at position {@code offset} (heap or direct). */
  private static ByteBuffer at(byte[] bytes, int offset, boolean direct) {
    ByteBuffer b =
        direct
            ? ByteBuffer.allocateDirect(offset + bytes.length)
            : ByteBuffer.allocate(offset + bytes.length);
    b.position(offset);
    b.put(bytes);
    b.position(offset);
    return b;
  }

  private static void check(
      dev.sieve.Filter filter,
      long[] queries,
      int off,
      int len,
      java.util.function.LongPredicate reference,
      long[] added) {
    java.util.Set<Long> addedSet = new java.util.HashSet<>();
    for (long h : added) {
      addedSet.add(h);
    }
    int words = (len + 63) >>> 6;
    long[] bits = new long[words + 1];
    Arrays.fill(bits, 0xDEADBEEFL);
    int count = filter.mayContainHashes(queries, off, len, bits);
    int expected = 0;
    for (int i = 0; i < len; i++) {
      long h = queries[off + i];
      boolean want = reference.test(h);
      boolean single = filter.mayContainHash(h);
      boolean batch = (bits[i >>> 6] >>> (i & 63) & 1) != 0;
      String where = filter + " query " + i + " of " + len + " at " + off;
      assertEquals(want, single, where + " (single)");
      assertEquals(want, batch, where + " (batch)");
      if (addedSet.contains(h)) {
        assertTrue(batch, "false negative: " + where);
      }
      expected += want ? 1 : 0;
    }
    assertEquals(expected, count);
    if (len % 64 != 0) {
      assertEquals(0, bits[words - 1] & (-1L << (len % 64)), "unused result bits must be clear");
    }
    assertEquals(0xDEADBEEFL, bits[words], "the word past the result must not be written");
  }
}
