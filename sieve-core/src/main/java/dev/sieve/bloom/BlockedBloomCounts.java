package dev.sieve.bloom;

import dev.sieve.internal.BloomWords;
import dev.sieve.math.BloomMath;

/**
 * Counts over a blocked Bloom filter's blocks, off the lookup path: the key count estimated from
 * the set bits, the expected false-positive rate of the bits as they are, and saturation. Each is
 * one pass over the words, block by block (a block's 512 bits hold all of a key's probes, so its
 * bit count is what a key's rate depends on).
 */
final class BlockedBloomCounts {
  private BlockedBloomCounts() {}

  /** The bits per block: 512. */
  private static final int BLOCK_BITS = BlockedBloomFilter.BLOCK_BYTES * Byte.SIZE;

  /**
   * The distinct keys estimated from the set bits: block by block ({@link
   * BloomMath#blockedBloomBlockElementCount}, summed over the blocks), within about 1% for a filter
   * at its designed load ({@code n ≥ 10^4}). Once some block has every bit set (an overfilled
   * filter: at 10× its capacity about a quarter of the blocks are full) a full block's count is
   * unknowable, so the estimate pools the zero bits of all blocks instead: with the keys per block
   * Poisson with mean {@code λ}, the expected fraction of zero bits is {@code exp(-λ(1 - (1 -
   * 1/512)^k))}, solved for {@code λ} (within a few percent at 10× capacity, see {@code
   * BloomOverfillTest}). With fewer than {@value #SATURATION_ZERO_BITS} zero bits the estimate is
   * only a lower bound. One pass over the words.
   */
  static double approximateElementCount(BloomWords data, int numBlocks, int numProbes) {
    double sum = 0;
    long zeros = 0;
    boolean fullBlock = false;
    int blockBits = BLOCK_BITS;
    for (int b = 0; b < numBlocks; b++) {
      int set = blockBitsSet(data, b);
      zeros += blockBits - set;
      fullBlock |= set == blockBits;
      sum += BloomMath.blockedBloomBlockElementCount(set, blockBits, numProbes);
    }
    if (!fullBlock) {
      return sum;
    }
    double zeroFraction = Math.max(0.5, (double) zeros) / ((double) numBlocks * blockBits);
    double perKey = -Math.expm1(numProbes * Math.log1p(-1.0 / blockBits)); // 1 - (1 - 1/512)^k
    return Math.max(sum, numBlocks * -Math.log(zeroFraction) / perKey);
  }

  /** The mean over the blocks of {@code (bits set / 512)^k}; 0 for no blocks. */
  static double expectedFpRate(BloomWords data, int numBlocks, int numProbes) {
    if (numBlocks == 0) {
      return 0.0;
    }
    double sum = 0;
    double blockBits = BLOCK_BITS;
    for (int b = 0; b < numBlocks; b++) {
      sum += Math.pow(blockBitsSet(data, b) / blockBits, numProbes);
    }
    return sum / numBlocks;
  }

  /**
   * {@link BlockedBloomFilter#isSaturated}: whether there are blocks and fewer than {@value
   * #SATURATION_ZERO_BITS} zero bits in all of them.
   */
  static boolean isSaturated(BloomWords data, int numBlocks) {
    long zeros = 0;
    int limit = SATURATION_ZERO_BITS;
    for (int b = 0; b < numBlocks && zeros < limit; b++) {
      zeros += BLOCK_BITS - blockBitsSet(data, b);
    }
    return numBlocks > 0 && zeros < limit;
  }

  private static int blockBitsSet(BloomWords data, int block) {
    long base = (long) block * BlockedBloomKernel.WORDS_PER_BLOCK;
    return (int) data.bitCount(base, base + BlockedBloomKernel.WORDS_PER_BLOCK);
  }

  /** Fewer zero bits than this in the whole filter make it saturated ({@link #isSaturated}). */
  static final int SATURATION_ZERO_BITS = 32;
}
