package dev.sieve.range;

import java.util.Objects;

/**
 * A range filter: {@link #mayContainRange(long, long)} answers {@code false} only when no key the
 * filter was built from lies in {@code [lo, hi]} ("the range is empty"), and {@code true} for every
 * range that holds a key, plus a fraction of empty ranges (the false-positive probability, which
 * grows with the range's length). A point query is the range {@code [x, x]}.
 *
 * <h2>Key order</h2>
 *
 * Keys and range ends are 64-bit values in <b>unsigned</b> order: {@code 0} is the smallest key,
 * {@code 0xFFFF_FFFF_FFFF_FFFF} ({@code -1L}) the largest, and {@code lo <= hi} is compared with
 * {@link Long#compareUnsigned}. That is the natural order of keys as bytes (an 8-byte big-endian
 * key compares as its bytes do). Signed keys keep their order through {@link #signedKey(long)}
 * ({@code x ^ Long.MIN_VALUE}), applied to the keys at build and to both ends of every range.
 *
 * <h2>Byte-string keys</h2>
 *
 * A byte string is mapped to {@link #prefixKey(byte[], int, int)}: its first eight bytes,
 * big-endian, zero-padded on the right; that map is monotone (lexicographic unsigned byte order
 * goes to unsigned {@code long} order), so a key in the byte range {@code [lo, hi]} has its prefix
 * in {@code [prefixKey(lo), prefixKey(hi)]} and the mapped query never misses it. The cost is in
 * false positives only: keys that share their first eight bytes collapse into one (a range that
 * holds none of them but falls between two of them, inside the same prefix, answers "maybe"), and a
 * short byte range maps to a prefix range that is at least as long. Keys whose distinguishing bytes
 * lie past the eighth are not told apart at all; use a longer-prefix scheme (or hash the tail) for
 * those.
 *
 * <p>The contract every implementation keeps: a range that holds a key is never reported empty.
 * {@code lo > hi} (unsigned) is an {@link IllegalArgumentException}.
 */
public interface RangeFilter {

  /**
   * Whether some key may lie in {@code [lo, hi]}, both inclusive, in unsigned order.
   *
   * @param lo the smallest value of the range
   * @param hi the largest value of the range
   * @return {@code false} if no key lies in the range
   * @throws IllegalArgumentException if {@code lo > hi} (unsigned)
   */
  boolean mayContainRange(long lo, long hi);

  /**
   * Whether the key {@code x} may be present: the range {@code [x, x]}.
   *
   * @param x the key
   * @return {@code false} if {@code x} was definitely not a key
   */
  default boolean mayContainPoint(long x) {
    return mayContainRange(x, x);
  }

  /**
   * Tests {@code len} ranges at once, {@code [lo[off + i], hi[off + i]]}: bit {@code i & 63} of
   * {@code resultBits[i >>> 6]} is set where the range may hold a key and cleared where it holds
   * none; bits of the last word past {@code len} are cleared.
   *
   * @param lo the ranges' low ends
   * @param hi the ranges' high ends
   * @param off the first range tested
   * @param len how many ranges
   * @param resultBits at least {@code ceil(len / 64)} words
   * @return the number of ranges that may hold a key
   * @throws IllegalArgumentException if a range has {@code lo > hi}
   * @throws IndexOutOfBoundsException if the ranges lie outside the arrays or {@code resultBits} is
   *     too short
   */
  default int mayContainRanges(long[] lo, long[] hi, int off, int len, long[] resultBits) {
    Objects.checkFromIndexSize(off, len, lo.length);
    Objects.checkFromIndexSize(off, len, hi.length);
    Objects.checkFromIndexSize(0, (len + 63) >>> 6, resultBits.length);
    int count = 0;
    for (int w = 0; w < len; w += 64) {
      long bits = 0;
      int end = Math.min(64, len - w);
      for (int j = 0; j < end; j++) {
        if (mayContainRange(lo[off + w + j], hi[off + w + j])) {
          bits |= 1L << j;
          count++;
        }
      }
      resultBits[w >>> 6] = bits;
    }
    return count;
  }

