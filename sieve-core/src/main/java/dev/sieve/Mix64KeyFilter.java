package dev.sieve;

import dev.sieve.hash.KeyHash;
import dev.sieve.internal.BatchScratch;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A filter of {@code long} keys hashed by the fast mixer {@link KeyHash#mix64(long)} instead of
 * RocksDB's XXPH3: any Sieve filter inside, built from (or filled with) mixed keys.
 *
 * <h2>Why</h2>
 *
 * XXPH3 of a key's eight bytes costs about as much as a whole in-cache probe of an Xor or blocked
 * Bloom filter, and it sits on the critical path of a single lookup. Where a filter need not match
 * RocksDB's bytes (a join pre-filter, an in-memory cache, a Spark semi-join), one 64-bit mixer is
 * enough: {@code mix64} is a bijection, so distinct keys keep distinct hashes and the filter's
 * false-positive rate is its model's. The measured effect per filter is in {@code docs/notes.md}.
 *
 * <h2>The contract, and what it costs</h2>
 *
 * Only {@code long} keys are defined: {@link #mayContain(long)}, {@link #mayContainBatch(long[],
 * int, int, long[])}, {@link #add(long)}; the hash-level methods take {@code mix64} hashes. The
 * byte-key methods throw {@link UnsupportedOperationException}: a byte key is hashed by XXPH3 and
 * would never meet a mixed {@code long} key, so answering would invite false negatives. The inner
 * filter's bytes are not RocksDB's filter for these keys. The container ({@code
 * dev.sieve.format.SieveFormat}) records the mixer in its flags, so a filter read back answers as
 * the one written; a container of this kind read as its inner class is refused.
 *
 * <pre>{@code
 * Mix64KeyFilter<Xor8Filter> f = Mix64KeyFilter.build(Xor8Filter.builder(), keys);
 * f.mayContain(42L);
 * Mix64KeyFilter<BlockedBloomFilter> g = Mix64KeyFilter.of(BlockedBloomFilter.create(n, 10));
 * g.add(42L);
 * }</pre>
 *
 * @param <F> the filter inside
 */
public final class Mix64KeyFilter<F extends Filter> implements Filter {
  private final F filter;

  private Mix64KeyFilter(F filter) {
    this.filter = Objects.requireNonNull(filter, "filter");
    if (filter instanceof Mix64KeyFilter) {
      throw new IllegalArgumentException("the filter is already a Mix64KeyFilter");
    }
  }

  /**
   * Views {@code filter} as a filter of mixed {@code long} keys. Its contents must have come from
   * {@link KeyHash#mix64} hashes (empty, or built or filled through this class).
   */
  public static <F extends Filter> Mix64KeyFilter<F> of(F filter) {
    return new Mix64KeyFilter<>(filter);
  }

  /** Builds a filter with {@code builder} from {@code keys}, each hashed by {@code mix64}. */
  public static <F extends Filter> Mix64KeyFilter<F> build(FilterBuilder<F> builder, long[] keys) {
    Objects.requireNonNull(builder, "builder");
    long[] hashes = new long[keys.length];
    KeyHash.mix64(keys, 0, keys.length, hashes, 0);
    return new Mix64KeyFilter<>(builder.buildFromHashes(hashes));
  }

  /** The filter inside, whose key hashes are {@code mix64} of the keys. */
  public F filter() {
    return filter;
  }

  @Override
  public boolean mayContain(long key) {
    return filter.mayContainHash(KeyHash.mix64(key));
  }

  @Override
  public boolean mayContainHash(long mixedKey) {
    return filter.mayContainHash(mixedKey);
  }

  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    return filter.mayContainHashes(hashes, off, len, resultBits);
  }

  @Override
  public int mayContainBatch(long[] keys, int off, int len, long[] resultBits) {
    return BatchScratch.keyBatch(
        filter, BatchScratch.KeyHashing.MIX64_LONG, keys, null, off, len, resultBits);
  }

  /**
   * Adds a {@code long} key to the (mutable) filter inside.
   *
   * @return whether the filter changed
   * @throws UnsupportedOperationException if the filter inside is static
   */
  public boolean add(long key) {
    if (!(filter instanceof MutableFilter)) {
      throw new UnsupportedOperationException(
          filter.getClass().getSimpleName() + " is static: keys cannot be added after the build");
    }
    return ((MutableFilter) filter).addHash(KeyHash.mix64(key));
  }

  private UnsupportedOperationException byteKeys() {
    return new UnsupportedOperationException(
        "a Mix64KeyFilter holds long keys hashed by KeyHash.mix64; byte keys are not defined");
  }

  @Override
  public boolean mayContain(byte[] key) {
    throw byteKeys();
  }

  @Override
  public boolean mayContain(byte[] key, int off, int len) {
    throw byteKeys();
  }

  @Override
  public boolean mayContain(ByteBuffer key) {
    throw byteKeys();
  }

  @Override
  public int mayContainBatch(byte[][] keys, int off, int len, long[] resultBits) {
    throw byteKeys();
  }

  @Override
  public long numKeys() {
    return filter.numKeys();
  }

  @Override
  public long sizeInBits() {
    return filter.sizeInBits();
  }

  @Override
  public double modelledFpRate() {
    return filter.modelledFpRate();
  }

  /** Equal when the filters inside are equal. */
  @Override
  public boolean equals(Object o) {
    return o instanceof Mix64KeyFilter && ((Mix64KeyFilter<?>) o).filter.equals(filter);
  }

  @Override
  public int hashCode() {
    return filter.hashCode() * 31 + 1;
  }

  @Override
  public String toString() {
    return "Mix64KeyFilter{" + filter + "}";
  }
}
