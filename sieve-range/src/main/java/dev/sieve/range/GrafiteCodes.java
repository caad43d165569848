package dev.sieve.range;

/**
 * How {@link GrafiteFilter} turns a key into its code: the block shift {@code k}, the seeded block
 * hash {@code q} onto {@code [0, r)} and the code {@code h(x) = (q(⌊x/2^k⌋) + x mod 2^k) mod r}.
 * Static, so that a query inlines them; the prefix-Bloom filter shares the mixer.
 *
 * <p>The block is {@code 2^8} times {@code L} (rounded up to a power of two), or as long as {@code
 * r} allows ({@link #blockShiftFor(long, long)}): a range of length {@code ℓ ≤ L} then meets one
 * block but with probability {@code (ℓ − 1)/2^k < 1/256}, and is one interval, one successor query
 * ("the first code at or after {@code h(lo)}; is it at most {@code h(hi)}?"). An interval that
 * wraps past {@code r} needs no search at all: it holds a code exactly when the last code is at
 * least its start or the first code at most its end (both kept in fields).
 */
final class GrafiteCodes {

  /** The largest code range and max range length: {@code 2^62}. */
  static final long MAX_CODE_RANGE = 1L << 62;

  private GrafiteCodes() {}

  /** {@code ⌈log2 L⌉}: the least block shift. */
  static int blockShiftFor(long maxRangeLength) {
    return maxRangeLength <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(maxRangeLength - 1);
  }

  /** How many times longer than {@code L} (as a power of two) a block is made, where r allows. */
  static final int BLOCK_GROWTH = 8;

  /**
   * The block shift the builder uses: {@code k = ⌈log2 L⌉ + 8}, lowered to {@code ⌊log2 r⌋} so that
   * a block is no longer than the code range (codes inside a block stay distinct), never below
   * {@code ⌈log2 L⌉}, at most 62.
   */
  static int blockShiftFor(long maxRangeLength, long codeRange) {
    int least = blockShiftFor(maxRangeLength);
    int fit = 63 - Long.numberOfLeadingZeros(codeRange);
    return Math.min(62, Math.max(least, Math.min(least + BLOCK_GROWTH, fit)));
  }

  /** A 64-bit finalizer of the block number and the seed (every input bit reaches every output). */
  static long mix(long block, long seed) {
    long z = block + seed * 0x9E37_79B9_7F4A_7C15L + 0x632B_E59B_D9B4_E019L;
    z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
    return z ^ (z >>> 31);
  }

  /** {@code q(b)}: the block's place in {@code [0, r)}, the mixed block number scaled down. */
  static long blockOffset(long block, long seed, long codeRange) {
    long m = mix(block, seed);
    // the high word of the unsigned 128-bit product m · r: uniform on [0, r)
    return Math.multiplyHigh(m, codeRange) + ((m >> 63) & codeRange);
  }

  /** The code of a key. */
  static long code(long key, int blockShift, long seed, long codeRange) {
    long block = key >>> blockShift;
    long off = blockShift == 0 ? 0 : key & ((1L << blockShift) - 1);
    long c = blockOffset(block, seed, codeRange) + off;
    return c < codeRange ? c : c % codeRange;
  }
}
