package dev.sieve.internal.base;

/**
 * The rounds of MurmurHash3 x64 (Austin Appleby, public domain) written once for the three places
 * that hash with them: the reference {@code x64_128} ({@code dev.sieve.hash.Murmur3#hash128}, Guava
 * and Cassandra's algorithm), Cassandra's variant of it whose tail bytes are sign-extended ({@code
 * dev.sieve.interop.CassandraBloomKernel}), and ORC's 64-bit variant, the first lane alone ({@code
 * dev.sieve.hash.OrcHash#ofBytes}). Blocks and tails are read little-endian.
 */
public final class Murmur3x64 {
  private Murmur3x64() {}

  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  /**
   * MurmurHash3 x64_128 of {@code key[off, off + len)} ({@code off} and {@code len} checked by the
   * caller): {@code h1} to {@code out[0]}, {@code h2} to {@code out[1]}.
   *
   * @param seed the seed both lanes start from
   * @param signedTail whether the last {@code len % 16} bytes are sign-extended (Cassandra) rather
   *     than read as unsigned (the reference)
   */
  public static void hash128(
      byte[] key, int off, int len, long seed, boolean signedTail, long[] out) {
    long h1 = seed;
    long h2 = seed;
    int end = off + (len & ~15);
    for (int i = off; i < end; i += 16) {
      h1 ^= mixK1(littleEndian(key, i, 8, false));
      h1 = Long.rotateLeft(h1, 27) + h2;
      h1 = h1 * 5 + 0x52dce729;
      h2 ^= mixK2(littleEndian(key, i + 8, 8, false));
      h2 = Long.rotateLeft(h2, 31) + h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    int rem = len & 15;
    if (rem > 8) {
      h2 ^= mixK2(littleEndian(key, end + 8, rem - 8, signedTail));
    }
    if (rem > 0) {
      h1 ^= mixK1(littleEndian(key, end, Math.min(rem, 8), signedTail));
    }
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    out[0] = h1;
    out[1] = h2;
  }

  /**
   * The {@code n} (at most 8) bytes of {@code b} from {@code from} as a little-endian number: byte
   * {@code j} contributes {@code b[from + j] << 8j}, unsigned, or sign-extended (then XORed in, so
   * a byte of {@code 0x80} or more also flips every bit above its own) where {@code signed}.
   */
  public static long littleEndian(byte[] b, int from, int n, boolean signed) {
    long v = 0;
    for (int j = 0; j < n; j++) {
      long x = signed ? b[from + j] : b[from + j] & 0xffL;
      v ^= x << (8 * j);
    }
    return v;
  }

  /** The first lane's mix of a block or tail: multiply, rotate 31, multiply. */
  public static long mixK1(long k1) {
    return Long.rotateLeft(k1 * C1, 31) * C2;
  }

  /** The second lane's mix: multiply, rotate 33, multiply, by the constants swapped. */
  public static long mixK2(long k2) {
    return Long.rotateLeft(k2 * C2, 33) * C1;
  }

  /** The 64-bit finalization mix. */
  public static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    return k ^ (k >>> 33);
  }
}
