package dev.sieve.ribbon;

import dev.sieve.internal.base.BatchScratch;

/**
 * The kernel of {@link Standard128RibbonFilter}: RocksDB's hashing and the batch probe over heap
 * data, as static methods over raw values, with the filter (shape, storage, bytes) around them. The
 * column probes themselves, heap and wrapped side by side, are {@link RibbonProbe}'s, shared with
 * {@link BumpedRibbonFilter}; the banding that builds the data is {@link RibbonBanding}'s.
 *
 * <h2>Hashing (RocksDB util/ribbon_impl.h, StandardRehasher + StandardHasher)</h2>
 *
 * From the 64-bit key hash {@code k} and the 8-bit ordinal seed {@code σ}: the raw seed is {@code t
 * = σ · 0xc78219a23eeadd03}, {@code t ^= (t & 0xf0f0f0f0f0f0f0f0) >>> 4}, truncated to 32 bits; the
 * rehashed key is {@code h = (k ^ rawSeed) · 0x6193d459236a3a0d}. The start is {@code
 * FastRange64(h, numStarts)} (the high half of the 128-bit product), {@code numStarts = numSlots -
 * 127}. With {@code a = h · 0xc28f82822b650bed}: the coefficient row is {@code a} in the high 64
 * bits and {@code (a ^ 0xc367844a6e52731d) | 1} in the low 64; the result row is the low 32 bits of
 * {@code byteswap(a)} (the top bytes of {@code a}, the most independent of the start).
 */
final class RibbonKernel {
  private RibbonKernel() {}

  static final long COEFF_AND_RESULT_FACTOR = 0xc28f82822b650bedL;

  /** RocksDB's {@code kCoeffXor64}: a key's low coefficient word is {@code (hash ^ this) | 1}. */
  static final long COEFF_XOR_64 = 0xc367844a6e52731dL;

  private static final long SEED_MIX_MASK = 0xf0f0f0f0f0f0f0f0L;
  private static final long TO_RAW_SEED_FACTOR = 0xc78219a23eeadd03L;
  static final long REHASH_FACTOR = 0x6193d459236a3a0dL;

  // ---------------------------------------------------------------- hashing (static, shared)

  /** RocksDB's ordinal → raw seed pre-mixing ({@code StandardHasher::SetOrdinalSeed}). */
  static int rawSeed(int ordinalSeed) {
    long t = (ordinalSeed & 0xFFFFFFFFL) * TO_RAW_SEED_FACTOR;
    t ^= (t & SEED_MIX_MASK) >>> 4;
    return (int) t;
  }

  /** RocksDB's {@code StandardRehasher}: a 1-to-1 seeded remix of an existing 64-bit hash. */
  static long rehash(long hash64, int rawSeed) {
    return (hash64 ^ (rawSeed & 0xFFFFFFFFL)) * REHASH_FACTOR;
  }

  /**
   * {@code FastRange64(h, numStarts)}: the high 64 bits of the unsigned 128-bit product ({@link
   * RibbonProbe#start}).
   */
  static int start(long h, int numStarts) {
    return RibbonProbe.start(h, numStarts);
  }

  /** The low 64 bits of the coefficient row for {@code a = h · COEFF_AND_RESULT_FACTOR}. */
  static long coeffLow(long a) {
    return (a ^ COEFF_XOR_64) | 1L;
  }

  /** The 32-bit result row for {@code a = h · COEFF_AND_RESULT_FACTOR}. */
  static int resultRow(long a) {
    return (int) Long.reverseBytes(a);
  }

  // ---------------------------------------------------------------- batch probe

  /**
   * The answers for {@code hashes[at, at + chunk)} over heap data (segments, then the padding) as
   * bits of one word (bit {@code i} for {@code hashes[at + i]}, {@code chunk ≤ 64}), in two passes:
   * the first computes every key's start and loads the first word of its two blocks (independent
   * loads whose cache misses overlap), the second runs each key's column parities without a
   * data-dependent branch ({@link RibbonProbe#heapAll}), its blocks now in cache.
   */
  static long probeChunk(
      long[] data,
      int numStarts,
      long rawSeed64,
      int upperNumColumns,
      int upperStartBlock,
      long[] hashes,
      int at,
      int chunk) {
    BatchScratch scratch = BatchScratch.get();
    long[] touched = scratch.loaded;
    for (int i = 0; i < chunk; i++) {
      long h = (hashes[at + i] ^ rawSeed64) * REHASH_FACTOR;
      int block = start(h, numStarts) >>> 7;
      int columns = upperNumColumns - ((block - upperStartBlock) >>> 31);
      int first = 2 * (block * upperNumColumns - Math.min(block, upperStartBlock));
      // kept in the scratch array so the loads are not dead: they bring both blocks into cache
      touched[i] = data[first] ^ data[first + 2 * columns];
    }
    long word = 0;
    for (int i = 0; i < chunk; i++) {
      long h = (hashes[at + i] ^ rawSeed64) * REHASH_FACTOR;
      int start = RibbonProbe.start(h, numStarts);
      long a = h * COEFF_AND_RESULT_FACTOR;
      word |= (long) RibbonProbe.heapAll(data, upperNumColumns, upperStartBlock, start, a) << i;
    }
    return word;
  }

  // ---------------------------------------------------------------- the segments, cold

  /** Whether {@code a} and {@code b} hold the same solution words (their shapes being equal). */
  static boolean sameWords(Standard128RibbonFilter a, Standard128RibbonFilter b) {
    for (int i = 0; i < 2 * a.numSegments(); i++) {
      if (a.word(i) != b.word(i)) {
        return false;
      }
    }
    return true;
  }

  /** The hash of the solution words, on top of {@code h}. */
  static int wordsHash(Standard128RibbonFilter f, int h) {
    for (int i = 0; i < 2 * f.numSegments(); i++) {
      h = h * 31 + Long.hashCode(f.word(i));
    }
    return h;
  }
}
