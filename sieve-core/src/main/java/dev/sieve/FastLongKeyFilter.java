package dev.sieve;

import dev.sieve.hash.KeyEncoder;
import dev.sieve.hash.KeyHash;
import dev.sieve.hash.LongKeyHash;
import dev.sieve.internal.BatchScratch;
import dev.sieve.internal.SeededFinalizer;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A filter of {@code long} keys with a fast key hash ({@link LongKeyHash}) instead of RocksDB's
 * XXPH3: any Sieve filter inside, built from (or filled with) keys hashed that way.
 *
 * <h2>Why</h2>
 *
 * XXPH3 of a key's eight bytes costs about as much as a whole in-cache probe of an Xor or blocked
 * Bloom filter, and it sits on the critical path of a single lookup. Where a filter need not match
 * RocksDB's bytes (a join pre-filter, an in-memory cache, a Spark semi-join), less is enough:
 *
 * <ul>
 *   <li>the Xor and Binary Fuse filters already send every hash and their seed through a full
 *       64-bit finalizer, so the key is taken as its own hash ({@link LongKeyHash#IDENTITY}) and
 *       that finalizer is the key's one mix, as in FastFilter;
 *   <li>every other filter probes with the hash's bits directly, so the key goes through one 64-bit
 *       mixer ({@link LongKeyHash#MIX64}, {@link KeyHash#mix64}): a bijection, so distinct keys
 *       keep distinct hashes and the filter's false-positive rate is its model's.
 * </ul>
 *
 * {@link #of} and {@link #build} choose so; the measured effect per filter is in {@code
 * docs/notes.md}.
 *
 * <h2>The contract, and what it costs</h2>
 *
 * Only {@code long} keys are defined: {@link #mayContain(long)}, {@link #mayContainBatch(long[],
 * int, int, long[])}, {@link #add(long)}; the hash-level methods take hashes as {@link #keyHash()}
 * computes them. The byte-key methods throw {@link UnsupportedOperationException}: a byte key is
 * hashed by XXPH3 and would never meet a fast-hashed {@code long} key, so answering would invite
 * false negatives. The inner filter's bytes are not RocksDB's filter for these keys. The container
 * ({@code dev.sieve.format.SieveFormat}) records the key hash in its flags, so a filter read back
 * answers as the one written; a container of this kind read as its inner class is refused.
 *
 * <pre>{@code
 * FastLongKeyFilter<Xor8Filter> f = FastLongKeyFilter.build(Xor8Filter.builder(), keys);
 * f.mayContain(42L);
 * FastLongKeyFilter<BlockedBloomFilter> g = FastLongKeyFilter.of(BlockedBloomFilter.createWithBitsPerKey(n, 10));
 * g.add(42L);
 * }</pre>
 *
 * @param <F> the filter inside
 */
public final class FastLongKeyFilter<F extends Filter> implements Filter {
  private final F filter;
  private final LongKeyHash keyHash;

  private FastLongKeyFilter(F filter, LongKeyHash keyHash) {
    this.filter = Objects.requireNonNull(filter, "filter");
    this.keyHash = Objects.requireNonNull(keyHash, "keyHash");
    if (filter instanceof FastLongKeyFilter) {
      throw new IllegalArgumentException("the filter is already a FastLongKeyFilter");
    }
    if (keyHash == LongKeyHash.IDENTITY && !(filter instanceof SeededFinalizer)) {
      throw new IllegalArgumentException(
          "keys as their own hash need a filter that mixes them itself (Xor, Binary Fuse), not "
              + filter.getClass().getSimpleName());
    }
  }

  /** {@return the key hash this class chooses for {@code filter}: see the class comment} */
  public static LongKeyHash defaultKeyHash(Filter filter) {
    return filter instanceof SeededFinalizer ? LongKeyHash.IDENTITY : LongKeyHash.MIX64;
  }

  /**
   * Views {@code filter} as a filter of fast-hashed {@code long} keys, with {@link
   * #defaultKeyHash}. Its contents must have come from that hash (empty, or built or filled through
   * this class).
   */
  public static <F extends Filter> FastLongKeyFilter<F> of(F filter) {
    return new FastLongKeyFilter<>(filter, defaultKeyHash(filter));
  }

  /**
   * Views {@code filter} as a filter of {@code long} keys hashed by {@code keyHash} (as a container
   * records it).
   *
   * @throws IllegalArgumentException for {@link LongKeyHash#IDENTITY} over a filter that does not
   *     mix the hashes itself
   */
  public static <F extends Filter> FastLongKeyFilter<F> of(F filter, LongKeyHash keyHash) {
    return new FastLongKeyFilter<>(filter, keyHash);
  }

  /**
   * Builds a filter with {@code builder} from {@code keys}, hashed with the key hash the built type
   * takes ({@link #defaultKeyHash}).
   */
  public static <F extends Filter> FastLongKeyFilter<F> build(
      FilterBuilder<F> builder, long[] keys) {
    Objects.requireNonNull(builder, "builder");
    Objects.requireNonNull(keys, "keys");
    LongKeyHash keyHash =
        builder instanceof SeededFinalizer ? LongKeyHash.IDENTITY : LongKeyHash.MIX64;
    long[] hashes = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      hashes[i] = keyHash.hash(keys[i]);
    }
    return new FastLongKeyFilter<>(builder.buildFromHashes(hashes), keyHash);
  }

  /** {@return the filter inside, whose key hashes are {@link #keyHash()} of the keys} */
  public F filter() {
    return filter;
  }

  /** {@return how keys become the hashes the filter inside probes with} */
  public LongKeyHash keyHash() {
    return keyHash;
  }

  @Override
  public boolean mayContain(long key) {
    return filter.mayContainHash(keyHash.hash(key));
  }

  @Override
  public boolean mayContainHash(long hash) {
    return filter.mayContainHash(hash);
  }

  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    return filter.mayContainHashes(hashes, off, len, resultBits);
  }

  @Override
  public int mayContainBatch(long[] keys, int off, int len, long[] resultBits) {
    if (keyHash == LongKeyHash.IDENTITY) {
      return filter.mayContainHashes(keys, off, len, resultBits);
    }
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
    if (!(filter instanceof MutableFilter mutable)) {
      throw new UnsupportedOperationException(
          filter.getClass().getSimpleName() + " is static: keys cannot be added after the build");
    }
    return mutable.addHash(keyHash.hash(key));
  }

  private UnsupportedOperationException byteKeys() {
    return new UnsupportedOperationException(
        "a FastLongKeyFilter holds long keys hashed by " + keyHash + "; byte keys are not defined");
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
  public boolean mayContain(CharSequence key) {
    throw byteKeys();
  }

  @Override
  public boolean mayContainInt(int key) {
    throw byteKeys();
  }

  @Override
  public <T> boolean mayContain(T key, KeyEncoder<? super T> encoder) {
    throw byteKeys();
  }

  @Override
  public int mayContainBatch(CharSequence[] keys, int off, int len, long[] resultBits) {
    throw byteKeys();
  }

  @Override
  public <T> int mayContainBatch(
      T[] keys, KeyEncoder<? super T> encoder, int off, int len, long[] resultBits) {
    throw byteKeys();
  }

  @Override
  public double approximateElementCount() {
    return filter.approximateElementCount();
  }

  @Override
  public double expectedFpRate() {
    return filter.expectedFpRate();
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

  /** Equal when the key hashes and the filters inside are equal. */
  @Override
  public boolean equals(Object o) {
    return o instanceof FastLongKeyFilter
        && ((FastLongKeyFilter<?>) o).keyHash == keyHash
        && ((FastLongKeyFilter<?>) o).filter.equals(filter);
  }

  @Override
  public int hashCode() {
    return filter.hashCode() * 31 + keyHash.hashCode();
  }

  @Override
  public String toString() {
    return "FastLongKeyFilter{" + keyHash + ", " + filter + "}";
  }
}
