package dev.sieve.hash;

import dev.sieve.internal.base.Murmur3x64;
import java.util.Objects;

/**
 * MurmurHash3 (Austin Appleby, public domain), the two variants other systems' Bloom filters hash
 * with: {@code x64_128} (Guava's {@code Hashing.murmur3_128}, Cassandra) and {@code x86_32}
 * (Guava's {@code Hashing.murmur3_32_fixed}, Spark's sketch). Blocks are read little-endian.
 *
 * <p>Spark's sketch module hashes byte keys with a variant of {@code x86_32} that feeds each of the
 * last {@code len % 4} bytes, sign-extended, through a full block round ({@link #sparkBytes32});
 * its {@code long} keys are two 4-byte blocks, low half first ({@link #sparkLong32}). Both are
 * Spark's answers, not the reference algorithm's, and kept apart here.
 */
public final class Murmur3 {
  private Murmur3() {}

  private static final int C1_32 = 0xcc9e2d51;
  private static final int C2_32 = 0x1b873593;

  /**
   * MurmurHash3 x64_128 of {@code key[off, off + len)}: the first 64 bits ({@code h1}, Guava's
   * {@code HashCode.asLong()}) go to {@code out[0]}, the second ({@code h2}) to {@code out[1]}.
   *
   * @param key holds the key
   * @param off where it starts
   * @param len its length
   * @param seed the seed (Guava's {@code murmur3_128(seed)}; 0 by default), sign-extended as Guava
   *     does
   * @param out at least two words
   */
  public static void hash128(byte[] key, int off, int len, int seed, long[] out) {
    Objects.checkFromIndexSize(off, len, key.length);
    Murmur3x64.hash128(key, off, len, seed, false, out);
  }

  /**
   * MurmurHash3 x86_32 of {@code key[off, off + len)}, the reference algorithm (Guava's {@code
   * murmur3_32_fixed}).
   *
   * @param key holds the key
   * @param off where it starts
   * @param len its length
   * @param seed the seed
   * @return the 32-bit hash
   */
  public static int hash32(byte[] key, int off, int len, int seed) {
    Objects.checkFromIndexSize(off, len, key.length);
    int end = off + (len & ~3);
    int h = blocks32(key, off, end, seed);
    int rem = len & 3;
    if (rem > 0) {
      h ^= mixK32((int) Murmur3x64.littleEndian(key, end, rem, false));
    }
    return fmix32(h ^ len);
  }

  /**
   * Spark's {@code Murmur3_x86_32.hashUnsafeBytes}: the 4-byte blocks as {@link #hash32}, then each
   * remaining byte, sign-extended to an {@code int}, mixed in as a whole block.
   *
   * @param key holds the key
   * @param off where it starts
   * @param len its length
   * @param seed the seed
   * @return the 32-bit hash
   */
  public static int sparkBytes32(byte[] key, int off, int len, int seed) {
    Objects.checkFromIndexSize(off, len, key.length);
    int end = off + (len & ~3);
    int h = blocks32(key, off, end, seed);
    for (int i = end; i < off + len; i++) {
      h = mixH32(h, mixK32(key[i]));
    }
    return fmix32(h ^ len);
  }

  /**
   * Spark's {@code Murmur3_x86_32.hashLong}: the low 32 bits, then the high 32 bits, as two blocks
   * of an 8-byte input (the same as {@link #hash32} of the key's eight little-endian bytes).
   *
   * @param key the key
   * @param seed the seed
   * @return the 32-bit hash
   */
  public static int sparkLong32(long key, int seed) {
    int h = mixH32(seed, mixK32((int) key));
    h = mixH32(h, mixK32((int) (key >>> 32)));
    return fmix32(h ^ 8);
  }

  private static int blocks32(byte[] key, int from, int end, int seed) {
    int h = seed;
    for (int i = from; i < end; i += 4) {
      int k =
          (key[i] & 0xff)
              | (key[i + 1] & 0xff) << 8
              | (key[i + 2] & 0xff) << 16
              | (key[i + 3] & 0xff) << 24;
      h = mixH32(h, mixK32(k));
    }
    return h;
  }

  private static int mixK32(int k) {
    return Integer.rotateLeft(k * C1_32, 15) * C2_32;
  }

  private static int mixH32(int h, int k) {
    return Integer.rotateLeft(h ^ k, 13) * 5 + 0xe6546b64;
  }

  private static int fmix32(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    return h ^ (h >>> 16);
  }
}
