package dev.sieve;

import dev.sieve.hash.KeyEncoder;
import dev.sieve.hash.KeyHash;
import java.nio.ByteBuffer;

/**
 * A filter that keys can be added to after it is built: the Bloom filters and the Cuckoo filter.
 * Bloom filters are built from keys or created empty ({@code builder().expectedKeys(n).create()})
 * and added to; a Cuckoo filter also deletes. For the Bloom filters adding is thread-safe and
 * lock-free (a Cuckoo filter needs external synchronization for writes, see its class comment): any
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
   * @return {@code true} if the filter changed. For the Bloom filters the key was then definitely
   *     not present before, and {@code false} means it was present or a false positive (the key is
   *     reported present either way). A Cuckoo filter stores a copy on every add, so {@code true}
   *     is the normal answer and {@code false} means its table is full: nothing was stored, the
   *     failure is counted ({@code CuckooFilter.failedAdds()}), and the key is reported present
   *     only if it was before.
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

  /** Adds a text key, hashed as its UTF-8 bytes ({@link Filter#mayContain(CharSequence)}). */
  default boolean add(CharSequence key) {
    return addHash(KeyHash.hash64(key));
  }

  /** Adds an {@code int} key, hashed as its four big-endian bytes ({@link #mayContainInt}). */
  default boolean addInt(int key) {
    return addHash(KeyHash.hashInt(key));
  }

  /** Adds a key of any type, hashed as the bytes {@code encoder} writes for it. */
  default <T> boolean add(T key, KeyEncoder<? super T> encoder) {
    return addHash(KeyHash.hash64(key, encoder));
  }
}
