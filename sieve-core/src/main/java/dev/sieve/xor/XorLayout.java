package dev.sieve.xor;

import dev.sieve.math.FingerprintMath;

/**
 * The Xor filter's layout: three blocks of {@code blockLength} slots; slot {@code i} of a key lies
 * in block {@code i}, at {@code reduce(rotl(h, 21 i), blockLength)}, so the three slots are always
 * distinct.
 */
final class XorLayout extends PeelingLayout {
  final int blockLength;

  XorLayout(int blockLength) {
    this.blockLength = blockLength;
  }

  /**
   * The layout for {@code keys} distinct keys after {@code growth} rounds of failed attempts:
   * {@code 1.23 n + 32} slots ({@link FingerprintMath#xorFilterSlots}), plus 1/8 more per round of
   * growth, rounded up to a multiple of 3.
   */
  static XorLayout forKeys(long keys, int growth) {
    double slots = FingerprintMath.xorFilterSlots(keys) * (1.0 + growth / 8.0);
    long blockLength = (long) Math.ceil(slots / 3.0);
    if (blockLength * 3 > XorConstruction.MAX_SLOTS) {
      throw new IllegalArgumentException(
          "an xor filter of "
              + keys
              + " keys needs "
              + blockLength * 3
              + " slots, more than the "
              + XorConstruction.MAX_SLOTS
              + " one Java array holds");
    }
    return new XorLayout((int) blockLength);
  }

  static int h0(long mixed, int blockLength) {
    return SeededHash.reduce((int) mixed, blockLength);
  }

  static int h1(long mixed, int blockLength) {
    return SeededHash.reduce((int) Long.rotateLeft(mixed, 21), blockLength) + blockLength;
  }

  static int h2(long mixed, int blockLength) {
    return SeededHash.reduce((int) Long.rotateLeft(mixed, 42), blockLength) + 2 * blockLength;
  }

  @Override
  int arity() {
    return 3;
  }

  @Override
  int length() {
    return 3 * blockLength;
  }

  @Override
  void positions(long mixed, int[] out) {
    out[0] = h0(mixed, blockLength);
    out[1] = h1(mixed, blockLength);
    out[2] = h2(mixed, blockLength);
  }
}
