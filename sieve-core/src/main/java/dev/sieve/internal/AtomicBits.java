package dev.sieve.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Lock-free bit setting in a {@code long[]}: the one primitive the mutable Bloom filters write
 * with. A bit is tested with a plain read first (the common case for a filter filling up is that
 * some probes are already set), and only a clear bit pays for an atomic {@code OR}, so concurrent
 * writers never lose each other's bits (unlike a plain read-modify-write of the word).
 */
public final class AtomicBits {
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

  private AtomicBits() {}

  /**
   * Sets bit {@code bit & 63} of {@code words[index]}.
   *
   * @return {@code true} if this call changed the bit from 0 to 1
   */
  public static boolean setBit(long[] words, int index, int bit) {
    long mask = 1L << bit;
    if ((words[index] & mask) != 0) {
      return false;
    }
    long before = (long) LONGS.getAndBitwiseOr(words, index, mask);
    return (before & mask) == 0;
  }

  /**
   * ORs {@code bits} into {@code words[index]} atomically.
   *
   * @return {@code true} if any bit changed
   */
  public static boolean orWord(long[] words, int index, long bits) {
    if ((words[index] | bits) == words[index]) {
      return false;
    }
    long before = (long) LONGS.getAndBitwiseOr(words, index, bits);
    return (before | bits) != before;
  }

  /** Reads {@code words[index]} with volatile semantics (for copying a filter that is in use). */
  public static long getVolatile(long[] words, int index) {
    return (long) LONGS.getVolatile(words, index);
  }

  /**
   * A copy of {@code words}, each word read with volatile semantics: a snapshot of a filter that
   * other threads may be adding to.
   */
  public static long[] snapshot(long[] words) {
    long[] copy = new long[words.length];
    for (int i = 0; i < copy.length; i++) {
      copy[i] = getVolatile(words, i);
    }
    return copy;
  }
}
