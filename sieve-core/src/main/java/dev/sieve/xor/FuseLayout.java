package dev.sieve.xor;

import dev.sieve.math.FingerprintMath;

/**
 * The Binary Fuse filter's layout (Graf and Lemire 2022): {@code segmentCount + arity - 1} segments
 * of {@code segmentLength} slots, a power of two. A key picks a start segment {@code s} in {@code
 * [0, segmentCount)} and one slot in each of the segments {@code s, s+1, …, s+arity-1}.
 *
 * <p>Slot 0 is {@code h0 = floor(h · segmentCount · segmentLength / 2^64)} (an unsigned
 * multiply-high: segment and offset at once, no modulo). Slot {@code i ≥ 1} is {@code (h0 + i ·
 * segmentLength) XOR (bits_i(h) & (segmentLength - 1))}: the XOR changes only the offset bits, so
 * the slot stays in segment {@code s + i}. The offset bits are {@code h >>> 18} for slot 1, {@code
 * h} for slot 2 and, 4-wise, the top bits of {@code h · 0x9E3779B97F4A7C15} for slot 3: with
 * segments of at most 2^18 slots, slots 1 and 2 use disjoint bit ranges.
 */
final class FuseLayout extends PeelingLayout {
  /** The longest segment, as in the paper. */
  static final int MAX_SEGMENT_LENGTH = 1 << 18;

  final int arity;
  final int segmentLength;
  final int segmentCount;

  FuseLayout(int arity, int segmentLength, int segmentCount) {
    this.arity = arity;
    this.segmentLength = segmentLength;
    this.segmentCount = segmentCount;
  }

  /**
   * The paper's sizing for {@code keys} distinct keys ({@link
   * FingerprintMath#binaryFuseSegmentLength}, {@link FingerprintMath#binaryFuseSizeFactor}): {@code
   * capacity = round(n · factor)} slots, {@code segmentCount = max(1, ceil(capacity /
   * segmentLength) - (arity - 1))}; after {@code growth} rounds of failed attempts the segment
   * count grows by {@code growth · max(1, segmentCount / 8)}.
   */
  static FuseLayout forKeys(int arity, long keys, int growth) {
    int segmentLength = FingerprintMath.binaryFuseSegmentLength(arity, keys);
    long capacity =
        keys < 2 ? 0 : Math.round(keys * FingerprintMath.binaryFuseSizeFactor(arity, keys));
    long segmentCount = Math.max(1, (capacity + segmentLength - 1) / segmentLength - (arity - 1));
    segmentCount += growth * Math.max(1, segmentCount / 8);
    long length = (segmentCount + arity - 1) * segmentLength;
    if (length > XorConstruction.MAX_SLOTS) {
      throw new IllegalArgumentException(
          "a binary fuse filter of "
              + keys
              + " keys needs "
              + length
              + " slots, more than the "
              + XorConstruction.MAX_SLOTS
              + " one Java array holds");
    }
    return new FuseLayout(arity, segmentLength, (int) segmentCount);
  }

  /** The first slot: {@code floor(h · segmentCountLength / 2^64)}, {@code h} unsigned. */
  static int h0(long mixed, long segmentCountLength) {
    // unsigned high half of the product; segmentCountLength is positive
    long high = Math.multiplyHigh(mixed, segmentCountLength) + ((mixed >> 63) & segmentCountLength);
    return (int) high;
  }

  static int h1(long mixed, int h0, int segmentLength, int mask) {
    return (h0 + segmentLength) ^ ((int) (mixed >>> 18) & mask);
  }

  static int h2(long mixed, int h0, int segmentLength, int mask) {
    return (h0 + 2 * segmentLength) ^ ((int) mixed & mask);
  }

  static int h3(long mixed, int h0, int segmentLength, int mask) {
    return (h0 + 3 * segmentLength) ^ ((int) ((mixed * SeededHash.SEED_STEP) >>> 46) & mask);
  }

  /** Keys grouped by start segment touch only {@code arity} consecutive segments at a time. */
  @Override
  int localityGroups() {
    return segmentCount;
  }

  @Override
  int localityGroup(long mixed) {
    return h0(mixed, segmentCountLength()) / segmentLength;
  }

  long segmentCountLength() {
    return (long) segmentCount * segmentLength;
  }

  @Override
  int arity() {
    return arity;
  }

  @Override
  int length() {
    return (segmentCount + arity - 1) * segmentLength;
  }

  @Override
  void positions(long mixed, int[] out) {
    int mask = segmentLength - 1;
    int h0 = h0(mixed, segmentCountLength());
    out[0] = h0;
    out[1] = h1(mixed, h0, segmentLength, mask);
    out[2] = h2(mixed, h0, segmentLength, mask);
    if (arity == 4) {
      out[3] = h3(mixed, h0, segmentLength, mask);
    }
  }
}
