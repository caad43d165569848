package dev.sieve.interop;

import dev.sieve.KeyScheme;
import dev.sieve.MergeableFilter;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.Schemes;
import dev.sieve.internal.base.Checks;
import dev.sieve.math.BloomMath;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Apache ORC's Bloom filter ({@code org.apache.orc.util.BloomFilter} and {@code BloomFilterUtf8},
 * the {@code BLOOM_FILTER} and {@code BLOOM_FILTER_UTF8} streams of an ORC file's row index), bit
 * for bit: the same bits, the same probes, so it answers exactly as ORC's reader for every key.
 *
 * <h2>The algorithm</h2>
 *
 * A standard Bloom filter of {@code m} bits, {@code m} a multiple of 64 held in 64-bit words (bit
 * {@code j} is bit {@code j & 63} of word {@code j >>> 6}), with {@code k} probes by double hashing
 * of one 64-bit key hash (Kirsch and Mitzenmacher, "Less hashing, same performance", 2006): probe
 * {@code i} of 1..k is {@code c = h1 + i h2} over the hash's low and high 32-bit halves in signed
 * 32-bit arithmetic, complemented when negative, taken modulo {@code m}. ORC sizes the filter for
 * {@code n} expected entries (at least 1) and rate {@code p} as {@code m' = (int)(-n ln p / ln²2)},
 * rounded up to the next multiple of 64 (a whole extra word when {@code m'} already is one), and
 * {@code k = max(1, round(m / n ln 2))} ({@link #create}). The rate at {@code n} keys is the
 * standard Bloom {@code (1 - e^(-kn/m))^k}; 32-bit double hashing adds nothing measurable below
 * {@code m = 2^31}, ORC's limit (its bit index is an int).
 *
 * <h2>Hashing</h2>
 *
 * A filter read from ORC ({@link #fromBitset}, {@link #fromUtf8Bitset}) or made by {@link #create}
 * hashes keys as ORC does ({@link KeyScheme#ORC_MURMUR3}: integers and doubles by Thomas Wang's
 * 64-bit mix, bytes and UTF-8 text by ORC's 64-bit Murmur3); one from the registry's builder hashes
 * by Sieve's default scheme unless given {@code ORC_MURMUR3}. The trade-off against Sieve's own
 * Bloom filters: no cache locality (k random words per query) and a 32-bit probe index, the price
 * of reading ORC's bytes as they are.
 *
 * <h2>Streams</h2>
 *
 * ORC stores the words as a repeated fixed64 field ({@code BLOOM_FILTER}) or as their little-endian
 * bytes ({@code BLOOM_FILTER_UTF8}); {@link #bitset()} and {@link #utf8Bitset()} give both, which
 * ORC's {@code BloomFilterIO.deserialize} reads back as the same filter. The words are held in
 * {@link BloomWords}, the bit array of Sieve's own Bloom filters (the same bit order).
 */
public final class OrcBloomFilter implements MergeableFilter<OrcBloomFilter> {

  /** The most words: ORC's bit count {@code 64 * words} must stay a positive int. */
  public static final int MAX_WORDS = (Integer.MAX_VALUE >>> 6);

  /** The most probes accepted (ORC's own sizing gives 1 to about 45 for rates down to 10^-13). */
  public static final int MAX_PROBES = 1024;

  /** The words and the key count. */
  private final BloomWords data;

  /** {@link #data}'s heap array, for the probe loops. */
  private final long[] words;

  private final int numBits;
  private final int numProbes;
  private final KeyScheme keyScheme;

  OrcBloomFilter(long[] words, int numProbes, long numKeys, KeyScheme keyScheme) {
    this(BloomWords.onHeap(words, numKeys), numProbes, keyScheme);
  }

  /** A filter over {@code data}, shared (another key scheme's view of the same words). */
  private OrcBloomFilter(BloomWords data, int numProbes, KeyScheme keyScheme) {
    this.data = data;
    this.words = data.heapOrNull();
    this.numBits = words.length * Long.SIZE;
    this.numProbes = numProbes;
    this.keyScheme = keyScheme;
  }

  /** {@return a builder; {@code fpRate} defaults to ORC's default {@code fpp}, 0.05} */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * An empty filter sized as ORC's {@code new BloomFilter(expectedEntries, fpp)}, hashing as ORC
   * does ({@link KeyScheme#ORC_MURMUR3}).
   *
   * @param expectedEntries the expected entries (ORC uses at least 1)
   * @param fpp the false-positive rate, in (0, 1)
   * @return the filter
   * @throws IllegalArgumentException for a rate outside (0, 1) or a size over {@link #MAX_WORDS}
   */
  public static OrcBloomFilter create(long expectedEntries, double fpp) {
    Checks.count("expected entries", expectedEntries, Long.MAX_VALUE);
    return empty(expectedEntries, fpp, KeyScheme.ORC_MURMUR3);
  }

  /**
   * ORC's sizing at {@code fpp}, then whole words added (with ORC's probe rule at each size) until
   * the modelled rate at {@code expectedEntries} is at most {@code fpp}: the registry's meaning of
   * {@code fpRate}. ORC's own formula can model up to about 1% over its {@code fpp}, as its integer
   * probe count rounds.
   */
  private static OrcBloomFilter atMost(long expectedEntries, double fpp) {
    OrcBloomFilter f = empty(expectedEntries, fpp, KeyScheme.XXPH3);
    long n = Math.max(expectedEntries, 1);
    long words = f.words.length;
    int k = f.numProbes;
    while (BloomMath.standardBloomFpRate(n, words * Long.SIZE, k) > fpp && words < MAX_WORDS) {
      words++;
      k = Math.max(1, (int) Math.round((double) (words * Long.SIZE) / n * Math.log(2)));
    }
    return words == f.words.length
        ? f
        : new OrcBloomFilter(new long[(int) words], Math.min(k, MAX_PROBES), 0, KeyScheme.XXPH3);
  }

  private static OrcBloomFilter empty(long expectedEntries, double fpp, KeyScheme scheme) {
    if (!(fpp > 0.0 && fpp < 1.0)) {
      throw new IllegalArgumentException("fpp must be in (0, 1), got " + fpp);
    }
    long n = Math.max(expectedEntries, 1);
    double bits = -n * Math.log(fpp) / (Math.log(2) * Math.log(2));
    if (bits >= (double) MAX_WORDS * Long.SIZE) {
      throw new IllegalArgumentException(
          n
              + " entries at rate "
              + fpp
              + " need "
              + (long) bits
              + " bits, over ORC's limit of "
              + (long) MAX_WORDS * Long.SIZE);
    }
    int nb = (int) bits;
    int m = nb + (Long.SIZE - nb % Long.SIZE);
    int k = Math.max(1, (int) Math.round((double) m / n * Math.log(2)));
    if (k > MAX_PROBES) {
      throw new IllegalArgumentException(
          n
              + " entries at rate "
              + fpp
              + " give "
              + k
              + " probes, over the limit of "
              + MAX_PROBES);
    }
    return new OrcBloomFilter(new long[m / Long.SIZE], k, 0, scheme);
  }

  /**
   * The filter of a {@code BLOOM_FILTER} stream entry (the repeated fixed64 {@code bitset}),
   * copied, hashing as ORC does.
   *
   * @param bitset the words
   * @param numHashFunctions the probes
   * @param numKeys the keys it holds, where known (e.g. the row group's rows), else 0
   * @return the filter
   * @throws SieveFormatException if the word count or the probes are outside the limits
   */
  public static OrcBloomFilter fromBitset(long[] bitset, int numHashFunctions, long numKeys) {
    checkShape(bitset.length, numHashFunctions);
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    return new OrcBloomFilter(bitset.clone(), numHashFunctions, numKeys, KeyScheme.ORC_MURMUR3);
  }

  /**
   * The filter of a {@code BLOOM_FILTER_UTF8} stream entry (the {@code utf8bitset} bytes, the words
   * little-endian), copied, hashing as ORC does.
   *
   * @param bytes the bitset's bytes, a whole number of words
   * @param numHashFunctions the probes
   * @param numKeys the keys it holds, where known, else 0
   * @return the filter
   * @throws SieveFormatException if the length is not a whole number of words or a field is outside
   *     the limits
   */
  public static OrcBloomFilter fromUtf8Bitset(byte[] bytes, int numHashFunctions, long numKeys) {
    if (bytes.length % Long.BYTES != 0) {
      throw new SieveFormatException(
          0, "ORC utf8bitset of " + bytes.length + " bytes is not a whole number of 64-bit words");
    }
    checkShape(bytes.length / Long.BYTES, numHashFunctions);
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    long[] words = new long[bytes.length / Long.BYTES];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(words);
    return new OrcBloomFilter(words, numHashFunctions, numKeys, KeyScheme.ORC_MURMUR3);
  }

  private static void checkShape(int numWords, int numHashFunctions) {
    if (numWords < 1 || numWords > MAX_WORDS) {
      throw new SieveFormatException(
          0, "ORC Bloom filter of " + numWords + " words outside [1, " + MAX_WORDS + "]");
    }
    if (numHashFunctions < 1 || numHashFunctions > MAX_PROBES) {
      throw new SieveFormatException(
          0, "ORC numHashFunctions " + numHashFunctions + " outside [1, " + MAX_PROBES + "]");
    }
  }

  /** {@return a copy of the words, ORC's {@code BLOOM_FILTER} {@code bitset} field} */
  public long[] bitset() {
    return words.clone();
  }

  /** {@return the words' little-endian bytes, ORC's {@code BLOOM_FILTER_UTF8} field} */
  public byte[] utf8Bitset() {
    ByteBuffer out = ByteBuffer.allocate(words.length * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    out.asLongBuffer().put(words);
    return out.array();
  }

  long[] words() {
    return words;
  }

  /** {@return the probes, ORC's {@code numHashFunctions}} */
  public int numHashFunctions() {
    return numProbes;
  }

  @Override
  public KeyScheme keyScheme() {
    return keyScheme;
  }

  @Override
  public OrcBloomFilter withKeyScheme(KeyScheme scheme) {
    Schemes.check(this, scheme);
    return scheme == keyScheme ? this : new OrcBloomFilter(data, numProbes, scheme);
  }

  @Override
  public boolean mayContainHash(long hash64) {
    return OrcBloomKernel.mayContain(words, numBits, numProbes, hash64);
  }

  @Override
  public boolean addHash(long hash64) {
    boolean changed = OrcBloomKernel.add(words, numBits, numProbes, hash64);
    if (changed) {
      data.countKey();
    }
    return changed;
  }

  @Override
  public void union(OrcBloomFilter other) {
    Schemes.checkSame(this, other);
    if (other.numBits != numBits || other.numProbes != numProbes) {
      throw new IllegalArgumentException(
          "cannot union ORC Bloom filters of different shapes: "
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

  @Override
  public OrcBloomFilter copy() {
    return new OrcBloomFilter(data.copy(), numProbes, keyScheme);
  }

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

  /** {@return the fraction of bits set, the saturation} */
  public double fractionOfBitsSet() {
    return (double) bitsSet() / numBits;
  }

  private long bitsSet() {
    return data.bitCount();
  }

  @Override
  public double expectedFpRate() {
    return Math.pow(fractionOfBitsSet(), numProbes);
  }

  @Override
  public double approximateElementCount() {
    return BloomMath.standardBloomElementCount(bitsSet(), numBits, numProbes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OrcBloomFilter other
        && other.numProbes == numProbes
        && other.keyScheme == keyScheme
        && other.data.sameWords(data);
  }

  @Override
  public int hashCode() {
    return data.wordsHash() * 31 + numProbes;
  }

  @Override
  public String toString() {
    return "OrcBloomFilter{bits=" + numBits + ", probes=" + numProbes + ", keys=" + numKeys() + "}";
  }

  /**
   * The builder: ORC's sizing ({@link #create}) at the expected keys and {@code fpRate}, grown by
   * whole words where ORC's rounding would model a rate over {@code fpRate} (so the registry's knob
   * means the same as for every type); {@link #create} is ORC's exact sizing.
   */
  public static final class Builder extends MutableFilterBuilder<OrcBloomFilter> {
    private double fpp = 0.05;

    private Builder() {}

    @Override
    public Builder fpRate(double fpRate) {
      Checks.fpRate(fpRate);
      this.fpp = fpRate;
      return this;
    }

    @Override
    public Builder expectedKeys(long expectedKeys) {
      super.expectedKeys(expectedKeys);
      return this;
    }

    @Override
    public Builder keyScheme(KeyScheme scheme) {
      super.keyScheme(Objects.requireNonNull(scheme, "scheme"));
      return this;
    }

    @Override
    protected OrcBloomFilter createEmpty() {
      return atMost(expectedKeys(), fpp);
    }

    @Override
    protected OrcBloomFilter buildFromHashes(long[] hashes, int count) {
      OrcBloomFilter f = atMost(count, fpp);
      for (int i = 0; i < count; i++) {
        OrcBloomKernel.add(f.words, f.numBits, f.numProbes, hashes[i]);
      }
      f.data.countKeys(count);
      return f;
    }
  }
}
