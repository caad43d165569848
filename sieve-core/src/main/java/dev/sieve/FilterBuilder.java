package dev.sieve;

import dev.sieve.hash.KeyHash;
import dev.sieve.internal.LongList;
import java.util.Objects;

/**
 * Builds a filter of one type from a key set. Each filter class has its own concrete builder (e.g.
 * {@code BlockedBloomFilter.builder()}) with its sizing knobs: bits per key (fractional, e.g. 9.7)
 * or a target false-positive rate, and any format parameters. This base class turns every kind of
 * key input into the 64-bit key hashes of {@link KeyHash}, so a subclass implements one method,
 * {@link #buildFromHashes(long[], int)}.
 *
 * <p>Duplicate keys are always accepted. Builders are not thread-safe; the filters they build are.
 *
 * @param <F> the filter type built
 */
public abstract class FilterBuilder<F extends Filter> {

  /** The most keys one build accepts: one Java array of hashes. */
  public static final int MAX_KEYS = Integer.MAX_VALUE - 8;

  protected FilterBuilder() {}

  /**
   * Builds the filter from the first {@code count} entries of {@code hashes}, 64-bit key hashes as
   * {@link KeyHash} computes them (or any well-mixed 64-bit hashes). The builder may reorder the
   * array's first {@code count} entries but keeps no reference to it.
   */
  protected abstract F buildFromHashes(long[] hashes, int count);

  /** Builds the filter from pre-computed 64-bit key hashes; the array is not modified. */
  public final F buildFromHashes(long[] hashes) {
    Objects.requireNonNull(hashes, "hashes");
    return buildFromHashes(hashes.clone(), hashes.length);
  }

  /** Builds the filter from {@code long} keys, each hashed as its eight big-endian bytes. */
  public final F build(long[] keys) {
    Objects.requireNonNull(keys, "keys");
    long[] hashes = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      hashes[i] = KeyHash.hash64(keys[i]);
    }
    return buildFromHashes(hashes, hashes.length);
  }

  /** Builds the filter from byte-string keys. */
  public final F build(byte[][] keys) {
    Objects.requireNonNull(keys, "keys");
    long[] hashes = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      hashes[i] = KeyHash.hash64(Objects.requireNonNull(keys[i], "keys[i]"));
    }
    return buildFromHashes(hashes, hashes.length);
  }

  /** Builds the filter from byte-string keys, iterated once. */
  public final F build(Iterable<byte[]> keys) {
    Objects.requireNonNull(keys, "keys");
    LongList hashes = new LongList(16);
    for (byte[] key : keys) {
      if (hashes.size() >= MAX_KEYS) {
        throw new IllegalArgumentException("more than " + MAX_KEYS + " keys in one build");
      }
      hashes.add(KeyHash.hash64(Objects.requireNonNull(key, "key")));
    }
    return buildFromHashes(hashes.array(), hashes.size());
  }
}