  /**
   * Tests ranges at once: {@code result[i]} for the range {@code [lo[i], hi[i]]}.
   *
   * @param lo the ranges' low ends
   * @param hi the ranges' high ends, as many
   * @return one answer per range
   * @throws IllegalArgumentException if the arrays differ in length or a range has {@code lo > hi}
   */
  default boolean[] mayContainRanges(long[] lo, long[] hi) {
    if (lo.length != hi.length) {
      throw new IllegalArgumentException("lo has " + lo.length + " ends but hi has " + hi.length);
    }
    boolean[] out = new boolean[lo.length];
    for (int i = 0; i < lo.length; i++) {
      out[i] = mayContainRange(lo[i], hi[i]);
    }
    return out;
  }

  /**
   * Whether some byte-string key may lie in {@code [lo, hi]} (lexicographic, unsigned bytes),
   * through {@link #prefixKey(byte[], int, int)}: the range {@code [prefixKey(lo), prefixKey(hi)]}.
   * Meaningful on a filter built from {@code prefixKey} of its byte keys.
   *
   * @param lo the smallest key of the range
   * @param hi the largest key of the range
   * @return {@code false} if no key lies in the range
   * @throws IllegalArgumentException if {@code lo > hi} lexicographically
   */
  default boolean mayContainRange(byte[] lo, byte[] hi) {
    if (java.util.Arrays.compareUnsigned(lo, hi) > 0) {
      throw new IllegalArgumentException("the range's low key sorts after its high key");
    }
    return mayContainRange(prefixKey(lo, 0, lo.length), prefixKey(hi, 0, hi.length));
  }

  /**
   * The order-preserving map of signed keys onto the unsigned order: {@code x ^ Long.MIN_VALUE}
   * ({@code Long.MIN_VALUE} becomes {@code 0}, {@code -1} becomes {@code 0x7FFF_FFFF_FFFF_FFFF},
   * {@code 0} becomes {@code 0x8000_0000_0000_0000}). Its own inverse.
   *
   * @param x a signed key
   * @return the key whose unsigned order is {@code x}'s signed order
   */
  static long signedKey(long x) {
    return x ^ Long.MIN_VALUE;
  }

  /**
   * The order-preserving 64-bit key of a byte string: its first eight bytes {@code key[off, off +
   * min(len, 8))}, big-endian, zero-padded on the right. Monotone: {@code a <= b} lexicographically
   * (unsigned bytes) implies {@code prefixKey(a) <= prefixKey(b)} unsigned (see the class comment
   * for what collapsing longer keys costs).
   *
   * @param key the bytes
   * @param off the first byte of the key
   * @param len the key's length
   * @return the key's 64-bit prefix
   */
  static long prefixKey(byte[] key, int off, int len) {
    Objects.checkFromIndexSize(off, len, key.length);
    long v = 0;
    int m = Math.min(len, 8);
    for (int i = 0; i < m; i++) {
      v |= (key[off + i] & 0xFFL) << (56 - 8 * i);
    }
    return v;
  }

  /**
   * The 64-bit prefix keys of byte strings ({@link #prefixKey(byte[], int, int)} of each), for a
   * range filter's build.
   *
   * @param keys the keys, none {@code null}
   * @return their prefixes, in the same order
   */
  static long[] prefixKeys(byte[][] keys) {
    long[] out = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      out[i] = prefixKey(keys[i], 0, keys[i].length);
    }
    return out;
  }

  /**
   * Checks a range's ends.
   *
   * @param lo the low end
   * @param hi the high end
   * @throws IllegalArgumentException if {@code lo > hi} (unsigned)
   */
  static void checkRange(long lo, long hi) {
    if (Long.compareUnsigned(lo, hi) > 0) {
      throw new IllegalArgumentException(
          "range lo "
              + Long.toUnsignedString(lo)
              + " > hi "
              + Long.toUnsignedString(hi)
              + " (unsigned order)");
    }
  }
}
