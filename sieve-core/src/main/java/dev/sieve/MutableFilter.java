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
   * Adds the key whose 64-bit hash this is, as the filter's {@link #keyScheme()} computes it (for
   * the default scheme {@link KeyHash}). The raw entry: the scheme is not applied here.
   *
   * @return {@code true} if the filter changed. For the Bloom filters the key was then definitely
   *     not present before, and {@code false} means it was present or a false positive (the key is
   *     reported present either way). A Cuckoo filter stores a copy on every add, so {@code true}
   *     is the normal answer and {@code false} means its table is full: nothing was stored, the
   *     failure is counted ({@code CuckooFilter.failedAdds()}), and the key is reported present
   *     only if it was before.
   */
  boolean addHash(long hash64);

  // Each add hashes by the filter's scheme, the default compared first (as Filter's queries).

  /** Adds a {@code long} key, hashed by the filter's scheme ({@link Filter#mayContain(long)}). */
  default boolean add(long key) {
    KeyScheme s = keyScheme();
    return addHash(s == KeyScheme.XXPH3 ? KeyHash.hash64(key) : s.hash(key));
  }

  /**
   * Adds a byte-string key.
   *
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  default boolean add(byte[] key) {
    KeyScheme s = keyScheme();
    return addHash(s == KeyScheme.XXPH3 ? KeyHash.hash64(key) : s.hash(key, 0, key.length));
  }

  /**
   * Adds the key {@code key[off, off + len)}.
   *
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  default boolean add(byte[] key, int off, int len) {
    KeyScheme s = keyScheme();
    return addHash(s == KeyScheme.XXPH3 ? KeyHash.hash64(key, off, len) : s.hash(key, off, len));
  }

  /**
   * Adds the key made of the remaining bytes of {@code key}; its position is not changed.
   *
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  default boolean add(ByteBuffer key) {
    KeyScheme s = keyScheme();
    return addHash(s == KeyScheme.XXPH3 ? KeyHash.hash64(key) : s.hash(key));
  }

  /**
   * Adds a text key, hashed as its UTF-8 bytes ({@link Filter#mayContain(CharSequence)}).
   *
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  default boolean add(CharSequence key) {
    KeyScheme s = keyScheme();
    return addHash(s == KeyScheme.XXPH3 ? KeyHash.hash64(key) : s.hash(key));
  }

  /**
   * Adds an {@code int} key, hashed as {@link #mayContainInt} hashes it.
   *
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  default boolean addInt(int key) {
    KeyScheme s = keyScheme();
    return addHash(s == KeyScheme.XXPH3 ? KeyHash.hashInt(key) : s.hashInt(key));
  }

  /**
   * Adds a {@code float} key, hashed as {@link #mayContainFloat} hashes it.
   *
   * @param key the key
   * @return whether the filter changed, as {@link #addHash}
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  default boolean addFloat(float key) {
    return addHash(keyScheme().hashFloat(key));
  }

  /**
   * Adds a {@code double} key, hashed as {@link #mayContainDouble} hashes it.
   *
   * @param key the key
   * @return whether the filter changed, as {@link #addHash}
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  default boolean addDouble(double key) {
    return addHash(keyScheme().hashDouble(key));
  }

  /**
   * Adds a key of any type, hashed as {@link #mayContain(Object, KeyEncoder)} hashes it.
   *
   * @throws KeySchemeException on a filter of {@code long} keys only, for an encoder other than
   *     {@link KeyEncoder#LONG}
   */
  default <T> boolean add(T key, KeyEncoder<? super T> encoder) {
    KeyScheme s = keyScheme();
    return addHash(s == KeyScheme.XXPH3 ? KeyHash.hash64(key, encoder) : s.hash(key, encoder));
  }
}
