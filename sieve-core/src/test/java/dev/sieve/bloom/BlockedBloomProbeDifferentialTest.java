package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import dev.sieve.hash.KeyHash;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The straight-line probe ({@link BlockedBloomKernel#all6}, {@link BlockedBloomKernel#allProbes},
 * powers of the golden multiplier in place of RocksDB's multiply chain) and the pipelined batch of
 * {@link BlockedBloomFilter} against the kernel they replaced ({@link BlockedBloomProbeOracle}):
 * single lookups, hash batches and key batches (XXPH3 and MIX64 keys), at arbitrary probe counts,
 * sizes, loads, offsets and lengths (not multiples of the 64-key chunk), on the heap and wrapped
 * (heap and direct buffers at odd offsets). The last test runs until C2 has compiled the new paths
 * and keeps comparing afterwards.
 */
class BlockedBloomProbeDifferentialTest {

  @Test
  void goldenPowersAreThePowersOfTheMultiplier() {
    int p = 1;
    int[] powers = {
      1,
      BlockedBloomKernel.GOLDEN32,
      BlockedBloomKernel.GOLDEN32_2,
      BlockedBloomKernel.GOLDEN32_3,
      BlockedBloomKernel.GOLDEN32_4,
      BlockedBloomKernel.GOLDEN32_5,
      BlockedBloomKernel.GOLDEN32_6,
      BlockedBloomKernel.GOLDEN32_7
    };
    for (int i = 0; i < powers.length; i++) {
      assertEquals(p, powers[i], "GOLDEN32^" + i);
      p *= 0x9e3779b9;
    }
  }

  @Property(tries = 80)
  void singleAndBatchAnswerAsTheOldKernel(
      @ForAll @IntRange(min = 1, max = 30) int numProbes,
      @ForAll @IntRange(min = 1, max = 400) int numBlocks,
      @ForAll @IntRange(min = 0, max = 120) int keysPerBlock,
      @ForAll @IntRange(min = 0, max = 150) int off,
      @ForAll @IntRange(min = 0, max = 700) int len,
      @ForAll @IntRange(min = 0, max = 63) int bufferOffset,
      @ForAll long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    BlockedBloomFilter filter = BlockedBloomFilter.withShape(numBlocks * 64L, numProbes);
    long[] keys = random.longs((long) numBlocks * keysPerBlock / 8).toArray();
    for (long key : keys) {
      filter.add(key);
    }
    long[] w = filter.data().heapOrNull();
    long[] queryKeys = queries(random, keys, off + len);
    long[] queryHashes = new long[queryKeys.length];
    KeyHash.hash64(queryKeys, 0, queryKeys.length, queryHashes, 0);
    byte[] block = filter.toRocksDbFilterBlock();
    long n = keys.length;
    for (BlockedBloomFilter f :
        new BlockedBloomFilter[] {
          filter,
          BlockedBloomFilter.wrapRocksDbFilterBlock(at(block, bufferOffset, false), n),
          BlockedBloomFilter.wrapRocksDbFilterBlock(at(block, bufferOffset, true), n)
        }) {
      compare(f, w, numBlocks, numProbes, queryKeys, queryHashes, off, len, KeyScheme.XXPH3);
      long[] mixed = new long[queryKeys.length];
      KeyScheme.MIX64.hash(queryKeys, 0, queryKeys.length, mixed, 0);
      compare(
          f.withKeyScheme(KeyScheme.MIX64),
          w,
          numBlocks,
          numProbes,
          queryKeys,
          mixed,
          off,
          len,
          KeyScheme.MIX64);
    }
  }

  /**
   * Filters of 6 probes (the straight-line kernel) and 7 (the paired loop), in cache and above
   * {@link BlockedBloomKernel#BRANCH_FREE_MAX_BYTES} (early exit), queried single and in batches
   * until C2 has compiled every path many times over, every answer compared with the old kernel.
   */
  @Test
  void compiledPathsAnswerAsTheOldKernel() {
    SplittableRandom random = new SplittableRandom(37);
    long total = 0;
    long maybes = 0;
    int large = (int) (BlockedBloomKernel.BRANCH_FREE_MAX_BYTES / 64) + 64;
    int[][] shapes = {{6, 1 << 10}, {7, 1 << 10}, {6, large}}; // probes, blocks
    for (int[] shape : shapes) {
      int numProbes = shape[0];
      int numBlocks = shape[1];
      BlockedBloomFilter filter = BlockedBloomFilter.withShape(numBlocks * 64L, numProbes);
      long[] keys = random.longs(numBlocks * 50L).toArray(); // ~10 bits/key
      for (long key : keys) {
        filter.add(key);
      }
      long[] w = filter.data().heapOrNull();
      long[] queryKeys = queries(random, keys, 1 << 14);
      long[] queryHashes = new long[queryKeys.length];
      KeyHash.hash64(queryKeys, 0, queryKeys.length, queryHashes, 0);
      long[] bits = new long[64];
      for (int round = 0; round < 8; round++) {
        for (int i = 0; i < queryKeys.length; i++) {
          boolean want =
              BlockedBloomProbeOracle.mayContainHash(w, numBlocks, numProbes, queryHashes[i]);
          if (filter.mayContain(queryKeys[i]) != want) {
            throw new AssertionError("k=" + numProbes + " round " + round + " key " + i);
          }
          maybes += want ? 1 : 0;
        }
        for (int b = 0; b < 40; b++) {
          int off = random.nextInt(1 << 12);
          int len = 1 + random.nextInt(3000);
          int count = filter.mayContainBatch(queryKeys, off, len, bits);
          assertEquals(expect(w, numBlocks, numProbes, queryHashes, off, len, bits), count);
          count = filter.mayContainHashes(queryHashes, off, len, bits);
          assertEquals(expect(w, numBlocks, numProbes, queryHashes, off, len, bits), count);
        }
        total += queryKeys.length;
      }
    }
    // half the queries were added: both answers occur often, so the agreement is not vacuous
    assertTrue(maybes > total * 0.49 && maybes < total * 0.56, maybes + " of " + total);
  }

  // ---------------------------------------------------------------- helpers

  private static void compare(
      BlockedBloomFilter f,
      long[] w,
      int numBlocks,
      int numProbes,
      long[] queryKeys,
      long[] queryHashes,
      int off,
      int len,
      KeyScheme scheme) {
    for (int i = off; i < off + len; i++) {
      boolean want =
          BlockedBloomProbeOracle.mayContainHash(w, numBlocks, numProbes, queryHashes[i]);
      assertEquals(want, f.mayContainHash(queryHashes[i]), scheme + " hash " + i);
      assertEquals(want, f.mayContain(queryKeys[i]), scheme + " key " + i);
    }
    long[] bits = new long[((len + 63) >>> 6) + 1];
    bits[bits.length - 1] = 0x5eed;
    int count = f.mayContainHashes(queryHashes, off, len, bits);
    assertEquals(expect(w, numBlocks, numProbes, queryHashes, off, len, bits), count, "hashes");
    assertEquals(0x5eed, bits[bits.length - 1], "a word past the answers was written");
    count = f.mayContainBatch(queryKeys, off, len, bits);
    assertEquals(expect(w, numBlocks, numProbes, queryHashes, off, len, bits), count, "keys");
  }

  /**
   * Checks {@code bits} against the old kernel's chunks over {@code hashes[off, off + len)} (bits
   * past {@code len} in the last word must be clear) and returns the old kernel's count.
   */
  private static int expect(
      long[] w, int numBlocks, int numProbes, long[] hashes, int off, int len, long[] bits) {
    int count = 0;
    for (int done = 0; done < len; done += 64) {
      int chunk = Math.min(64, len - done);
      long want =
          BlockedBloomProbeOracle.probeChunk(w, numBlocks, numProbes, hashes, off + done, chunk);
      assertEquals(want, bits[done >>> 6], "result word " + (done >>> 6) + " of len " + len);
      count += Long.bitCount(want);
    }
    return count;
  }

  /** Added keys at the even positions, random ones at the odd. */
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
}
