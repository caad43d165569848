package dev.sieve.bloom;

import static dev.sieve.bloom.BlockedBloomKernel.blockBase;

import dev.sieve.internal.base.BatchScratch;

/**
 * One chunk of a {@link BlockedBloomFilter} heap batch through the SIMD line test ({@link
 * VectorLineProbe}), once the gate is open: one pass, no staging. The chunk probe itself, not a
 * lambda over a filter method, so the loop is in the method the batch calls, the compile root: one
 * more call level between that root and the vector kernel (a static helper elsewhere) left the
 * vector operations out of C2's inlining and made the batch several times slower.
 */
final class BlockedBloomVectorChunk implements BatchScratch.ChunkProbe {
  private final long[] words;
  private final int numBlocks;
  private final int numProbes;

  private BlockedBloomVectorChunk(long[] words, int numBlocks, int numProbes) {
    this.words = words;
    this.numBlocks = numBlocks;
    this.numProbes = numProbes;
  }

  /**
   * The chunk probe of a filter's heap words ({@code null} when wrapped), starting the SIMD path's
   * warm-up thread, which waits for 2^20 lookups ({@link VectorGate}); {@code null} where the SIMD
   * path cannot run: no {@code jdk.incubator.vector}, or wrapped storage.
   */
  static BlockedBloomVectorChunk forHeap(long[] words, int numBlocks, int numProbes) {
    if (!BlockedBloomKernel.VECTOR_PROBE || words == null) {
      return null;
    }
    VectorGate.BLOCKED_BLOOM.watch();
    return new BlockedBloomVectorChunk(words, numBlocks, numProbes);
  }

  @Override
  public long probe(long[] hashes, int at, int chunk) {
    long[] w = words;
    int n = numBlocks;
    // one pass: the vector line test is short and branch-light, so the core overlaps the lines of
    // consecutive keys without a separate loading pass (which measured slower)
    int k = numProbes;
    long word = 0;
    for (int i = 0; i < chunk; i++) {
      long hash = hashes[at + i];
      int base = blockBase(hash, n);
      int h = (int) (hash >>> 32);
      if (k <= 8
          ? VectorLineProbe.oneGroup(w, base, h, k)
          : VectorLineProbe.groups(w, base, h, k)) {
        word |= 1L << i;
      }
    }
    return word;
  }
}
