package dev.sieve;

import dev.sieve.hash.KeyEncoder;
import dev.sieve.hash.KeyHash;
import java.nio.ByteBuffer;

/**
 * An approximate-membership filter at the hash level: {@code mayContain} answers {@code false} only
 * for keys that were never added ("definitely absent") and {@code true} for every key that was
 * added, plus a small fraction of absent keys (the false-positive rate, FPR).
 *
 * <p>The contract every implementation keeps, for every input, size and configuration: a key that
 * was added is never reported absent (no false negatives).
 *
 * <p>All keys are reduced to one 64-bit hash first, by the filter's {@link KeyScheme}: by default
 * {@link KeyScheme#FAST} ({@link KeyHash#mix64(long)} of a number, RocksDB's {@code
 * GetSliceHash64}, XXPH3 with seed 0, of byte keys and text), or for RocksDB's types {@link
 * KeyScheme#XXPH3} (the key bytes; a {@code long} key is its eight big-endian bytes). {@link
 * #mayContainHash(long)} takes such a hash directly, so a caller that already holds it pays nothing
 * twice.
 *
 * <p>Thread safety: the static filters (Ribbon, Xor, Binary Fuse) and filters read from bytes are
 * immutable and may be shared across threads without synchronization; the mutable Bloom filters
 * ({@link MutableFilter}) are safe for concurrent adds and queries. The one exception is {@code
 * CuckooFilter}, whose inserts and deletes move fingerprints between buckets: it needs external
 * synchronization whenever a thread writes to it.
 */
public interface Filter extends KeyFilter {

  /**
   * How this filter turns keys into the hashes it probes with ({@link KeyScheme}): every key method
   * ({@code mayContain}, the batches, {@code add}, {@link #keyed}) hashes by it, and a key form the
   * scheme does not define throws {@link KeySchemeException}. Set when the filter is built ({@link
   * FilterBuilder#keyScheme}) or read (the container records it).
   *
   * @return the scheme; unless built otherwise, {@link KeyScheme#FAST} for the types whose format
   *     fixes no hash, {@link KeyScheme#XXPH3} (RocksDB's) for the others and by default here
   */
  default KeyScheme keyScheme() {
    return KeyScheme.XXPH3;
  }

  /**
   * This filter's data under another key scheme: {@code this} if {@code scheme} is already its
   * scheme, otherwise a filter of the same class sharing this one's storage (an add to either shows
   * in both) whose key methods hash by {@code scheme}. Its answers are right only if the data came
   * from keys hashed that way (hashes given to {@link #mayContainHash}'s counterparts {@code
   * addHash} or {@code buildFromHashes}); a filter is otherwise given its scheme by its builder
   * ({@link FilterBuilder#keyScheme(KeyScheme)}) or its container. The role of the former {@code
   * FastLongKeyFilter.of(filter, keyHash)}, without a wrapper.
   *
   * @param scheme the scheme
   * @return the filter under {@code scheme}
   * @throws IllegalArgumentException for {@link KeyScheme#IDENTITY} on a filter that does not mix
   *     hashes itself (only Xor and Binary Fuse take it), or a scheme other than its own on a
   *     filter class that carries none (this default)
   */
  default Filter withKeyScheme(KeyScheme scheme) {
    if (scheme == keyScheme()) {
      return this;
    }
    throw new IllegalArgumentException(
        getClass().getSimpleName() + " carries no key scheme but " + keyScheme());
  }

  /**
   * Tests a pre-computed 64-bit key hash, as the filter's {@link #keyScheme()} computes it ({@code
   * keyScheme().hash(key)}). The raw entry: the scheme is not applied here.
   *
   * @return {@code false} if the key whose hash this is was definitely never added
   */
  boolean mayContainHash(long hash64);

  // Every key method below keeps one shape: one compare of the scheme with XXPH3 first, so that
  // path is the hash it always was (no call added, nothing allocated); KeyScheme's methods test
  // FAST first.

