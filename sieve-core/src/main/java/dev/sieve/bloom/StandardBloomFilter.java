package dev.sieve.bloom;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.MergeableFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.Schemes;
import dev.sieve.internal.base.BatchScratch;
import dev.sieve.math.BloomMath;
import java.nio.ByteBuffer;

/**
 * The standard Bloom filter (Bloom 1970): {@code m} bits, {@code k} probes per key anywhere in the
 * array.
 *
 * <h2>The idea</h2>
 *
 * To add a key, set the {@code k} bits its hash selects; to query, test them. An added key's bits
 * are all set and bits are never cleared, so there are no false negatives; an absent key is a false
 * positive when its {@code k} bits were all set by other keys.
 *
 * <h2>Probes</h2>
 *
 * All {@code k} bit indexes derive from the one 64-bit key hash by enhanced double hashing
 * (Dillinger and Manolios 2004): {@code x_0 = h}, {@code y_0 = mix(h)}, and probe {@code i} uses
 * {@code x_i = x_{i-1} + y_{i-1}}, {@code y_i = y_{i-1} + i}, each mapped onto {@code [0, m)} by
 * the multiply-shift range reduction {@code (x · m) >>> 64} — uniform for any {@code m}, not only
 * powers of two, and 64-bit wide so filters beyond 2^32 bits index every bit.
 *
 * <h2>The math</h2>
 *
 * {@link BloomMath#standardFpRate}: {@code (1 - e^(-k/b))^k} at {@code b = m/n} bits per key,
 * minimal at {@code k = b · ln 2} ({@link BloomMath#optimalNumProbes}), where half the bits are set
 * and the rate is {@code 0.6185^b}. Spending {@code b} bits per key for rate {@code f} costs {@code
 * 1.44 · log2(1/f)} bits per key, 44% over the information floor.
 *
 * <h2>The trade-off</h2>
 *
 * The most accurate Bloom filter for its size, but each query may touch {@code k} cache lines:
 * {@link BlockedBloomFilter} trades a little FPR for one cache line per query; Ribbon and the
 * Xor/Fuse filters trade the ability to add keys for about 30% less space.
 *
 * <h2>Limits</h2>
 *
 * {@code m} is stored in one {@code long[]}: at most {@code MAX_BITS} bits (just under 2^37, 16
 * GiB), probes 1 to {@code MAX_PROBES}.
 */
public final class StandardBloomFilter implements MergeableFilter<StandardBloomFilter> {

  /** The most bits one filter holds: one Java {@code long[]}. */
  static final long MAX_BITS = (long) (Integer.MAX_VALUE - 8) * Long.SIZE;

  /** The most probes per key. */
  static final int MAX_PROBES = 64;

  /** The bits/key range the builder accepts. */
  static final double MIN_BITS_PER_KEY = 1.0;

  static final double MAX_BITS_PER_KEY = 1000.0;

  /** The length of the header of {@link #toByteArray()}. */
  static final int HEADER_BYTES = 16;

  // This class holds the API. The words and the key count are BloomWords'; the probe and add
  // loops over raw storage are StandardBloomKernel's; the serialized form is StandardBloomForm's.

  /** The words and the key count, for the cold operations (union, copy, equals, bytes). */
  final BloomWords data;

  // Two storage forms, each with its own hot loop in the query methods: one loop over a common
  // storage interface was measurably slower on heap queries; so the probes read these raw fields
  // (data's storage), and every cold method goes to data.
  /** The data on the heap; {@code null} when the filter wraps buffers. */
  final long[] words;

  /** The data read in place from (possibly memory-mapped) buffers; {@code null} on the heap. */
  private final LongSegments wrapped;

  final long numBits;
  final int numProbes;

  /** How keys become the hashes probed ({@link Filter#keyScheme()}). */
  private final KeyScheme keyScheme;

  private final BatchScratch.ChunkProbe chunkProbe = this::probeChunk;

  StandardBloomFilter(BloomWords data, long numBits, int numProbes) {
    this(data, numBits, numProbes, KeyScheme.XXPH3);
  }

  StandardBloomFilter(BloomWords data, long numBits, int numProbes, KeyScheme keyScheme) {
    this.keyScheme = keyScheme;
    this.data = data;
    this.words = data.heapOrNull();
    this.wrapped = data.wrappedOrNull();
    this.numBits = numBits;
    this.numProbes = numProbes;
  }

