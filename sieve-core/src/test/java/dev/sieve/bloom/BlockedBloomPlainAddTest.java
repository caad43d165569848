package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The builders' plain adds ({@link BlockedBloomKernel#addAllPlain}: the straight-line form for six
 * probes, the loop for the other counts) set, word for word, the bits of RocksDB's probe loop as
 * written in util/bloom_impl.h (each probe's hash the one before times {@code 0x9e3779b9}) and of
 * the filter's own atomic add; hashes repeated next to each other and apart included. Enough rounds
 * that the adds run interpreted first and compiled by C2 last.
 */
class BlockedBloomPlainAddTest {
  private static final int ROUNDS = 6_000;
  private static final int HASHES = 512;

  @Test
  void plainAddsSetRocksDbsBitsBeforeAndAfterCompilation() {
    SplittableRandom rnd = new SplittableRandom(20_261_207L);
    long[] hashes = new long[HASHES];
    for (int round = 0; round < ROUNDS; round++) {
      // six probes (10 bits/key, the default) most rounds, so that its form compiles; the others
      // too
      int numProbes = round % 4 == 0 ? 1 + rnd.nextInt(30) : 6;
      int numBlocks = 1 + rnd.nextInt(round % 2 == 0 ? 8 : 4096);
      int count = rnd.nextInt(HASHES + 1);
      for (int i = 0; i < count; i++) {
        hashes[i] = i > 0 && rnd.nextInt(8) == 0 ? hashes[rnd.nextInt(i)] : rnd.nextLong();
      }
      long[] plain = new long[numBlocks * BlockedBloomKernel.WORDS_PER_BLOCK];
      BlockedBloomKernel.addAllPlain(plain, numBlocks, numProbes, hashes, count);
      assertArrayEquals(
          rocksDbLoop(numBlocks, numProbes, hashes, count),
          plain,
          "round " + round + ", " + numProbes + " probes, " + numBlocks + " blocks");
      if (round % 16 == 0) {
        BlockedBloomFilter oneByOne = BlockedBloomFilter.withShape(numBlocks * 64L, numProbes);
        for (int i = 0; i < count; i++) {
          oneByOne.addHash(hashes[i]);
        }
        assertEquals(oneByOne, BlockedBloomForm.onHeap(plain, numProbes, 0), "round " + round);
      }
    }
  }

  private static long[] rocksDbLoop(int numBlocks, int numProbes, long[] hashes, int count) {
    long[] w = new long[numBlocks * 8];
    for (int i = 0; i < count; i++) {
      long hash = hashes[i];
      int base = (int) (((hash & 0xFFFFFFFFL) * numBlocks) >>> 32) * 8;
      int h = (int) (hash >>> 32);
      for (int p = 0; p < numProbes; p++) {
        int bit = h >>> 23;
        w[base + (bit >>> 6)] |= 1L << bit;
        h *= 0x9e3779b9;
      }
    }
    return w;
  }
}
