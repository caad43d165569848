package dev.sieve.testing;

import dev.sieve.Filter;

/** The key encodings and fingerprints RocksDB's util/bloom_test.cc uses for its golden values. */
public final class RocksDbTestKeys {
  private RocksDbTestKeys() {}

  /** {@code Key(i)}: the four little-endian bytes of {@code i} ({@code PutFixed32}). */
  public static byte[] key(int i) {
    return new byte[] {(byte) i, (byte) (i >>> 8), (byte) (i >>> 16), (byte) (i >>> 24)};
  }

  /** Keys {@code Key(from) .. Key(to - 1)}. */
  public static byte[][] keys(int from, int to) {
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
  public static int bloomHash(byte[] data) {
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
      // remaining bytes are sign-extended, as RocksDB's format defines
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
  public static String firstFalsePositives(Filter filter, int count) {
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

  /** {@code PackedMatches()}: bit {@code i} set when {@code Key(i + 12345)} matches, i < 64. */
  public static long packedMatches(Filter filter) {
    long result = 0;
    for (int i = 0; i < 64; i++) {
      if (filter.mayContain(key(i + 12345))) {
        result |= 1L << i;
      }
    }
    return result;
  }

  /**
   * {@code RawFilterTester::ResetWeirdFill}: the last {@code dataLen + 5} bytes of a 3000-byte
   * buffer filled with {@code (char) (0x7b7b >> (i % 7))}, the five metadata bytes given.
   */
  public static byte[] weirdFill(int dataLen, byte[] metadata) {
    byte[] out = new byte[dataLen + 5];
    int start = 3000 - out.length;
    for (int j = 0; j < dataLen; j++) {
      out[j] = (byte) (0x7b7b >> ((start + j) % 7));
    }
    System.arraycopy(metadata, 0, out, dataLen, 5);
    return out;
  }
}