  /**
   * The serialized form: a 16-byte little-endian header — the number of bits (8 bytes), the number
   * of probes (1 byte), 7 zero bytes — then the {@code ceil(m / 64)} data words, little-endian.
   * (The versioned, checksummed Sieve container wraps this as its payload.)
   */
  byte[] toByteArray() {
    return StandardBloomForm.toBytes(this);
  }

  /**
   * Reads {@link #toByteArray()}'s form, copying the data onto the heap.
   *
   * <p><b>No integrity check:</b> this form carries no checksum, so a changed byte (the probe
   * count, the number of bits) gives another well-formed filter that can answer "absent" for added
   * keys; store filters in the checksummed container ({@link dev.sieve.format.SieveFormat}).
   *
   * @param numKeys the key count to report (the form does not store it)
   * @throws SieveFormatException on a bad header or a length that does not match it
   * @throws IllegalArgumentException if {@code numKeys} is negative
   */
  static StandardBloomFilter fromByteArray(byte[] bytes, long numKeys) {
    return StandardBloomForm.read(bytes, numKeys);
  }

  /**
   * Wraps {@link #toByteArray()}'s form held in a buffer (position to limit) <em>without
   * copying</em>; the bytes must not change while the filter is in use. The filter is read-only.
   *
   * <p><b>No integrity check:</b> this form carries no checksum, so a changed byte (the probe
   * count, the number of bits) gives another well-formed filter that can answer "absent" for added
   * keys; store filters in the checksummed container ({@link dev.sieve.format.SieveFormat}).
   *
   * @throws SieveFormatException as {@link #fromByteArray}
   * @throws IllegalArgumentException if {@code numKeys} is negative
   */
  static StandardBloomFilter wrap(ByteBuffer bytes, long numKeys) {
    return StandardBloomForm.wrap(bytes, numKeys);
  }

  /** {@return the words and the key count} */
  BloomWords data() {
    return data;
  }

  /** {@return whether the filter reads its data in place from buffers} */
  public boolean isWrapped() {
    return words == null;
  }

  /** {@return a builder that sizes the filter by bits/key or by a target false-positive rate} */
  public static StandardBloomFilterBuilder builder() {
    return new StandardBloomFilterBuilder().keyScheme(KeyScheme.FAST);
  }

  /**
   * An empty filter of exactly {@code numBits} bits (1 to {@code MAX_BITS}) and {@code numProbes}
   * probes (1 to {@code MAX_PROBES}).
   */
  public static StandardBloomFilter withShape(long numBits, int numProbes) {
    StandardBloomForm.checkShape(numBits, numProbes);
    return StandardBloomForm.empty(numBits, numProbes);
  }

  /**
   * An empty filter for {@code expectedKeys} keys at {@code bitsPerKey}, with the optimal number of
   * probes.
   */
  public static StandardBloomFilter createWithBitsPerKey(long expectedKeys, double bitsPerKey) {
    return builder().bitsPerKey(bitsPerKey).expectedKeys(expectedKeys).create();
  }

  @Override
  public KeyScheme keyScheme() {
    return keyScheme;
  }

  @Override
  public StandardBloomFilter withKeyScheme(KeyScheme scheme) {
    Schemes.check(this, scheme);
    return scheme == keyScheme ? this : new StandardBloomFilter(data, numBits, numProbes, scheme);
  }

  @Override
  public boolean mayContainHash(long hash64) {
    long[] w = words;
    if (w == null) {
      return StandardBloomKernel.mayContain(wrapped, numBits, numProbes, hash64);
    }
    return StandardBloomKernel.mayContain(w, numBits, numProbes, hash64);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Breadth first over each chunk of 64 hashes: round {@code j} loads probe {@code j} of every
   * key still possibly present, so the (up to {@code k}) random cache misses of different keys
   * overlap instead of following one another; a key leaves the rounds at its first clear bit.
   */
  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    if (words == null) {
      return MergeableFilter.super.mayContainHashes(hashes, off, len, resultBits);
    }
    return BatchScratch.batch(hashes, off, len, resultBits, chunkProbe);
  }

  private long probeChunk(long[] hashes, int at, int chunk) {
    return StandardBloomKernel.probeChunk(words, numBits, numProbes, hashes, at, chunk);
  }

  @Override
  public boolean addHash(long hash64) {
    if (words == null) {
      throw new UnsupportedOperationException("a filter wrapping a buffer is read-only");
    }
    boolean changed = StandardBloomKernel.add(words, numBits, numProbes, hash64);
    if (changed) {
      data.countKey();
    }
    return changed;
  }

