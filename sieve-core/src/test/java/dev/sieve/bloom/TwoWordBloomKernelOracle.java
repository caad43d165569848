package dev.sieve.bloom;

import dev.sieve.internal.LongSegments;
import dev.sieve.internal.base.BatchScratch;

/**
 * The two-word Bloom probes as they were before the early-exit probe and the three-pass batch, kept
 * unchanged as the differential tests' oracle: two loads, two masks and one branch-free test per
 * hash, and the two-pass chunk probe. Only the probes are here; the layout helpers ({@link
 * TwoWordBloomKernel#remix} and the rest) did not change and are shared.
 */
final class TwoWordBloomKernelOracle {
  private TwoWordBloomKernelOracle() {}

  static long firstMask(long g, int j) {
    long m = (1L << (g >>> 58)) | (1L << (g >>> 52));
    if (j == 2) {
      return m;
    }
    m |= 1L << (g >>> 46);
    return j == 3 ? m : m | (1L << (g >>> 40));
  }

  static long secondMask(long g, int j) {
    int s = 58 - 6 * j;
    long m = (1L << (g >>> s)) | (1L << (g >>> (s - 6)));
    if (j == 2) {
      return m;
    }
    m |= 1L << (g >>> (s - 12));
    return j == 3 ? m : m | (1L << (g >>> (s - 18)));
  }

  static int firstWord(long g) {
    return (int) g & 7;
  }

  static int secondWord(long g) {
    int x = ((int) g >>> 3) & 7;
    return ((int) g & 7) ^ (x + ((x - 1) >>> 31));
  }

  static int blockBase(long hash64, int numBlocks) {
    return (int) (((hash64 >>> 32) * numBlocks) >>> 32) * 8;
  }

  static boolean mayContain(long[] w, int numBlocks, long hash64, int j) {
    int base = blockBase(hash64, numBlocks);
    long g = hash64 * 0x9E3779B97F4A7C15L;
    long a = w[base + firstWord(g)];
    long b = w[base + secondWord(g)];
    return ((~a & firstMask(g, j)) | (~b & secondMask(g, j))) == 0;
  }

  static boolean mayContain(LongSegments d, int numBlocks, long hash64, int j) {
    int base = blockBase(hash64, numBlocks);
    long g = hash64 * 0x9E3779B97F4A7C15L;
    long a = d.get(base + firstWord(g));
    long b = d.get(base + secondWord(g));
    return ((~a & firstMask(g, j)) | (~b & secondMask(g, j))) == 0;
  }

  static long probeChunk(long[] w, int numBlocks, int j, long[] hashes, int at, int chunk) {
    BatchScratch scratch = BatchScratch.get();
    long[] first = scratch.loaded;
    long[] second = scratch.state;
    long blocks = numBlocks;
    // pass 1: both words of every key of the chunk
    for (int i = 0; i < chunk; i++) {
      long h = hashes[at + i];
      int base = (int) (((h >>> 32) * blocks) >>> 32) * 8;
      long g = h * 0x9E3779B97F4A7C15L;
      first[i] = w[base + firstWord(g)];
      second[i] = w[base + secondWord(g)];
    }
    // pass 2: the masks and the branch-free test
    long word = 0;
    for (int i = 0; i < chunk; i++) {
      long g = hashes[at + i] * 0x9E3779B97F4A7C15L;
      long missing = (~first[i] & firstMask(g, j)) | (~second[i] & secondMask(g, j));
      word |= (missing == 0 ? 1L : 0L) << i;
    }
    return word;
  }
}
