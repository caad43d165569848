package dev.sieve.bloom;

/**
 * The blocked Bloom filter's probe and batch forms as they were before the straight-line kernel
 * ({@link BlockedBloomKernel#all6}, {@link BlockedBloomKernel#allProbes}) and the pipelined batch:
 * the test oracle of {@code BlockedBloomProbeDifferentialTest}. Each probe's hash comes from the
 * one before by a multiply by {@code 0x9e3779b9}, RocksDB's loop as written in util/bloom_impl.h.
 */
final class BlockedBloomProbeOracle {
  private BlockedBloomProbeOracle() {}

  /** Bit 0 is set iff all {@code numProbes} probe bits from {@code h} on are set (the old loop). */
  static long branchFree(long[] w, int base, int h, int numProbes) {
    long all = 1;
    for (int i = 0; i < numProbes; i++) {
      int p = h >>> 23;
      all &= w[base + (p >>> 6)] >>> p;
      h *= 0x9e3779b9;
    }
    return all;
  }

  /** The old single-key answer for a heap filter of {@code numBlocks} blocks. */
  static boolean mayContainHash(long[] w, int numBlocks, int numProbes, long hash) {
    if (numBlocks == 0) {
      return false;
    }
    int base = (int) (((hash & 0xFFFFFFFFL) * numBlocks) >>> 32) * 8;
    return (branchFree(w, base, (int) (hash >>> 32), numProbes) & 1) != 0;
  }

  /** The old two-pass chunk: bit {@code i} for {@code hashes[at + i]}, {@code chunk <= 64}. */
  static long probeChunk(long[] w, int numBlocks, int numProbes, long[] hashes, int at, int chunk) {
    int[] bases = new int[chunk];
    for (int i = 0; i < chunk; i++) {
      bases[i] = (int) (((hashes[at + i] & 0xFFFFFFFFL) * numBlocks) >>> 32) * 8;
    }
    long word = 0;
    for (int i = 0; i < chunk; i++) {
      word |= (branchFree(w, bases[i], (int) (hashes[at + i] >>> 32), numProbes) & 1) << i;
    }
    return word;
  }
}
