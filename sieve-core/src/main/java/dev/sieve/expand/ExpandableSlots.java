package dev.sieve.expand;

import java.nio.ByteBuffer;

/**
 * The storage of an {@link ExpandableFilter}: {@code 2^log} slots of {@code width} bits each,
 * packed little-endian into a {@code long[]} (slot {@code i} is bits {@code [i·width, (i+1)·width)}
 * of the array read as one bit string, so a slot may straddle two words). Static accessors over the
 * raw array, so the kernel's loops stay on it; the meaning of a slot's bits is the kernel's ({@link
 * ExpandableKernel}).
 */
final class ExpandableSlots {
  private ExpandableSlots() {}

  /** The widest slot: a slot must fit in the 64 bits read from at most two words. */
  static final int MAX_WIDTH = 57;

  /** {@return the number of words holding {@code slots} slots of {@code width} bits} */
  static long wordsFor(long slots, int width) {
    return (slots * width + 63) >>> 6;
  }

  /** {@return the {@code width}-bit slot {@code i}} */
  static long get(long[] words, int width, long i) {
    long bit = i * width;
    int w = (int) (bit >>> 6);
    int shift = (int) (bit & 63);
    long v = words[w] >>> shift;
    if (shift + width > 64) {
      v |= words[w + 1] << (64 - shift);
    }
    return v & ((1L << width) - 1);
  }

  /**
   * {@return the {@code width}-bit slot {@code i} of slots packed as above in {@code b}'s 64-bit
   * words (a little-endian buffer, from index 0: a filter read in place)}
   */
  static long get(ByteBuffer b, int width, long i) {
    long bit = i * width;
    int at = (int) (bit >>> 6) << 3;
    int shift = (int) (bit & 63);
    long v = b.getLong(at) >>> shift;
    if (shift + width > 64) {
      v |= b.getLong(at + Long.BYTES) << (64 - shift);
    }
    return v & ((1L << width) - 1);
  }

  /**
   * Sets the {@code width}-bit slot {@code i} to {@code value} (which fits in {@code width} bits).
   */
  static void set(long[] words, int width, long i, long value) {
    long bit = i * width;
    int w = (int) (bit >>> 6);
    int shift = (int) (bit & 63);
    long mask = (1L << width) - 1;
    words[w] = (words[w] & ~(mask << shift)) | (value << shift);
    if (shift + width > 64) {
      int high = 64 - shift;
      words[w + 1] = (words[w + 1] & ~(mask >>> high)) | (value >>> high);
    }
  }
}
