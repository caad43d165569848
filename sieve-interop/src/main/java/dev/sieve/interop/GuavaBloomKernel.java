package dev.sieve.interop;

/**
 * The probe and add loops of Guava's two strategies over the words of {@link GuavaBloomFilter}
 * ({@code m = 64 · words.length} bits). Both start from MurmurHash3 x64_128 of the key's funnel
 * bytes, {@code (h1, h2)}.
 *
 * <ul>
 *   <li>{@code MURMUR128_MITZ_32}: only {@code h1}, split into {@code int}s {@code a = (int) h1},
 *       {@code b = (int) (h1 >>> 32)}; probe {@code i = 1..k} is {@code c = a + i · b} in 32-bit
 *       arithmetic, complemented if negative, at bit {@code c mod m}.
 *   <li>{@code MURMUR128_MITZ_64}: {@code c} starts at {@code h1} and adds {@code h2} after each
 *       probe; probe bit {@code (c & Long.MAX_VALUE) mod m}.
 * </ul>
 */
final class GuavaBloomKernel {
  private GuavaBloomKernel() {}

  static boolean mayContain32(long[] words, long numBits, int k, long h1) {
    int a = (int) h1;
    int b = (int) (h1 >>> 32);
    for (int i = 1; i <= k; i++) {
      int c = a + i * b;
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

  static boolean add32(long[] words, long numBits, int k, long h1) {
    int a = (int) h1;
    int b = (int) (h1 >>> 32);
    boolean changed = false;
    for (int i = 1; i <= k; i++) {
      int c = a + i * b;
      if (c < 0) {
        c = ~c;
      }
      changed |= set(words, c % numBits);
    }
    return changed;
  }

  static boolean mayContain64(long[] words, long numBits, int k, long h1, long h2) {
    long c = h1;
    for (int i = 0; i < k; i++) {
      long bit = (c & Long.MAX_VALUE) % numBits;
      if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
      c += h2;
    }
    return true;
  }

  static boolean add64(long[] words, long numBits, int k, long h1, long h2) {
    long c = h1;
    boolean changed = false;
    for (int i = 0; i < k; i++) {
      changed |= set(words, (c & Long.MAX_VALUE) % numBits);
      c += h2;
    }
    return changed;
  }

  static boolean set(long[] words, long bit) {
    int w = (int) (bit >>> 6);
    long before = words[w];
    words[w] = before | (1L << bit);
    return words[w] != before;
  }
}
