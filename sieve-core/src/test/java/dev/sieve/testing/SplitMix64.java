package dev.sieve.testing;

/**
 * Vigna's SplitMix64 stream: the well-mixed synthetic 64-bit key hashes the Ribbon golden vectors
 * are computed over (so they do not depend on the key hash function). Deterministic from its seed.
 */
public final class SplitMix64 {
  private long state;

  public SplitMix64(long seed) {
    this.state = seed;
  }

  /** {@return the next value of the stream} */
  public long next() {
    long z = (state += 0x9e3779b97f4a7c15L);
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  /**
   * The golden-vector key stream: {@code n} hashes, and with {@code dupEvery > 0} after every key
   * {@code i} with {@code i % dupEvery == 0} a repeat of entry {@code i / 2} (a non-consecutive
   * duplicate, which RocksDB keeps). Returns the array and, in {@code count[0]}, how many are used.
   */
  public static long[] stream(SplitMix64 rnd, int n, int dupEvery, int[] count) {
    long[] hashes = new long[2 * n + 1];
    int c = 0;
    for (int i = 0; i < n; i++) {
      hashes[c++] = rnd.next();
      if (dupEvery != 0 && i % dupEvery == 0) {
        hashes[c++] = hashes[i / 2];
      }
    }
    count[0] = c;
    return hashes;
  }
}
