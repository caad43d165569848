package dev.sieve.interop;

/**
 * The probe and add loops of Spark's sketch Bloom filters over the words of {@link
 * SparkBloomFilter} ({@code m = 64 · words.length} bits), from the key's two 32-bit hashes {@code
 * h1 = murmur3_32(key, seed)} and {@code h2 = murmur3_32(key, h1)}.
 *
 * <ul>
 *   <li>V1: probe {@code i = 1..k} is {@code c = h1 + i · h2} in 32-bit arithmetic, complemented if
 *       negative, at bit {@code c mod m}; past 2^31 bits the high bits are never probed (why V2
 *       came).
 *   <li>V2: {@code c} starts at {@code h1 · (2^31 - 1)} in 64-bit arithmetic and adds {@code h2}
 *       before each probe; the probe is {@code c}, complemented if negative, mod {@code m} ({@code
 *       c} itself is not complemented).
 * </ul>
 */
final class SparkBloomKernel {
  private SparkBloomKernel() {}

  static boolean mayContainV1(long[] words, long numBits, int k, int h1, int h2) {
    for (int i = 1; i <= k; i++) {
      int c = h1 + i * h2;
      if (c < 0) {
        c = ~c;
      }
      long bit = c % numBits;
      if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  static boolean addV1(long[] words, long numBits, int k, int h1, int h2) {
    boolean changed = false;
    for (int i = 1; i <= k; i++) {
      int c = h1 + i * h2;
      if (c < 0) {
        c = ~c;
      }
      changed |= GuavaBloomKernel.set(words, c % numBits);
    }
    return changed;
  }

  static boolean mayContainV2(long[] words, long numBits, int k, int h1, int h2) {
    long c = (long) h1 * Integer.MAX_VALUE;
    for (int i = 0; i < k; i++) {
      c += h2;
      long bit = (c < 0 ? ~c : c) % numBits;
      if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  static boolean addV2(long[] words, long numBits, int k, int h1, int h2) {
    long c = (long) h1 * Integer.MAX_VALUE;
    boolean changed = false;
    for (int i = 0; i < k; i++) {
      c += h2;
      changed |= GuavaBloomKernel.set(words, (c < 0 ? ~c : c) % numBits);
    }
    return changed;
  }
}
