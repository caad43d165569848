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

  /**
   * {@return the hash of all bytes of {@code key}}
   *
   * @param key the key
   */
  public static long hash64(byte[] key) {
    return Xxph3.hash64(key, 0, key.length, 0);
  }

  /**
   * {@return the hash of {@code key[off, off + len)}}
   *
   * @param key the key's bytes
   * @param off where the key starts
   * @param len the key's length
   */
  public static long hash64(byte[] key, int off, int len) {
    java.util.Objects.checkFromIndexSize(off, len, key.length);
    return Xxph3.hash64(key, off, len, 0);
  }

  /**
   * {@return the hash of the remaining bytes of {@code key} (position to limit); the position is
   * kept}
   *
   * @param key the key
   */
  public static long hash64(ByteBuffer key) {
    return Xxph3.hash64(key, key.position(), key.remaining(), 0);
  }

  /**
   * The hash of the UTF-8 bytes of {@code key}: exactly {@code
   * hash64(key.toString().getBytes(UTF_8))} (an unpaired surrogate is the byte {@code '?'}, as
   * {@link String#getBytes} writes it), without allocating: the bytes are encoded into a per-thread
   * buffer.
   *
   * @param key the key
   * @return the hash
   */
  public static long hash64(CharSequence key) {
    return KeyBuffer.hash(key, KeyEncoder.UTF8);
  }

  /**
   * The hash of {@code key}'s bytes as {@code encoder} writes them ({@link KeyEncoder}), through a
   * per-thread buffer: no allocation once the buffer has grown to the longest key.
   *
   * @param <T> the key type
   * @param key the key
   * @param encoder writes the key's bytes
   * @return the hash
   */
  public static <T> long hash64(T key, KeyEncoder<? super T> encoder) {
    return KeyBuffer.hash(key, encoder);
  }

  /**
   * The hash of the four big-endian bytes of {@code key}, the encoding of {@code int} keys ({@code
   * hashInt(0x01020304) == hash64(new byte[] {1, 2, 3, 4})}). Named apart from {@link
   * #hash64(long)} so that an {@code int} passed to that method keeps meaning its widened {@code
   * long}.
   *
   * @param key the key
   * @return the hash
   */
  public static long hashInt(int key) {
    return Xxph3.hash64BigEndianInt(key, 0);
  }

  /**
   * {@return the hash of the eight big-endian bytes of {@code key}}
   *
   * @param key the key
   */
  public static long hash64(long key) {
    return Xxph3.hash64BigEndianLong(key, 0);
  }

  /**
   * Hashes {@code count} {@code long} keys, {@code keys[keyOff ..]}, into {@code out[outOff ..]},
   * as {@link #hash64(long)} hashes each. The loop has no dependency between keys, so the CPU
   * overlaps the hashes of neighbouring keys.
   *
   * @param keys the keys
   * @param keyOff the first key to hash
   * @param count how many keys
   * @param out where the hashes go
   * @param outOff where the first hash goes
   */
  public static void hash64(long[] keys, int keyOff, int count, long[] out, int outOff) {
    java.util.Objects.checkFromIndexSize(keyOff, count, keys.length);
    java.util.Objects.checkFromIndexSize(outOff, count, out.length);
    for (int i = 0; i < count; i++) {
      out[outOff + i] = Xxph3.hash64BigEndianLong(keys[keyOff + i], 0);
    }
  }

  /** Added before mixing so that no key is a fixed point (2^64 / golden ratio, odd). */
  private static final long MIX64_GAMMA = 0x9E37_79B9_7F4A_7C15L;

  /**
   * The fast hash of a {@code long} key for filters that need not match RocksDB's bytes ({@link
   * dev.sieve.KeyScheme#MIX64}): the key plus an odd constant through one 64-bit mixer (David
   * Stafford's "Mix13" variant of the MurmurHash3 finalizer, the mixer of {@link
   * java.util.SplittableRandom}): two multiplications and three xor-shifts instead of XXPH3's
   * 8-byte branch. A bijection of the 64-bit values, so distinct keys never share a hash; every
   * input bit affects every output bit with probability close to 1/2.
   *
   * <p>It is <em>not</em> {@link #hash64(long)}: a filter built from these hashes must be queried
   * with them (the container records it, see {@code docs/format.md}).
   *
   * @param key the key
   * @return the hash
   */
  public static long mix64(long key) {
    long z = key + MIX64_GAMMA;
    z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
    return z ^ (z >>> 31);
  }

  /**
   * {@link #mix64(long)} of {@code count} keys, {@code keys[keyOff ..]}, into {@code out}.
   *
   * @param keys the keys
   * @param keyOff the first key to hash
   * @param count how many keys
   * @param out where the hashes go
   * @param outOff where the first hash goes
   */
  public static void mix64(long[] keys, int keyOff, int count, long[] out, int outOff) {
    java.util.Objects.checkFromIndexSize(keyOff, count, keys.length);
    java.util.Objects.checkFromIndexSize(outOff, count, out.length);
    for (int i = 0; i < count; i++) {
      out[outOff + i] = mix64(keys[keyOff + i]);
    }
  }
}
