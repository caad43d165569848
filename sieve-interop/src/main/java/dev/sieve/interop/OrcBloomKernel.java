package dev.sieve.interop;

/**
 * The probe and add loops of {@link OrcBloomFilter} over its words: ORC's double hashing. The
 * 64-bit key hash is split into {@code h1} (low 32 bits) and {@code h2} (high 32 bits), both signed
 * ints; probe {@code i} (1 to k) is {@code c = h1 + i * h2} in 32-bit arithmetic, complemented when
 * negative ({@code ~c}, so {@code c >= 0}), and the bit is {@code c % m}, bit {@code c & 63} of
 * word {@code c >>> 6}.
 */
final class OrcBloomKernel {
  private OrcBloomKernel() {}

  static boolean mayContain(long[] words, int numBits, int numProbes, long hash64) {
    int h1 = (int) hash64;
    int h2 = (int) (hash64 >>> 32);
    for (int i = 1; i <= numProbes; i++) {
      int c = h1 + i * h2;
      if (c < 0) {
        c = ~c;
      }
      int pos = c % numBits;
      if ((words[pos >>> 6] & (1L << pos)) == 0) {
        return false;
      }
    }
    return true;
  }

  /** Sets the key's bits; returns whether any was clear. */
  static boolean add(long[] words, int numBits, int numProbes, long hash64) {
    int h1 = (int) hash64;
    int h2 = (int) (hash64 >>> 32);
    long changed = 0;
    for (int i = 1; i <= numProbes; i++) {
      int c = h1 + i * h2;
      if (c < 0) {
        c = ~c;
      }
      int pos = c % numBits;
      long bit = 1L << pos;
      changed |= ~words[pos >>> 6] & bit;
      words[pos >>> 6] |= bit;
    }
    return changed != 0;
  }
}
