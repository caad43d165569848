package dev.sieve;

import dev.sieve.hash.KeyHash;
import java.nio.ByteBuffer;

/**
 * A filter that keys can be added to after it is built. Adding is thread-safe and lock-free: any
 * number of threads may add and query concurrently without external synchronization, and no
 * concurrently added key is lost. A query that runs concurrently with the {@code add} of the same
 * key may answer either way; once the {@code add} has returned and that is visible to the querying
 * thread (a happens-before edge, e.g. a thread join or a volatile write/read), the key is always
 * reported present.
 */
public interface MutableFilter extends Filter {

  /**
   * Adds the key whose 64-bit hash ({@link KeyHash}) this is.
   *
   * @return {@code true} if the filter changed, so the key was definitely not present before; a
   *     {@code false} means the key was present or a false positive
   */
  boolean addHash(long hash64);

  /** Adds a {@code long} key, hashed as its eight big-endian bytes. */
  default boolean add(long key) {
    return addHash(KeyHash.hash64(key));
  }

  /** Adds a byte-string key. */
  default boolean add(byte[] key) {
    return addHash(KeyHash.hash64(key));
  }

  /** Adds the key {@code key[off, off + len)}. */
  default boolean add(byte[] key, int off, int len) {
    return addHash(KeyHash.hash64(key, off, len));
  }

  /** Adds the key made of the remaining bytes of {@code key}; its position is not changed. */
  default boolean add(ByteBuffer key) {
    return addHash(KeyHash.hash64(key));
  }
}