  /**
   * Tests a {@code long} key, hashed by the filter's scheme ({@link KeyHash#mix64(long)} under
   * {@link KeyScheme#FAST}, its eight big-endian bytes under {@link KeyScheme#XXPH3}).
   */
  @Override
  default boolean mayContain(long key) {
    KeyScheme s = keyScheme();
    return mayContainHash(s == KeyScheme.XXPH3 ? KeyHash.hash64(key) : s.hash(key));
  }

  /**
   * Tests a byte-string key.
   *
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  @Override
  default boolean mayContain(byte[] key) {
    KeyScheme s = keyScheme();
    return mayContainHash(s == KeyScheme.XXPH3 ? KeyHash.hash64(key) : s.hash(key, 0, key.length));
  }

  /**
   * Tests the key {@code key[off, off + len)}.
   *
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  @Override
  default boolean mayContain(byte[] key, int off, int len) {
    KeyScheme s = keyScheme();
    return mayContainHash(
        s == KeyScheme.XXPH3 ? KeyHash.hash64(key, off, len) : s.hash(key, off, len));
  }

  /**
   * Tests the key made of the remaining bytes of {@code key}; its position is not changed.
   *
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  @Override
  default boolean mayContain(ByteBuffer key) {
    KeyScheme s = keyScheme();
    return mayContainHash(s == KeyScheme.XXPH3 ? KeyHash.hash64(key) : s.hash(key));
  }

  /**
   * Tests a text key, hashed as its UTF-8 bytes ({@link KeyHash#hash64(CharSequence)}: the same
   * answer as {@code mayContain(key.toString().getBytes(UTF_8))}, without allocating).
   *
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  @Override
  default boolean mayContain(CharSequence key) {
    KeyScheme s = keyScheme();
    return mayContainHash(s == KeyScheme.XXPH3 ? KeyHash.hash64(key) : s.hash(key));
  }

  /**
   * Tests an {@code int} key, hashed as its four bytes (big-endian under {@link KeyScheme#XXPH3},
   * {@link KeyHash#hashInt}; little-endian under {@link KeyScheme#PARQUET_XXH64}), or under {@link
   * KeyScheme#FAST} and ORC's as the {@code long} key of the same value. Not an overload of {@link
   * #mayContain(long)}: under XXPH3 an {@code int} given there is the {@code long} key of the same
   * value (eight bytes), a different key.
   *
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  @Override
  default boolean mayContainInt(int key) {
    KeyScheme s = keyScheme();
    return mayContainHash(s == KeyScheme.XXPH3 ? KeyHash.hashInt(key) : s.hashInt(key));
  }

  /**
   * Tests a {@code float} key, hashed as the four bytes of its raw IEEE 754 bits ({@link
   * KeyScheme#hashFloat}; Parquet's FLOAT under {@link KeyScheme#PARQUET_XXH64}).
   *
   * @param key the key
   * @return {@code false} if the key was definitely never added
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  default boolean mayContainFloat(float key) {
    return mayContainHash(keyScheme().hashFloat(key));
  }

  /**
   * Tests a {@code double} key, hashed as the eight bytes of its raw IEEE 754 bits ({@link
   * KeyScheme#hashDouble}; Parquet's DOUBLE under {@link KeyScheme#PARQUET_XXH64}).
   *
   * @param key the key
   * @return {@code false} if the key was definitely never added
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  default boolean mayContainDouble(double key) {
    return mayContainHash(keyScheme().hashDouble(key));
  }

  /**
   * Tests a key of any type, hashed by the filter's scheme over the bytes {@code encoder} writes
   * for it ({@link KeyScheme#hash(Object, KeyEncoder)}); allocation-free in the steady state.
   * {@link #keyed} binds an encoder to a filter once.
   *
   * @param <T> the key type
   * @param key the key
   * @param encoder how the key becomes bytes
   * @return {@code false} if the key was definitely never added
   * @throws KeySchemeException on a filter of {@code long} keys only, for an encoder other than
   *     {@link KeyEncoder#LONG}
   */
  @Override
  default <T> boolean mayContain(T key, KeyEncoder<? super T> encoder) {
    KeyScheme s = keyScheme();
    return mayContainHash(
        s == KeyScheme.XXPH3 ? KeyHash.hash64(key, encoder) : s.hash(key, encoder));
  }

