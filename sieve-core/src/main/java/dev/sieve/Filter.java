package dev.sieve;

import dev.sieve.hash.KeyHash;
import java.nio.ByteBuffer;

/**
 * An approximate-membership filter: {@code mayContain} answers {@code false} only for keys that
 * were never added ("definitely absent") and {@code true} for every key that was added, plus a
 * small fraction of absent keys (the false-positive rate, FPR).
 *
 * <p>The contract every implementation keeps, for every input, size and configuration: a key that
 * was added is never reported absent (no false negatives).
 *
 * <p>All keys are reduced to one 64-bit hash first, {@link KeyHash}: RocksDB's {@code
 * GetSliceHash64} (XXPH3, seed 0) of the key bytes; a {@code long} key is hashed as its eight
 * big-endian bytes. {@link #mayContainHash(long)} takes such a hash directly, so a caller that
 * already holds it pays nothing twice.
 *
 * <p>Thread safety: the static filters (Ribbon, Xor, Binary Fuse) and filters read from bytes are
 * immutable and may be shared across threads without synchronization; the mutable Bloom filters
 * ({@link MutableFilter}) are safe for concurrent adds and queries. The one exception is {@code
 * CuckooFilter}, whose inserts and deletes move fingerprints between buckets: it needs external
 * synchronization whenever a thread writes to it.
 */
public interface Filter {

  /**
   * Tests a pre-computed 64-bit key hash, as {@link KeyHash#hash64(byte[])} computes it.
   *
   * @return {@code false} if the key whose hash this is was definitely never added
   */
  boolean mayContainHash(long hash64);

  /**
   * Tests a {@code long} key, hashed as its eight big-endian bytes ({@link KeyHash#hash64(long)}).
   */
  default boolean mayContain(long key) {
    return mayContainHash(KeyHash.hash64(key));
  }

  /** Tests a byte-string key. */
  default boolean mayContain(byte[] key) {
    return mayContainHash(KeyHash.hash64(key));
  }

  /** Tests the key {@code key[off, off + len)}. */
  default boolean mayContain(byte[] key, int off, int len) {
    return mayContainHash(KeyHash.hash64(key, off, len));
  }

  /** Tests the key made of the remaining bytes of {@code key}; its position is not changed. */
  default boolean mayContain(ByteBuffer key) {
    return mayContainHash(KeyHash.hash64(key));
  }

  /** The number of keys the filter was built with (distinct hashes where the format counts so). */
  long numKeys();

  /** The size of the filter's data in bits, as it is stored (metadata trailers excluded). */
  long sizeInBits();

  /** The size of the filter's data in bytes, rounded up. */
  default long sizeInBytes() {
    return (sizeInBits() + 7) >>> 3;
  }

  /** Bits of filter data per key; {@code 0} for an empty filter. */
  default double bitsPerKey() {
    long n = numKeys();
    return n == 0 ? 0.0 : (double) sizeInBits() / n;
  }

  /** The false-positive rate the filter's model predicts for its size, keys and parameters. */
  double modelledFpRate();

  /**
   * The factor by which the filter's size exceeds the information-theoretic floor {@code
   * log2(1/modelledFpRate)} bits per key ({@link dev.sieve.math.BloomMath#overheadOverFloor}).
   */
  default double overheadOverFloor() {
    return dev.sieve.math.BloomMath.overheadOverFloor(bitsPerKey(), modelledFpRate());
  }
}
