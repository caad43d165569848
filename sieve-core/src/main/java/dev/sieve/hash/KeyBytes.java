package dev.sieve.hash;

import java.util.Objects;

/**
 * Typed keys for filters that test key <em>bytes</em> rather than Sieve's 64-bit key hash (the
 * legacy RocksDB Bloom filter and SST filters, which hash with their own functions or transform the
 * key first): {@link #test} encodes a key into the per-thread buffer {@link KeyHash} uses and hands
 * the bytes to the filter's byte-range test, without allocating a {@code byte[]} per key.
 */
public final class KeyBytes {
  private KeyBytes() {}

  /** A test of the key {@code bytes[off, off + len)}. */
  @FunctionalInterface
  public interface RangeTest {
    /**
     * Tests one key.
     *
     * @param bytes holds the key; valid only during the call
     * @param off where the key starts
     * @param len its length
     * @return the answer for the key
     */
    boolean test(byte[] bytes, int off, int len);
  }

  /**
   * Encodes {@code key} with {@code encoder} and answers {@code test} of its bytes.
   *
   * @param key the key
   * @param encoder how it becomes bytes
   * @param test the byte-level test, e.g. a filter's {@code mayContain(byte[], int, int)}
   * @return what {@code test} answers
   */
  public static <T> boolean test(T key, KeyEncoder<? super T> encoder, RangeTest test) {
    Objects.requireNonNull(test, "test");
    return KeyBuffer.test(key, encoder, test);
  }
}
