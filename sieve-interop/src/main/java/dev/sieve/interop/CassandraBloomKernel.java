package dev.sieve.interop;

import dev.sieve.internal.base.Murmur3x64;
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

  /**
   * Cassandra's hash of {@code key[off, off + len)} with seed 0: {@code out[0] = h0, out[1] = h1}.
   */
  static void hash(byte[] key, int off, int len, long[] out) {
    Objects.checkFromIndexSize(off, len, key.length);
    Murmur3x64.hash128(key, off, len, 0, true, out); // the tail sign-extended, as Cassandra
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