  // ---------------------------------------------------------------- batch queries

  /**
   * Tests {@code len} pre-computed key hashes at once: for each {@code i} in {@code [0, len)}, bit
   * {@code i & 63} of {@code resultBits[i >>> 6]} is set if {@code hashes[off + i]} may be present
   * and cleared if it is definitely absent; bits of the last word past {@code len} are cleared. The
   * answers are exactly those of {@link #mayContainHash(long)} for each hash.
   *
   * <p>A batch is faster than a loop of single lookups where the filter can overlap the memory
   * reads of independent keys and keep its per-key work off the critical path (what each filter
   * gains is measured by the report, docs/report.md). It allocates nothing.
   *
   * @param resultBits at least {@code ceil(len / 64)} words
   * @return the number of hashes that may be present
   * @throws IndexOutOfBoundsException if the range is outside {@code hashes} or {@code resultBits}
   *     is too short
   */
  default int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    return KeyBatches.singles(this, hashes, off, len, resultBits);
  }

  /**
   * Tests {@code len} {@code long} keys at once (hashed as {@link #mayContain(long)} hashes them):
   * the answers go to {@code resultBits} as in {@link #mayContainHashes}. The keys are hashed a
   * chunk of 64 at a time into a per-thread scratch array, then probed as one batch, so no
   * allocation happens in the steady state ({@link KeyScheme#IDENTITY}: the keys are probed as
   * their hashes, without a copy).
   *
   * @return the number of keys that may be present
   */
  default int mayContainBatch(long[] keys, int off, int len, long[] resultBits) {
    KeyScheme s = keyScheme();
    if (s == KeyScheme.IDENTITY) {
      return mayContainHashes(keys, off, len, resultBits); // the keys are their hashes
    }
    return KeyBatches.keyBatch(this, s, keys, null, off, len, resultBits);
  }

  /**
   * Tests {@code len} byte-string keys at once ({@code keys[off] .. keys[off + len - 1]}, none
   * {@code null}): the answers go to {@code resultBits} as in {@link #mayContainHashes}. Hashed a
   * chunk at a time into a per-thread scratch array, then probed as one batch.
   *
   * @return the number of keys that may be present
   * @throws KeySchemeException on a filter of {@code long} keys only
   */
  default int mayContainBatch(byte[][] keys, int off, int len, long[] resultBits) {
    return KeyBatches.keyBatch(this, keyScheme(), null, keys, off, len, resultBits);
  }

  /**
   * Tests {@code len} text keys at once, each hashed as {@link #mayContain(CharSequence)} hashes
   * it: the answers go to {@code resultBits} as in {@link #mayContainHashes}. Allocation-free in
   * the steady state.
   *
   * @param keys the keys, none {@code null}
   * @param off the first key tested
   * @param len how many keys
   * @param resultBits at least {@code ceil(len / 64)} words
   * @return the number of keys that may be present
   */
  default int mayContainBatch(CharSequence[] keys, int off, int len, long[] resultBits) {
    return KeyBatches.encodedBatch(this, keys, KeyEncoder.UTF8, off, len, resultBits);
  }

  /**
   * Tests {@code len} typed keys at once, each hashed as {@link #mayContain(Object, KeyEncoder)}
   * hashes it: the answers go to {@code resultBits} as in {@link #mayContainHashes}.
   * Allocation-free in the steady state.
   *
   * @param <T> the key type
   * @param keys the keys, none {@code null}
   * @param encoder how a key becomes bytes
   * @param off the first key tested
   * @param len how many keys
   * @param resultBits at least {@code ceil(len / 64)} words
   * @return the number of keys that may be present
   */
  default <T> int mayContainBatch(
      T[] keys, KeyEncoder<? super T> encoder, int off, int len, long[] resultBits) {
    return KeyBatches.encodedBatch(this, keys, encoder, off, len, resultBits);
  }
}
