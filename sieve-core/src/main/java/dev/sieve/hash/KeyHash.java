package dev.sieve.hash;

import java.nio.ByteBuffer;

/**
 * The 64-bit key hash every Sieve filter starts from: RocksDB's {@code GetSliceHash64}, which is
 * {@link Xxph3} (RocksDB's fork of the preview XXH3 of xxHash 0.7.2) with seed 0. A filter built by
 * Sieve over some key bytes therefore probes exactly the bits RocksDB's filter over the same key
 * bytes probes.
 *
 * <p><b>{@code long} keys</b> are hashed as their eight <em>big-endian</em> bytes: {@code
 * hash64(0x0102030405060708L) == hash64(new byte[] {1, 2, 3, 4, 5, 6, 7, 8})}. A RocksDB user whose
 * keys are 8-byte big-endian integers (the usual encoding, which sorts numerically for non-negative
 * values) gets the same filter from Sieve's {@code long} API as from RocksDB. The {@code long} path
 * allocates nothing and runs XXPH3's 4-to-8-byte branch directly on the value.
 *
 * <p>All methods are static, allocation-free and thread-safe.
 */
public final class KeyHash {
  private KeyHash() {}

  /** The hash of all bytes of {@code key}. */
  public static long hash64(byte[] key) {
    return Xxph3.hash64(key, 0, key.length, 0);
  }

  /** The hash of {@code key[off, off + len)}. */
  public static long hash64(byte[] key, int off, int len) {
    java.util.Objects.checkFromIndexSize(off, len, key.length);
    return Xxph3.hash64(key, off, len, 0);
  }

  /** The hash of the remaining bytes of {@code key} (position to limit); the position is kept. */
  public static long hash64(ByteBuffer key) {
    return Xxph3.hash64(key, key.position(), key.remaining(), 0);
  }

  /** The hash of the eight big-endian bytes of {@code key}. */
  public static long hash64(long key) {
    return Xxph3.hash64BigEndianLong(key, 0);
  }

  /**
   * Hashes {@code count} {@code long} keys, {@code keys[keyOff ..]}, into {@code out[outOff ..]},
   * as {@link #hash64(long)} hashes each. The loop has no dependency between keys, so the CPU
   * overlaps the hashes of neighbouring keys.
   */
  public static void hash64(long[] keys, int keyOff, int count, long[] out, int outOff) {
    java.util.Objects.checkFromIndexSize(keyOff, count, keys.length);
    java.util.Objects.checkFromIndexSize(outOff, count, out.length);
    for (int i = 0; i < count; i++) {
      out[outOff + i] = Xxph3.hash64BigEndianLong(keys[keyOff + i], 0);
    }
  }
}
