package dev.sieve.interop;

import java.util.Objects;

/**
 * Cassandra's key hash and the probe and add loops of its Bloom filter ({@link
 * CassandraBloomFilter}) over {@code m = 64 · words.length} bits.
 *
 * <h2>The hash</h2>
 *
 * Cassandra's {@code MurmurHash.hash3_x64_128(key, offset, length, seed = 0)}: MurmurHash3 x64_128
 * with the 16-byte blocks read little-endian, as the reference, but the last {@code length % 16}
 * bytes folded in <em>sign-extended</em>: tail byte {@code j} contributes {@code ((long) b) << 8j}
 * (XOR), so a byte of {@code 0x80} or more also flips every bit above its own. For keys whose tail
 * bytes are all below {@code 0x80} the result is the reference MurmurHash3 x64_128 ({@link
 * dev.sieve.hash.Murmur3#hash128}); for the rest it differs, and the filter must hash as Cassandra
 * does or it would give false negatives. Output {@code (h0, h1)}: the first and second 64-bit
 * halves.
 *
 * <h2>The probes</h2>
 *
 * Since Cassandra 3.0 ({@code BloomFilter.setIndexes(h1, h0, …)}): probe {@code i = 0..k-1} is bit
 * {@code |(h1 + i · h0) mod m|} with 64-bit wrap-around ({@code base} starts at {@code h1} and adds
 * {@code h0} after each probe; {@code mod} is Java's {@code %}, signed, then the absolute value).
 * Bit {@code b} is bit {@code b & 63} of word {@code b >>> 6}, which is bit {@code b & 7} of byte
 * {@code b >>> 3} in Cassandra's byte-addressed {@code OffHeapBitSet}.
 */
final class CassandraBloomKernel {
  private CassandraBloomKernel() {}

  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  /**
   * Cassandra's hash of {@code key[off, off + len)} with seed 0: {@code out[0] = h0, out[1] = h1}.
   */
  static void hash(byte[] key, int off, int len, long[] out) {
    Objects.checkFromIndexSize(off, len, key.length);
    long h1 = 0;
    long h2 = 0;
    int end = off + (len & ~15);
    for (int i = off; i < end; i += 16) {
      h1 ^= mix1(littleEndian64(key, i));
      h1 = Long.rotateLeft(h1, 27) + h2;
      h1 = h1 * 5 + 0x52dce729;
      h2 ^= mix2(littleEndian64(key, i + 8));
      h2 = Long.rotateLeft(h2, 31) + h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    int rem = len & 15;
    if (rem > 8) {
      long k2 = 0;
      for (int j = 8; j < rem; j++) {
        k2 ^= ((long) key[end + j]) << (8 * (j - 8)); // sign-extended, as Cassandra
      }
      h2 ^= mix2(k2);
    }
    if (rem > 0) {
      long k1 = 0;
      for (int j = 0; j < Math.min(rem, 8); j++) {
        k1 ^= ((long) key[end + j]) << (8 * j);
      }
      h1 ^= mix1(k1);
    }
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1 += h2;
    h2 += h1;
    out[0] = h1;
    out[1] = h2;
  }

  private static long mix1(long k) {
    return Long.rotateLeft(k * C1, 31) * C2;
  }

  private static long mix2(long k) {
    return Long.rotateLeft(k * C2, 33) * C1;
  }

  private static long fmix(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }

  private static long littleEndian64(byte[] b, int i) {
    long v = 0;
    for (int j = 7; j >= 0; j--) {
      v = (v << 8) | (b[i + j] & 0xffL);
    }
    return v;
  }

  static boolean mayContain(long[] words, long numBits, int k, long h0, long h1) {
    long base = h1;
    for (int i = 0; i < k; i++) {
      long bit = Math.abs(base % numBits);
      if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
      base += h0;
    }
    return true;
  }

  static boolean add(long[] words, long numBits, int k, long h0, long h1) {
    long base = h1;
    boolean changed = false;
    for (int i = 0; i < k; i++) {
      changed |= GuavaBloomKernel.set(words, Math.abs(base % numBits));
      base += h0;
    }
    return changed;
  }
}