  /**
   * ORs {@code other} into this filter: afterwards this filter contains every key of both. Safe to
   * call while other threads add to or query either filter.
   *
   * <p>The key count afterwards is {@code max(numKeys(), other.numKeys(),
   * round(approximateElementCount()))}: the union's distinct keys estimated from its set bits,
   * never below either count, and not the sum of the two counts, which would count the keys the
   * filters share twice (unioning a filter with itself 20 times multiplied its count by 2^20). So
   * {@link #numKeys()} and {@link #modelledFpRate()} follow the estimate after a union; keys added
   * concurrently with the union are counted on top.
   *
   * @throws IllegalArgumentException if the two filters differ in bits or probes
   */
  @Override
  public void union(StandardBloomFilter other) {
    data.checkMutable();
    Schemes.checkSame(this, other);
    if (other.numBits != numBits || other.numProbes != numProbes) {
      throw new IllegalArgumentException(
          "cannot union filters of different shapes: "
              + numBits
              + " bits/"
              + numProbes
              + " probes vs "
              + other.numBits
              + " bits/"
              + other.numProbes
              + " probes");
    }
    data.union(other.data, this::approximateElementCount);
  }

  /**
   * The number of distinct keys the filter holds, estimated from its set bits ({@link
   * BloomMath#standardBloomElementCount}, Swamidass and Baldi): within about 1% for a filter at its
   * designed load ({@code n ≥ 10^4}), and still within a few percent at 10× its capacity (at 10
   * bits/key about 0.1% of the bits are then 0). With fewer than {@value #SATURATION_ZERO_BITS}
   * zero bits it is {@linkplain #isSaturated() saturated} and the estimate only a lower bound. It
   * counts the set bits, a pass over the filter. {@link #union} uses it for the key count; it also
   * gives the key count of a filter read from a form that does not store it.
   */
  @Override
  public double approximateElementCount() {
    return BloomMath.standardBloomElementCount(bitsSetFromWord(0), numBits, numProbes);
  }

  /**
   * The filter's false-positive rate judged from its bits: {@code (bits set / bits)^k}, the
   * probability that all {@code k} probes of a random absent key land on set bits. Right whatever
   * the key count, also for a filter overfilled past its capacity, where {@link #modelledFpRate()}
   * (from {@link #numKeys()}) is not.
   */
  @Override
  public double expectedFpRate() {
    return Math.pow(fractionOfBitsSet(), numProbes);
  }

  /** Fewer zero bits than this make the filter {@linkplain #isSaturated saturated}. */
  static final int SATURATION_ZERO_BITS = 32;

  /**
   * Whether the filter is so full that its key count cannot be estimated: fewer than {@value
   * #SATURATION_ZERO_BITS} of its bits are 0 (at 10 bits/key, well before 100 times its capacity).
   * Then {@link #approximateElementCount()} is a lower bound and nearly every query answers "maybe"
   * ({@link #expectedFpRate()} close to 1).
   */
  public boolean isSaturated() {
    return numBits - bitsSetFromWord(0) < SATURATION_ZERO_BITS;
  }

  /** An independent copy of this filter. */
  @Override
  public StandardBloomFilter copy() {
    return new StandardBloomFilter(data.copy(), numBits, numProbes, keyScheme);
  }

  /** {@return the number of probes per key} */
  public int numProbes() {
    return numProbes;
  }

  /**
   * The number of keys: those it was built from plus the adds that changed the filter (a duplicate
   * never does, and a new key fails to only when it was a false positive). After a {@link #union}
   * it is the estimate described there.
   */
  @Override
  public long numKeys() {
    return data.numKeys();
  }

  @Override
  public long sizeInBits() {
    return numBits;
  }

  @Override
  public double modelledFpRate() {
    return BloomMath.standardBloomFpRate(numKeys(), numBits, numProbes);
  }

  /** {@return the fraction of bits that are set (1/2 at the optimal number of probes)} */
  public double fractionOfBitsSet() {
    return (double) bitsSetFromWord(0) / numBits;
  }

  /** The number of set bits in words {@code fromWord} and up (for tests of the index range). */
  long bitsSetFromWord(int fromWord) {
    return data.bitCount(fromWord, data.numWords());
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof StandardBloomFilter other)) {
      return false;
    }
    return other.numBits == numBits
        && other.numProbes == numProbes
        && other.keyScheme == keyScheme
        && other.data.sameWords(data);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(data.wordsHash(numBits * 31 + numProbes));
  }

  @Override
  public String toString() {
    return "StandardBloomFilter{bits=%s, probes=%s, keys=%s}"
        .formatted(numBits, numProbes, numKeys());
  }
}
