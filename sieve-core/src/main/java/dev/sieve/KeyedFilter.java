package dev.sieve;

import dev.sieve.hash.KeyEncoder;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.base.BatchScratch;
import java.util.Objects;

/**
 * A filter of keys of one type: any {@link KeyFilter} and the {@link KeyEncoder} that turns a key
 * into bytes, bound once ({@link KeyFilter#keyed}), in the manner of Guava's {@code
 * BloomFilter<T>}:
 *
 * <pre>{@code
 * KeyedFilter<CharSequence> users =
 *     BlockedBloomFilter.builder().expectedKeys(1_000_000).fpRate(0.01).create()
 *         .keyed(KeyEncoder.UTF8);
 * users.add("user:7");
 * users.mayContain("user:7");   // true
 * }</pre>
 *
 * <p>Keys are hashed by the filter's {@link KeyScheme}, exactly as {@code filter.mayContain(key,
 * encoder)}: on a Parquet filter ({@link KeyScheme#PARQUET_XXH64}) {@code
 * keyed(KeyEncoder.LONG).mayContain(42L)} is parquet-java's answer for the INT64 value 42; on a
 * filter of {@code long} keys only ({@link KeyScheme#MIX64}, {@link KeyScheme#IDENTITY}) only
 * {@link KeyEncoder#LONG} is defined and other encoders throw {@link KeySchemeException}. A query
 * or add encodes the key into a per-thread buffer and hashes it there, so nothing per key reaches
 * the heap in the steady state. {@link #add} needs a {@link MutableFilter}. The view holds no state
 * of its own: it is as thread-safe as its filter.
 *
 * @param <T> the key type
 */
public final class KeyedFilter<T> {
  private final KeyFilter filter;
  private final KeyEncoder<? super T> encoder;

  private KeyedFilter(KeyFilter filter, KeyEncoder<? super T> encoder) {
    this.filter = Objects.requireNonNull(filter, "filter");
    this.encoder = Objects.requireNonNull(encoder, "encoder");
  }

  /**
   * {@code filter} over keys encoded by {@code encoder} (the same as {@code
   * filter.keyed(encoder)}).
   *
   * @param <T> the key type
   * @param filter the filter
   * @param encoder how a key becomes bytes
   * @return the view
   */
  public static <T> KeyedFilter<T> of(KeyFilter filter, KeyEncoder<? super T> encoder) {
    return new KeyedFilter<>(filter, encoder);
  }

  /**
   * Tests a key.
   *
   * @param key the key
   * @return {@code false} if {@code key} was definitely never added
   */
  public boolean mayContain(T key) {
    return filter.mayContain(Objects.requireNonNull(key, "key"), encoder);
  }

  /**
   * Tests {@code len} keys at once ({@code keys[off ..]}): bit {@code i} of the result words as in
   * {@link Filter#mayContainHashes}.
   *
   * @param keys the keys, none {@code null}
   * @param off the first key tested
   * @param len how many keys
   * @param resultBits at least {@code ceil(len / 64)} words
   * @return the number of keys that may be present
   */
  public int mayContainBatch(T[] keys, int off, int len, long[] resultBits) {
    if (filter instanceof Filter f) {
      return f.mayContainBatch(keys, encoder, off, len, resultBits);
    }
    BatchScratch.checkBatch(keys.length, off, len, resultBits.length);
    int count = 0;
    for (int done = 0; done < len; done += 64) {
      long word = 0;
      for (int i = 0; i < Math.min(64, len - done); i++) {
        word |= (mayContain(keys[off + done + i]) ? 1L : 0L) << i;
      }
      resultBits[done >>> 6] = word;
      count += Long.bitCount(word);
    }
    return count;
  }

  /**
   * Adds {@code key} ({@link MutableFilter#add(Object, KeyEncoder)}).
   *
   * @param key the key
   * @return what {@link MutableFilter#addHash} returns
   * @throws UnsupportedOperationException if the filter is not a {@link MutableFilter}
   */
  public boolean add(T key) {
    if (!(filter instanceof MutableFilter mutable)) {
      throw new UnsupportedOperationException(
          filter.getClass().getSimpleName() + " is static: keys are given when it is built");
    }
    return mutable.add(Objects.requireNonNull(key, "key"), encoder);
  }

  /**
   * The 64-bit key hash of {@code key}, the one the filter probes: by the filter's {@link
   * KeyScheme} ({@link KeyHash} for a filter that is not a {@link Filter}).
   *
   * @param key the key
   * @return its hash
   */
  public long hash(T key) {
    Objects.requireNonNull(key, "key");
    return filter instanceof Filter f
        ? f.keyScheme().hash(key, encoder)
        : KeyHash.hash64(key, encoder);
  }

  /** {@return the filter} */
  public KeyFilter filter() {
    return filter;
  }

  /** {@return the key encoder} */
  public KeyEncoder<? super T> encoder() {
    return encoder;
  }

  @Override
  public String toString() {
    return "KeyedFilter{" + filter + "}";
  }
}
