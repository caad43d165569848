package dev.sieve;

import dev.sieve.hash.KeyEncoder;
import dev.sieve.hash.KeyHash;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A filter of keys of one type: any {@link KeyFilter} and the {@link KeyEncoder} that turns a key
 * into the bytes the filter hashes, bound once, in the manner of Guava's {@code BloomFilter<T>}:
 *
 * <pre>{@code
 * TypedFilter<CharSequence> users = TypedFilter.ofStrings(
 *     BlockedBloomFilter.builder().expectedKeys(1_000_000).fpRate(0.01).create());
 * users.add("user:7");
 * users.mayContain("user:7");   // true
 * }</pre>
 *
 * <p>A query or add encodes the key into a per-thread buffer and hashes it there, so nothing per
 * key reaches the heap in the steady state; the answers are exactly those of the wrapped filter for
 * the encoded bytes ({@code filter.mayContain(bytes)}); a filter that defines no byte keys ({@link
 * FastLongKeyFilter}) refuses typed keys as it refuses bytes. {@link #add} needs a {@link
 * MutableFilter}. The wrapper holds no state of its own: it is as thread-safe as the filter it
 * wraps.
 *
 * @param <T> the key type
 */
public final class TypedFilter<T> {
  private final KeyFilter filter;
  private final KeyEncoder<? super T> encoder;

  private TypedFilter(KeyFilter filter, KeyEncoder<? super T> encoder) {
    this.filter = Objects.requireNonNull(filter, "filter");
    this.encoder = Objects.requireNonNull(encoder, "encoder");
  }

  /** {@code filter} over keys encoded by {@code encoder}. */
  public static <T> TypedFilter<T> of(KeyFilter filter, KeyEncoder<? super T> encoder) {
    return new TypedFilter<>(filter, encoder);
  }

  /** {@code filter} over text keys, hashed as their UTF-8 bytes. */
  public static TypedFilter<CharSequence> ofStrings(KeyFilter filter) {
    return new TypedFilter<>(filter, KeyEncoder.UTF8);
  }

  /**
   * {@code filter} over {@code Long} keys (eight big-endian bytes, as {@code mayContain(long)}).
   */
  public static TypedFilter<Long> ofLongs(KeyFilter filter) {
    return new TypedFilter<>(filter, KeyEncoder.LONG);
  }

  /** {@code filter} over {@code Integer} keys (four big-endian bytes, as {@code mayContainInt}). */
  public static TypedFilter<Integer> ofInts(KeyFilter filter) {
    return new TypedFilter<>(filter, KeyEncoder.INT);
  }

  /** {@code filter} over byte-array keys. */
  public static TypedFilter<byte[]> ofBytes(KeyFilter filter) {
    return new TypedFilter<>(filter, KeyEncoder.BYTES);
  }

  /** {@code filter} over buffer keys (their remaining bytes). */
  public static TypedFilter<ByteBuffer> ofBuffers(KeyFilter filter) {
    return new TypedFilter<>(filter, KeyEncoder.BUFFER);
  }

  /** {@code false} if {@code key} was definitely never added. */
  public boolean mayContain(T key) {
    return filter.mayContain(Objects.requireNonNull(key, "key"), encoder);
  }

  /**
   * Tests {@code len} keys at once ({@code keys[off ..]}): bit {@code i} of the result words as in
   * {@link Filter#mayContainHashes}.
   *
   * @return the number of keys that may be present
   */
  public int mayContainBatch(T[] keys, int off, int len, long[] resultBits) {
    if (filter instanceof Filter f) {
      return f.mayContainBatch(keys, encoder, off, len, resultBits);
    }
    dev.sieve.internal.BatchScratch.checkBatch(keys.length, off, len, resultBits.length);
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
   * Adds {@code key} ({@link MutableFilter#addHash} of its hash).
   *
   * @return what {@link MutableFilter#addHash} returns
   * @throws UnsupportedOperationException if the wrapped filter is not a {@link MutableFilter}
   */
  public boolean add(T key) {
    if (!(filter instanceof MutableFilter mutable)) {
      throw new UnsupportedOperationException(
          filter.getClass().getSimpleName() + " is static: keys are given when it is built");
    }
    return mutable.add(Objects.requireNonNull(key, "key"), encoder);
  }

  /** {@return the 64-bit key hash of {@code key}, the one the filter probes} */
  public long hash(T key) {
    return KeyHash.hash64(Objects.requireNonNull(key, "key"), encoder);
  }

  /** {@return the wrapped filter} */
  public KeyFilter filter() {
    return filter;
  }

  /** {@return the key encoder} */
  public KeyEncoder<? super T> encoder() {
    return encoder;
  }

  @Override
  public String toString() {
    return "TypedFilter{" + filter + "}";
  }
}
