package dev.sieve;

import dev.sieve.hash.KeyBytes;
import dev.sieve.hash.KeyEncoder;
import dev.sieve.math.BloomMath;
import java.nio.ByteBuffer;

/**
 * The key level of a filter: "definitely absent / maybe present" for key bytes and for typed keys
 * encoded to bytes ({@code long}, {@code int}, text, any type through a {@link KeyEncoder}). A
 * filter that tests keys through some other hash or transform (RocksDB's legacy Bloom filter with
 * its 32-bit hash, an SST file's filter that may test a key's prefix) implements this interface
 * alone; {@link Filter}, the hash level, extends it for every filter that reduces keys to Sieve's
 * 64-bit key hash first and can be queried with that hash.
 *
 * <p>The typed defaults here encode the key into a per-thread buffer and test the bytes ({@link
 * KeyBytes}); {@link Filter} overrides them to hash instead. A {@code long} key is its eight
 * big-endian bytes, an {@code int} key its four, text its UTF-8 bytes, everywhere.
 */
public interface KeyFilter {

  /**
   * Tests the key {@code key[off, off + len)}.
   *
   * @param key holds the key
   * @param off where it starts
   * @param len its length
   * @return {@code false} if the key was definitely never added
   */
  boolean mayContain(byte[] key, int off, int len);

  /**
   * Tests a byte-string key.
   *
   * @param key the key
   * @return {@code false} if the key was definitely never added
   */
  default boolean mayContain(byte[] key) {
    return mayContain(key, 0, key.length);
  }

  /**
   * Tests the key made of the remaining bytes of {@code key}; its position is not changed.
   *
   * @param key the key
   * @return {@code false} if the key was definitely never added
   */
  default boolean mayContain(ByteBuffer key) {
    if (key.hasArray()) {
      return mayContain(key.array(), key.arrayOffset() + key.position(), key.remaining());
    }
    return mayContain(key, KeyEncoder.BUFFER);
  }

  /**
   * Tests a {@code long} key, its eight big-endian bytes.
   *
   * @param key the key
   * @return {@code false} if the key was definitely never added
   */
  default boolean mayContain(long key) {
    return mayContain(key, KeyEncoder.LONG);
  }

  /**
   * Tests an {@code int} key, its four big-endian bytes (named apart from {@link
   * #mayContain(long)}, where an {@code int} is the {@code long} key of the same value).
   *
   * @param key the key
   * @return {@code false} if the key was definitely never added
   */
  default boolean mayContainInt(int key) {
    return mayContain(key, KeyEncoder.INT);
  }

  /**
   * Tests a text key, its UTF-8 bytes (as {@code key.toString().getBytes(UTF_8)}).
   *
   * @param key the key
   * @return {@code false} if the key was definitely never added
   */
  default boolean mayContain(CharSequence key) {
    return mayContain(key, KeyEncoder.UTF8);
  }

  /**
   * Tests a key of any type, the bytes {@code encoder} writes for it.
   *
   * @param <T> the key type
   * @param key the key
   * @param encoder how the key becomes bytes
   * @return {@code false} if the key was definitely never added
   */
  default <T> boolean mayContain(T key, KeyEncoder<? super T> encoder) {
    return KeyBytes.test(key, encoder, this::mayContain);
  }

  /**
   * This filter over keys of one type, each written to bytes by {@code encoder} and tested as
   * {@link #mayContain(Object, KeyEncoder)} tests it (a {@link Filter} hashes by its {@link
   * Filter#keyScheme()}), bound once, in the manner of Guava's {@code BloomFilter<T>}: {@code
   * filter.keyed(KeyEncoder.UTF8).mayContain("user:7")}.
   *
   * @param <T> the key type
   * @param encoder how a key becomes bytes
   * @return the view; it holds no state of its own
   */
  default <T> KeyedFilter<T> keyed(KeyEncoder<? super T> encoder) {
    return KeyedFilter.of(this, encoder);
  }

  /**
   * The number of keys the filter was built with (distinct hashes where the format counts so).
   *
   * @return the key count; 0 where the form read does not store it
   */
  long numKeys();

  /**
   * The size of the filter's data in bits, as it is stored (metadata trailers excluded).
   *
   * @return the size in bits
   */
  long sizeInBits();

  /**
   * The size of the filter's data in bytes, rounded up.
   *
   * @return the size in bytes
   */
  default long sizeInBytes() {
    return (sizeInBits() + 7) >>> 3;
  }

  /**
   * Bits of filter data per key; {@code 0} for an empty filter.
   *
   * @return the bits per key
   */
  default double bitsPerKey() {
    long n = numKeys();
    return n == 0 ? 0.0 : (double) sizeInBits() / n;
  }

  /**
   * The false-positive rate the filter's model predicts for its size, its key count {@link
   * #numKeys()} and its parameters. Where the key count is unknown (a filter read from a RocksDB
   * block, which does not store it, reports 0 keys) or an add-only filter was overfilled, this is
   * not the filter's rate: {@link #expectedFpRate()} is.
   *
   * @return the modelled rate
   */
  double modelledFpRate();

  /**
   * The number of distinct keys the filter holds, as well as the filter can tell: the exact count
   * where the filter keeps one (static filters, Cuckoo), an estimate from the data where it does
   * not or where the count may be wrong (the Bloom filters estimate it from the fraction of set
   * bits, as Guava's {@code approximateElementCount}, so a filter read from a RocksDB block or
   * overfilled past its capacity reports the truth within the documented bounds, or says it is
   * saturated).
   *
   * @return the estimated count
   */
  default double approximateElementCount() {
    return numKeys();
  }

  /**
   * The false-positive rate the filter has now, judged from its data where it can be (Bloom
   * filters: the probability that all probes of a random absent key hit set bits, from the set bits
   * themselves, as Guava's {@code expectedFpp}), otherwise {@link #modelledFpRate()}. Unlike {@link
   * #modelledFpRate()}, right for a filter whose key count is unknown or was exceeded.
   *
   * @return the estimated rate
   */
  default double expectedFpRate() {
    return modelledFpRate();
  }

  /**
   * The factor by which the filter's size exceeds the information-theoretic floor {@code
   * log2(1/modelledFpRate)} bits per key ({@link dev.sieve.math.BloomMath#overheadOverFloor}).
   *
   * @return the overhead factor
   */
  default double overheadOverFloor() {
    return BloomMath.overheadOverFloor(bitsPerKey(), modelledFpRate());
  }
}
