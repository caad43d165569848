package dev.sieve.interop;

import dev.sieve.KeyFilter;
import dev.sieve.hash.KeyBytes;
import dev.sieve.hash.KeyEncoder;
import dev.sieve.internal.BloomWords;
import dev.sieve.math.BloomMath;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The Bloom filters of other systems, in their own forms ({@link GuavaBloomFilter}, {@link
 * SparkBloomFilter}, {@link DataSketchesBloomFilter}, {@link CassandraBloomFilter}); what they
 * share: {@code m = 64 · words} bits in a {@code long[]} (bit {@code i} is bit {@code i & 63} of
 * word {@code i >>> 6}, as Guava's and Spark's bit arrays), {@code k} probes, and keys that the
 * owning system hashes itself. Every key method goes to the format's hash of the key's bytes.
 *
 * <p>These are {@link KeyFilter}s, not {@link dev.sieve.Filter}s: a {@code Filter} can be tested
 * with Sieve's 64-bit key hash and carries a {@link dev.sieve.KeyScheme}, and the owners' hashes
 * fit neither (Guava's default strategy, DataSketches and Cassandra probe with 128 bits, Spark with
 * a hash pair under the filter's own seed). So they offer the key level, {@code put} and their
 * owners' bytes, and nothing they cannot answer.
 *
 * <p>The bits are held in {@link BloomWords}, the bit array of Sieve's own Bloom filters (the same
 * word and bit order); the owner's probe loops read the heap array directly.
 *
 * <p>The figures the owners do not print come from the bits: {@link #expectedFpRate()} is {@code
 * (bits set / m)^k}, {@link #approximateElementCount()} the Swamidass–Baldi estimate; a filter read
 * from bytes reports that estimate as its key count, since none of these forms stores one.
 */
public abstract class ForeignBloomFilter implements KeyFilter {
  /** The bits and the key count. */
  final BloomWords data;

  /**
   * {@link #data}'s heap array, for the probe loops: bit {@code i & 63} of word {@code i >>> 6}.
   */
  final long[] words;

  final long numBits;
  final int numProbes;

  /**
   * A filter over {@code words} (the array itself); {@code numKeys}: the puts that changed it, or
   * the estimate of a filter read.
   */
  ForeignBloomFilter(long[] words, int numProbes, long numKeys) { // subclasses: this package only
    this.data = BloomWords.onHeap(words, numKeys);
    this.words = words;
    this.numBits = (long) words.length * Long.SIZE;
    this.numProbes = numProbes;
  }

  /** The estimate of the key count from the set bits, for a filter read from bytes. */
  static long estimateKeys(long[] words, int numProbes) {
    long set = 0;
    for (long w : words) {
      set += Long.bitCount(w);
    }
    double n = BloomMath.standardBloomElementCount(set, (long) words.length * Long.SIZE, numProbes);
    return Double.isFinite(n) ? Math.round(n) : Long.MAX_VALUE;
  }

  /** Tests the key whose bytes (as the format hashes them) are {@code key[off, off + len)}. */
  abstract boolean probeBytes(byte[] key, int off, int len);

  /** Tests a {@code long} key as the owning library's {@code long} entry point does. */
  abstract boolean probeLong(long key);

  /** Adds the key {@code key[off, off + len)}; returns whether a bit changed. */
  abstract boolean putBytes(byte[] key, int off, int len);

  /** Adds a {@code long} key; returns whether a bit changed. */
  abstract boolean putLongKey(long key);

  /** Counts a put that changed a bit. */
  final boolean counted(boolean changed) {
    if (changed) {
      data.countKey();
    }
    return changed;
  }

  /**
   * Adds a byte key (the bytes the owner's funnel or entry point hashes).
   *
   * @param key the key
   * @return whether a bit changed
   */
  public boolean put(byte[] key) {
    return counted(putBytes(key, 0, key.length));
  }

  /**
   * Adds a text key, hashed as its UTF-8 bytes.
   *
   * @param key the key
   * @return whether a bit changed
   */
  public boolean put(CharSequence key) {
    return put(key.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Adds a {@code long} key as the owning library's {@code long} entry point does.
   *
   * @param key the key
   * @return whether a bit changed
   */
  public boolean put(long key) {
    return counted(putLongKey(key));
  }

  @Override
  public final boolean mayContain(byte[] key, int off, int len) {
    return probeBytes(key, off, len);
  }

  @Override
  public final boolean mayContain(byte[] key) {
    return probeBytes(key, 0, key.length);
  }

  @Override
  public final boolean mayContain(ByteBuffer key) {
    byte[] copy = new byte[key.remaining()];
    key.duplicate().get(copy);
    return probeBytes(copy, 0, copy.length);
  }

  /**
   * Tests a {@code long} key as the owning library's {@code long} entry point hashes it (not
   * necessarily its eight big-endian bytes: Guava's {@code longFunnel} takes them little-endian).
   *
   * @param key the key
   * @return {@code false} if the key was definitely never added
   */
  @Override
  public final boolean mayContain(long key) {
    return probeLong(key);
  }

  @Override
  public final boolean mayContain(CharSequence key) {
    return probeText(key);
  }

  /** Tests a text key, by default as its UTF-8 bytes. */
  boolean probeText(CharSequence key) {
    byte[] b = key.toString().getBytes(StandardCharsets.UTF_8);
    return probeBytes(b, 0, b.length);
  }

  /**
   * Tests an {@code int} key as the owning library's entry point for it hashes it (by default its
   * {@code long} entry, which the owners widen an {@code int} to).
   *
   * @param key the key
   * @return {@code false} if the key was definitely never added
   */
  @Override
  public boolean mayContainInt(int key) {
    return probeLong(key);
  }

  @Override
  public final <T> boolean mayContain(T key, KeyEncoder<? super T> encoder) {
    return KeyBytes.test(key, encoder, this::probeBytes);
  }

  @Override
  public final long numKeys() {
    return data.numKeys();
  }

  @Override
  public final long sizeInBits() {
    return numBits;
  }

  /** {@return the number of probes per key} */
  public final int numProbes() {
    return numProbes;
  }

  /** {@return the number of set bits} */
  public final long bitsSet() {
    return data.bitCount();
  }

  /** {@return the fraction of the bits that are set} */
  public final double fractionOfBitsSet() {
    return (double) bitsSet() / numBits;
  }

  @Override
  public final double modelledFpRate() {
    return BloomMath.standardBloomFpRate(numKeys(), numBits, numProbes);
  }

  /** The false-positive rate at the actual fill: {@code (bits set / m)^k}. */
  @Override
  public final double expectedFpRate() {
    return Math.pow(fractionOfBitsSet(), numProbes);
  }

  @Override
  public final double approximateElementCount() {
    return BloomMath.standardBloomElementCount(bitsSet(), numBits, numProbes);
  }

  /** {@return the owner's serialized form of this filter, byte for byte} */
  public abstract byte[] toByteArray();

  /** Reads a bounded count of big-endian words after a header. */
  static long[] readWordsBigEndian(ByteBuffer in, int count) {
    long[] w = new long[count];
    for (int i = 0; i < count; i++) {
      w[i] = in.getLong();
    }
    return w;
  }
}
