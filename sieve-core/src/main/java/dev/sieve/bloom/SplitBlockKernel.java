package dev.sieve.bloom;

import dev.sieve.internal.AtomicBits;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.base.BatchScratch;
import dev.sieve.math.SplitBlockMath;

/**
 * The probe and add loops of {@link SplitBlockBloomFilter} over raw storage, heap ({@code long[]})
 * and wrapped ({@link LongSegments}) side by side, as {@link BlockedBloomKernel} is for the blocked
 * filter: pure static math, so a query inlines it into its own loop. The layout (Parquet's
 * BloomFilter.md) is the filter's class comment: block {@code ((h >>> 32) · z) >>> 32}, and in
 * 32-bit word {@code i} of the block bit {@code (key · SALT[i]) >>> 27} for the low 32 bits {@code
 * key} of the hash, with words {@code 2j} and {@code 2j + 1} the low and high halves of the block's
 * long {@code j}. The SIMD check is {@link SplitBlockVectorProbe}'s.
 */
final class SplitBlockKernel {

  /** Longs per 32-byte block. */
  static final int LONGS_PER_BLOCK = SplitBlockBloomFilter.BLOCK_BYTES / Long.BYTES;

  /**
   * Whether heap-resident filters may use the SIMD check ({@link SplitBlockVectorProbe}): the
   * module {@code jdk.incubator.vector} is readable. Read as a constant, so without the module the
   * JIT drops the gated branch.
   */
  static final boolean VECTOR_PROBE = VectorGate.MODULE_READABLE;

  // Parquet's eight salts, one per 32-bit word of a block
  private static final int S0 = 0x47b6137b;
  private static final int S1 = 0x44974d91;
  private static final int S2 = 0x8824ad5b;
  private static final int S3 = 0xa2b7289d;
  private static final int S4 = 0x705495c7;
  private static final int S5 = 0x2df1424b;
  private static final int S6 = 0x9efc4947;
  private static final int S7 = 0x5c6bfb31;

  private SplitBlockKernel() {}

  /** The mask of long {@code j} of a block: bits of words {@code 2j} (low) and {@code 2j+1}. */
  private static long mask(int key, int saltLow, int saltHigh) {
    return (1L << ((key * saltLow) >>> 27)) | (1L << (32 + ((key * saltHigh) >>> 27)));
  }

  /** The index of the first long of the hash's block: the top 32 bits, multiply-shift. */
  static int blockBase(long hash64, int numBlocks) {
    return (int) (((hash64 >>> 32) * numBlocks) >>> 32) * LONGS_PER_BLOCK;
  }

  // ---------------------------------------------------------------- probes

  /**
   * Whether all eight bits of {@code key} are set in the heap block at {@code base}: all four longs
   * tested without a branch when {@code branchFreeQueries} (a filter in cache), else "absent" as
   * soon as the first long misses a bit (see {@link SplitBlockBloomFilter#mayContainHash}).
   */
  static boolean mayContain(long[] w, int base, int key, boolean branchFreeQueries) {
    // In cache all four words are tested without a branch; out of cache an absent key usually
    // leaves at the first word (see the filter), before the other three masks are computed
    long missing = ~w[base] & mask(key, S0, S1);
    if (!branchFreeQueries && missing != 0) {
      return false;
    }
    missing |=
        (~w[base + 1] & mask(key, S2, S3))
            | (~w[base + 2] & mask(key, S4, S5))
            | (~w[base + 3] & mask(key, S6, S7));
    return missing == 0;
  }

  /** {@link #mayContain(long[], int, int, boolean)} for wrapped storage, always branch-free. */
  static boolean mayContain(LongSegments d, int base, int key) {
    return ((~d.get(base) & mask(key, S0, S1))
            | (~d.get(base + 1) & mask(key, S2, S3))
            | (~d.get(base + 2) & mask(key, S4, S5))
            | (~d.get(base + 3) & mask(key, S6, S7)))
        == 0;
  }

  /**
   * The answers for {@code chunk} (at most 64) hashes from {@code at}, bit {@code i} for hash
   * {@code at + i}, in two passes over heap storage (see {@link
   * SplitBlockBloomFilter#mayContainHashes}).
   */
  static long probeChunk(long[] w, int numBlocks, long[] hashes, int at, int chunk) {
    BatchScratch scratch = BatchScratch.get();
    int[] bases = scratch.positions;
    long[] touched = scratch.loaded;
    long blocks = numBlocks;
    // pass 1: request the chunk's lines; the store into the scratch keeps the loads (the value is
    // not needed: pass 2 reads the words again, from cache)
    for (int i = 0; i < chunk; i++) {
      int base = (int) (((hashes[at + i] >>> 32) * blocks) >>> 32) * LONGS_PER_BLOCK;
      bases[i] = base;
      touched[i] = w[base] ^ w[base + LONGS_PER_BLOCK - 1];
    }
    // pass 2: the branch-free test of each block
    long word = 0;
    for (int i = 0; i < chunk; i++) {
      int base = bases[i];
      int key = (int) hashes[at + i];
      long missing =
          (~w[base] & mask(key, S0, S1))
              | (~w[base + 1] & mask(key, S2, S3))
              | (~w[base + 2] & mask(key, S4, S5))
              | (~w[base + 3] & mask(key, S6, S7));
      word |= (missing == 0 ? 1L : 0L) << i;
    }
    return word;
  }

  // ---------------------------------------------------------------- adds (heap only)

  /** Sets the eight bits of {@code key} in the block at {@code base}, lock-free; true if new. */
  static boolean add(long[] w, int base, int key) {
    boolean changed = AtomicBits.orWord(w, base, mask(key, S0, S1));
    changed |= AtomicBits.orWord(w, base + 1, mask(key, S2, S3));
    changed |= AtomicBits.orWord(w, base + 2, mask(key, S4, S5));
    changed |= AtomicBits.orWord(w, base + 3, mask(key, S6, S7));
    return changed;
  }

  /** Adds {@code count} hashes with plain writes: a builder's, before the filter is published. */
  static void addPlain(long[] words, long[] hashes, int count) {
    long blocks = words.length / LONGS_PER_BLOCK;
    for (int i = 0; i < count; i++) {
      long h = hashes[i];
      int base = (int) (((h >>> 32) * blocks) >>> 32) * LONGS_PER_BLOCK;
      int key = (int) h;
      // plain writes: the filter is not published yet
      words[base] |= mask(key, S0, S1);
      words[base + 1] |= mask(key, S2, S3);
      words[base + 2] |= mask(key, S4, S5);
      words[base + 3] |= mask(key, S6, S7);
    }
  }

  /**
   * {@link SplitBlockBloomFilter#approximateElementCount}: {@link
   * SplitBlockMath#splitBlockElementCount} of each block's set bits, summed.
   */
  static double approximateElementCount(BloomWords data, int numBlocks) {
    double sum = 0;
    for (long b = 0; b < numBlocks; b++) {
      long base = b * LONGS_PER_BLOCK;
      sum +=
          SplitBlockMath.splitBlockElementCount((int) data.bitCount(base, base + LONGS_PER_BLOCK));
    }
    return sum;
  }
}
