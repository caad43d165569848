package dev.sieve.bloom;

import dev.sieve.MergeableFilter;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.AtomicBits;
import dev.sieve.internal.BatchScratch;
import dev.sieve.internal.Checks;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.PayloadForms;
import dev.sieve.math.BloomMath;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.LongAdder;

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
 * {@code m} is stored in one {@code long[]}: at most {@link #MAX_BITS} bits (just under 2^37, 16
 * GiB), probes 1 to {@link #MAX_PROBES}.
 */
public final class StandardBloomFilter implements MergeableFilter<StandardBloomFilter> {

  /** The most bits one filter holds: one Java {@code long[]}. */
  public static final long MAX_BITS = (long) (Integer.MAX_VALUE - 8) * Long.SIZE;

  /** The most probes per key. */
  public static final int MAX_PROBES = 64;

  /** The bits/key range the builder accepts. */
  public static final double MIN_BITS_PER_KEY = 1.0;

  public static final double MAX_BITS_PER_KEY = 1000.0;

  /** The length of the header of {@link #toByteArray()}. */
  public static final int HEADER_BYTES = 16;

  // Two storage forms, each with its own hot loop in the query methods: one loop over a common
  // storage interface ran 5-60% slower on heap queries in a quick harness (api-and-house.md, 2);
  // every cold method reads through one accessor instead.
  /** The data on the heap; {@code null} when the filter wraps buffers. */
  private final long[] words;

  /** The data read in place from (possibly memory-mapped) buffers; {@code null} on the heap. */
  private final LongSegments wrapped;

  private final long numBits;
  private final int numProbes;
  private final LongAdder numKeys = new LongAdder();
  private final BatchScratch.ChunkProbe chunkProbe = this::probeChunk;

  private StandardBloomFilter(long numBits, int numProbes) {
    this.numBits = numBits;
    this.numProbes = numProbes;
    this.words = new long[(int) ((numBits + 63) >>> 6)];
    this.wrapped = null;
  }

  private StandardBloomFilter(LongSegments wrapped, long numBits, int numProbes, long numKeys) {
    this.numBits = numBits;
    this.numProbes = numProbes;
    this.words = null;
    this.wrapped = wrapped;
    this.numKeys.add(numKeys);
  }

  /**
   * The serialized form: a 16-byte little-endian header — the number of bits (8 bytes), the number
   * of probes (1 byte), 7 zero bytes — then the {@code ceil(m / 64)} data words, little-endian.
   * (The versioned, checksummed Sieve container wraps this as its payload.)
   */
  byte[] toByteArray() {
    long numWords = (numBits + 63) >>> 6;
    if (HEADER_BYTES + numWords * Long.BYTES > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "a filter of " + numBits + " bits does not fit one byte[]; write it in segments");
    }
    ByteBuffer out =
        ByteBuffer.allocate((int) (HEADER_BYTES + numWords * Long.BYTES))
            .order(ByteOrder.LITTLE_ENDIAN);
    out.putLong(numBits).put((byte) numProbes).put(new byte[7]);
    for (long i = 0; i < numWords; i++) {
      out.putLong(word(i));
    }
    return out.array();
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
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long numWords = checkHeader(in);
    StandardBloomFilter filter = new StandardBloomFilter(in.getLong(0), in.get(8));
    in.position(HEADER_BYTES);
    for (int i = 0; i < numWords; i++) {
      filter.words[i] = in.getLong();
    }
    filter.numKeys.add(numKeys);
    return filter;
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
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    ByteBuffer in = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
    long numWords = checkHeader(in);
    long bits = in.getLong(0);
    int probes = in.get(8);
    in.position(HEADER_BYTES);
    return new StandardBloomFilter(LongSegments.of(in.slice(), numWords), bits, probes, numKeys);
  }

  /**
   * Wraps data words split over several buffers without copying (filters beyond one buffer's 2
   * GiB): every buffer but the last holds exactly {@code 2^segmentShift} bytes.
   */
  public static StandardBloomFilter wrapData(
      ByteBuffer[] segments, int segmentShift, long numBits, int numProbes, long numKeys) {
    withShapeCheck(numBits, numProbes);
    return new StandardBloomFilter(
        LongSegments.of(segments, segmentShift, (numBits + 63) >>> 6), numBits, numProbes, numKeys);
  }

  private static long checkHeader(ByteBuffer in) {
    if (in.remaining() < HEADER_BYTES) {
      throw new SieveFormatException(
          0,
          "standard Bloom form of " + in.remaining() + " bytes is shorter than its 16-byte header");
    }
    long bits = in.getLong(0);
    if (bits < 1 || bits > MAX_BITS) {
      throw new SieveFormatException(
          0, "number of bits " + bits + " outside [1, " + MAX_BITS + "]");
    }
    int probes = in.get(8);
    if (probes < 1 || probes > MAX_PROBES) {
      throw new SieveFormatException(
          8, "number of probes " + probes + " outside [1, " + MAX_PROBES + "]");
    }
    for (int i = 9; i < HEADER_BYTES; i++) {
      if (in.get(i) != 0) {
        throw new SieveFormatException(i, "reserved header byte is not zero");
      }
    }
    long numWords = (bits + 63) >>> 6;
    long expected = HEADER_BYTES + numWords * Long.BYTES;
    if (in.remaining() != expected) {
      throw new SieveFormatException(
          HEADER_BYTES,
          "data of "
              + (in.remaining() - HEADER_BYTES)
              + " bytes, expected "
              + (expected - HEADER_BYTES)
              + " for "
              + bits
              + " bits");
    }
    return numWords;
  }

  private static void withShapeCheck(long numBits, int numProbes) {
    if (numBits < 1 || numBits > MAX_BITS) {
      throw new IllegalArgumentException(
          "number of bits must be in [1, " + MAX_BITS + "], got " + numBits);
    }
    if (numProbes < 1 || numProbes > MAX_PROBES) {
      throw new IllegalArgumentException(
          "number of probes must be in [1, " + MAX_PROBES + "], got " + numProbes);
    }
  }

  private long word(long index) {
    return words != null ? AtomicBits.getVolatile(words, (int) index) : wrapped.get(index);
  }

  /** {@return whether the filter reads its data in place from buffers} */
  public boolean isWrapped() {
    return words == null;
  }

  static {
    PayloadForms.register(
        StandardBloomFilter.class,
        StandardBloomFilter::toByteArray,
        (b, n) -> fromByteArray(b, n),
        (b, n) -> wrap(b, n));
  }

  /** {@return a builder that sizes the filter by bits/key or by a target false-positive rate} */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * An empty filter of exactly {@code numBits} bits (1 to {@link #MAX_BITS}) and {@code numProbes}
   * probes (1 to {@link #MAX_PROBES}).
   */
  public static StandardBloomFilter withShape(long numBits, int numProbes) {
    withShapeCheck(numBits, numProbes);
    return new StandardBloomFilter(numBits, numProbes);
  }

  /**
   * An empty filter for {@code expectedKeys} keys at {@code bitsPerKey}, with the optimal number of
   * probes.
   */
  public static StandardBloomFilter createWithBitsPerKey(long expectedKeys, double bitsPerKey) {
    return builder().bitsPerKey(bitsPerKey).expectedKeys(expectedKeys).create();
  }

  /**
   * An empty filter for {@code expectedKeys} keys at false-positive rate {@code fpRate}, with the
   * optimal number of probes.
   */
  public static StandardBloomFilter createForFpRate(long expectedKeys, double fpRate) {
    return builder().fpRate(fpRate).expectedKeys(expectedKeys).create();
  }

  @Override
  public boolean mayContainHash(long hash64) {
    long x = hash64;
    long y = mixSecond(hash64);
    long[] w = words;
    if (w == null) {
      return wrappedMayContain(x, y);
    }
    for (int i = 0; i < numProbes; i++) {
      long bit = reduce(x);
      if ((w[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
      x += y;
      y += i;
    }
    return true;
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
    long[] w = words;
    BatchScratch scratch = BatchScratch.get();
    long[] xs = scratch.loaded;
    long[] ys = scratch.state;
    for (int i = 0; i < chunk; i++) {
      long hash = hashes[at + i];
      xs[i] = hash;
      ys[i] = mixSecond(hash);
    }
    long alive = chunk == 64 ? -1L : (1L << chunk) - 1;
    for (int j = 0; j < numProbes && alive != 0; j++) {
      for (long m = alive; m != 0; m &= m - 1) {
        int i = Long.numberOfTrailingZeros(m);
        long x = xs[i];
        long bit = reduce(x);
        long hit = w[(int) (bit >>> 6)] >>> bit;
        alive &= ~((~hit & 1L) << i);
        xs[i] = x + ys[i];
        ys[i] += j;
      }
    }
    return alive;
  }

  private boolean wrappedMayContain(long x, long y) {
    LongSegments data = wrapped;
    for (int i = 0; i < numProbes; i++) {
      long bit = reduce(x);
      if ((data.get(bit >>> 6) & (1L << bit)) == 0) {
        return false;
      }
      x += y;
      y += i;
    }
    return true;
  }

  @Override
  public boolean addHash(long hash64) {
    if (words == null) {
      throw new UnsupportedOperationException("a filter wrapping a buffer is read-only");
    }
    long x = hash64;
    long y = mixSecond(hash64);
    boolean changed = false;
    for (int i = 0; i < numProbes; i++) {
      long bit = reduce(x);
      changed |= AtomicBits.setBit(words, (int) (bit >>> 6), (int) (bit & 63));
      x += y;
      y += i;
    }
    if (changed) {
      numKeys.increment();
    }
    return changed;
  }

  /** Single-threaded add used by the builder before the filter is published. */
  private void setPlain(long hash64) {
    long x = hash64;
    long y = mixSecond(hash64);
    long[] w = words;
    for (int i = 0; i < numProbes; i++) {
      long bit = reduce(x);
      w[(int) (bit >>> 6)] |= 1L << bit;
      x += y;
      y += i;
    }
  }

  /** The second hash of double hashing: the halves swapped and remixed, forced odd. */
  private static long mixSecond(long hash64) {
    return (Long.rotateLeft(hash64, 32) * 0x9E3779B97F4A7C15L) | 1L;
  }

  /** {@code (x · numBits) >>> 64} over unsigned {@code x}: a uniform index in {@code [0, m)}. */
  private long reduce(long x) {
    return Math.multiplyHigh(x, numBits) + ((x >> 63) & numBits);
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
    if (words == null) {
      throw new UnsupportedOperationException("a filter wrapping a buffer is read-only");
    }
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
    long otherKeys = other.numKeys();
    for (int i = 0; i < words.length; i++) {
      AtomicBits.orWord(words, i, other.word(i));
    }
    long mine = numKeys.sum();
    long estimate = Math.round(approximateElementCount());
    numKeys.add(Math.max(Math.max(mine, otherKeys), estimate) - mine);
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
  public static final int SATURATION_ZERO_BITS = 32;

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
    StandardBloomFilter copy = new StandardBloomFilter(numBits, numProbes);
    for (int i = 0; i < copy.words.length; i++) {
      copy.words[i] = word(i);
    }
    copy.numKeys.add(numKeys());
    return copy;
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
    return numKeys.sum();
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
    long set = 0;
    long numWords = (numBits + 63) >>> 6;
    for (long i = fromWord; i < numWords; i++) {
      set += Long.bitCount(word(i));
    }
    return set;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof StandardBloomFilter other)) {
      return false;
    }
    if (other.numBits != numBits || other.numProbes != numProbes) {
      return false;
    }
    long numWords = (numBits + 63) >>> 6;
    for (long i = 0; i < numWords; i++) {
      if (word(i) != other.word(i)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    long h = numBits * 31 + numProbes;
    long numWords = (numBits + 63) >>> 6;
    for (long i = 0; i < numWords; i++) {
      h = h * 31 + word(i);
    }
    return Long.hashCode(h);
  }

  @Override
  public String toString() {
    return "StandardBloomFilter{bits="
        + numBits
        + ", probes="
        + numProbes
        + ", keys="
        + numKeys()
        + "}";
  }

  /**
   * Builds {@link StandardBloomFilter}s: {@code m = ceil(n · bitsPerKey)} bits (at least 64) and
   * the optimal probe count unless one is given.
   */
  public static final class Builder extends MutableFilterBuilder<StandardBloomFilter> {
    private double bitsPerKey = 10.0;
    private int numProbes;

    private Builder() {}

    /**
     * Sets bits per key, fractional, in [1, 1000] (default 10).
     *
     * @param bitsPerKey the setting
     * @return this builder
     */
    public Builder bitsPerKey(double bitsPerKey) {
      this.bitsPerKey = Checks.bitsPerKey(bitsPerKey, MIN_BITS_PER_KEY, MAX_BITS_PER_KEY);
      return this;
    }

    /**
     * Sizes for a target false-positive rate: the smallest bits/key whose rate at the optimal probe
     * count is at most {@code fpRate}.
     */
    @Override
    public Builder fpRate(double fpRate) {
      Checks.fpRate(fpRate);
      double lo = MIN_BITS_PER_KEY;
      double hi = MAX_BITS_PER_KEY;
      if (rateAt(lo) <= fpRate) {
        bitsPerKey = lo;
        return this;
      }
      for (int i = 0; i < 100; i++) {
        double mid = (lo + hi) / 2;
        if (rateAt(mid) <= fpRate) {
          hi = mid;
        } else {
          lo = mid;
        }
      }
      bitsPerKey = hi;
      return this;
    }

    private static double rateAt(double bitsPerKey) {
      return BloomMath.standardFpRate(bitsPerKey, BloomMath.optimalNumProbes(bitsPerKey));
    }

    /**
     * Sets a fixed probe count (1 to 64) in place of the optimal one.
     *
     * @param numProbes the setting
     * @return this builder
     */
    public Builder numProbes(int numProbes) {
      if (numProbes < 1 || numProbes > MAX_PROBES) {
        throw new IllegalArgumentException(
            "number of probes must be in [1, " + MAX_PROBES + "], got " + numProbes);
      }
      this.numProbes = numProbes;
      return this;
    }

    /** {@return the bits/key setting} */
    public double bitsPerKey() {
      return bitsPerKey;
    }

    @Override
    public Builder expectedKeys(long expectedKeys) {
      super.expectedKeys(expectedKeys);
      return this;
    }

    /** {@inheritDoc} {@code ceil(expectedKeys · bitsPerKey)} bits, at least 64. */
    @Override
    public StandardBloomFilter create() {
      return createEmpty(expectedKeys());
    }

    private StandardBloomFilter createEmpty(long expectedKeys) {
      Checks.count("expected keys", expectedKeys, (long) (MAX_BITS / bitsPerKey));
      long bits = Math.max(Long.SIZE, (long) Math.ceil(expectedKeys * bitsPerKey));
      if (bits > MAX_BITS) {
        throw new IllegalArgumentException(
            expectedKeys
                + " keys at "
                + bitsPerKey
                + " bits/key need "
                + bits
                + " bits, over the limit of "
                + MAX_BITS);
      }
      int k = numProbes > 0 ? numProbes : BloomMath.optimalNumProbes(bitsPerKey);
      return new StandardBloomFilter(bits, Math.min(k, MAX_PROBES));
    }

    @Override
    protected StandardBloomFilter buildFromHashes(long[] hashes, int count) {
      StandardBloomFilter filter = createEmpty(count);
      for (int i = 0; i < count; i++) {
        filter.setPlain(hashes[i]);
      }
      filter.numKeys.add(count);
      return filter;
    }
  }
}
