package dev.sieve.xor;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Deterministic key-hash sets for the tests. */
final class Keys {
  private Keys() {}

  /** {@code n} random 64-bit hashes from {@code seed} (distinct with overwhelming probability). */
  static long[] random(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] h = new long[n];
    for (int i = 0; i < n; i++) {
      h[i] = r.nextLong();
    }
    return h;
  }

  /**
   * {@code count} random hashes that are not in {@code sortedKeys}: candidates from a separate
   * stream, each checked by binary search.
   */
  static long[] absent(long[] sortedKeys, int count, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] q = new long[count];
    int i = 0;
    while (i < count) {
      long h = r.nextLong();
      if (Arrays.binarySearch(sortedKeys, h) < 0) {
        q[i++] = h;
      }
    }
    return q;
  }

  static long[] sorted(long[] a) {
    long[] s = a.clone();
    Arrays.sort(s);
    return s;
  }
}
