package dev.sieve.policy;

import dev.sieve.Filter;

/**
 * The keys and fingerprints of RocksDB's util/bloom_test.cc and of the harness over synthetic
 * hashes, for {@link RibbonLevelGoldenTest}: {@code Key(i)}, the legacy {@code BloomHash} of a
 * block, {@code FirstFPs}, and the SplitMix64 hash streams the harness was fed.
 */
final class RibbonGoldenKeys {
  private RibbonGoldenKeys() {}

  /** {@code Key(i)}: the four little-endian bytes of {@code i} ({@code PutFixed32}). */
  static byte[] key(int i) {
    return new byte[] {(byte) i, (byte) (i >>> 8), (byte) (i >>> 16), (byte) (i >>> 24)};
  }

  /** Keys {@code Key(from) .. Key(to - 1)}. */
  static byte[][] keys(int from, int to) {
    byte[][] keys = new byte[to - from][];
    for (int i = from; i < to; i++) {
      keys[i - from] = key(i);
    }
    return keys;
  }

  /**
   * RocksDB's legacy 32-bit {@code Hash(data, n, seed)} (MurmurHash1-like, util/hash.cc) with
   * bloom_test's seed {@code 0xbc9f1d34}: {@code BloomHash}, which the tests use to fingerprint
   * whole filter blocks.
   */
  static int bloomHash(byte[] data) {
    final int m = 0xc6a4a793;
    int h = 0xbc9f1d34 ^ (data.length * m);
    int i = 0;
    for (; i + 4 <= data.length; i += 4) {
      int w =
          (data[i] & 0xFF)
              | (data[i + 1] & 0xFF) << 8
              | (data[i + 2] & 0xFF) << 16
              | (data[i + 3] & 0xFF) << 24;
      h += w;
      h *= m;
      h ^= h >>> 16;
    }
    int rest = data.length - i;
    if (rest > 0) {
      if (rest == 3) {
        h += data[i + 2] << 16;
      }
      if (rest >= 2) {
        h += data[i + 1] << 8;
      }
      h += data[i];
      h *= m;
      h ^= h >>> 24;
    }
    return h;
  }

  /**
   * {@code FirstFPs(count)}: the first {@code count} values {@code i} for which {@code Key(i +
   * 1000000)} matches, comma-separated.
   */
  static String firstFalsePositives(Filter filter, int count) {
    StringBuilder sb = new StringBuilder();
    int found = 0;
    for (int i = 0; i < 1_000_000 && found < count; i++) {
      if (filter.mayContain(key(i + 1_000_000))) {
        if (found > 0) {
          sb.append(',');
        }
        sb.append(i);
        found++;
      }
    }
    return sb.toString();
  }

  /** SplitMix64, the harness's hash stream. */
  static final class SplitMix64 {
    private long state;

    SplitMix64(long seed) {
      this.state = seed;
    }

    long next() {
      long z = (state += 0x9e3779b97f4a7c15L);
      z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
      z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
      return z ^ (z >>> 31);
    }

    /**
     * {@code n} hashes, and after every {@code dupEvery}-th one a repeat of an earlier one ({@code
     * dupEvery} 0: none); {@code count[0]} receives how many were written.
     */
    static long[] stream(SplitMix64 rnd, int n, int dupEvery, int[] count) {
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
}
