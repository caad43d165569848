package dev.sieve.interop;

import dev.sieve.SieveFormatException;
import dev.sieve.hash.Murmur3;
import dev.sieve.internal.PayloadForm;
import java.nio.ByteBuffer;

/**
 * Spark's sketch Bloom filter ({@code org.apache.spark.util.sketch.BloomFilter}), versions 1 and 2,
 * read and written in the form of its {@code writeTo}/{@code readFrom} (also what SQL {@code
 * bloom_filter_agg} stores and {@code might_contain} reads), answering every key as Spark does.
 *
 * <h2>The form</h2>
 *
 * Big-endian ({@code DataOutputStream}): the version (4 bytes: 1 or 2), the number of hash
 * functions {@code k} (4 bytes), in V2 the seed (4 bytes), the number of 64-bit words (4 bytes),
 * then the words; {@code m = 64 · words} bits, bit {@code i} in word {@code i >>> 6} at {@code i &
 * 63}. No key count, no checksum.
 *
 * <h2>Keys</h2>
 *
 * {@code h1 = murmur3_32(key, seed)}, {@code h2 = murmur3_32(key, h1)} with Spark's variants of
 * MurmurHash3 x86_32 ({@link Murmur3#sparkBytes32} for bytes: {@code putBinary}, and {@code
 * putString} as its UTF-8 bytes; {@link Murmur3#sparkLong32} for {@code putLong}, and for every
 * integral type Spark widens to {@code long}: {@link #mayContainInt}). The probes are {@link
 * SparkBloomKernel}'s. V1's seed is 0.
 *
 * <h2>Sizing</h2>
 *
 * As Spark's {@code create(n, fpp)}: {@code m = floor(-n ln p / (ln 2)^2)} bits (rounded up to
 * words), {@code k = max(1, round(m / n · ln 2))}, V2, seed 0. SQL's {@code bloom_filter_agg} caps
 * the bits ({@code spark.sql.optimizer.runtime.bloomFilter.maxNumBits}, 64 Mi by default) and sizes
 * for {@code min(0.03, n / (maxItems / 0.03))}; a capped filter holding more keys than it was sized
 * for has a far higher rate than asked, which {@link #expectedFpRate()} shows.
 *
 * <h2>Limits</h2>
 *
 * {@code k} 1 to {@link #MAX_PROBES}; at most {@link #MAX_WORDS} words. Spark's {@code readFrom}
 * allocates the word count before reading (negative: {@code NegativeArraySizeException}; huge: an
 * {@code OutOfMemoryError}); here it is checked against the bytes present first.
 */
public final class SparkBloomFilter extends ForeignBloomFilter {

  /** The most words a filter holds. */
  public static final int MAX_WORDS = Integer.MAX_VALUE - 8;

  /**
   * The most hash functions read (Spark's limit is an {@code int}; beyond this a query costs more
   * than any filter sized by Spark uses: its {@code k} is 1 in 1000 bits per key).
   */
  public static final int MAX_PROBES = 1024;

  /** Spark's two versions. */
  public enum Version {
    /** Version 1: 32-bit probe arithmetic, seed 0. */
    V1(1),
    /** Version 2 (Spark 4.1): 64-bit probe arithmetic and a seed. */
    V2(2);

    private final int number;

    Version(int number) {
      this.number = number;
    }

    /** {@return the version number in the form} */
    public int number() {
      return number;
    }
  }

  private final Version version;
  private final int seed;

  SparkBloomFilter(long[] words, int numProbes, Version version, int seed, long numKeys) {
    super(words, numProbes, numKeys);
    this.version = version;
    this.seed = seed;
  }

  /** {@return the version} */
  public Version version() {
    return version;
  }

  /** {@return the seed (0 in V1)} */
  public int seed() {
    return seed;
  }

  /**
   * An empty V2 filter sized as Spark's {@code BloomFilter.create(expectedNumItems, fpp)}.
   *
   * @throws IllegalArgumentException for parameters Spark refuses
   */
  public static SparkBloomFilter create(long expectedNumItems, double fpp) {
    if (!(fpp > 0.0 && fpp < 1.0)) {
      throw new IllegalArgumentException(
          "False positive probability must be within range (0.0, 1.0), got " + fpp);
    }
    return create(Version.V2, expectedNumItems, optimalNumOfBits(expectedNumItems, fpp), 0);
  }

  /** Spark's {@code optimalNumOfBits(n, p)}: {@code floor(-n ln p / (ln 2)^2)}. */
  static long optimalNumOfBits(long n, double p) {
    return (long) (-n * Math.log(p) / (Math.log(2) * Math.log(2)));
  }

  /**
   * Spark's {@code optimalNumOfBits(n, maxN, maxBits)}, the sizing of {@code bloom_filter_agg}: the
   * bits for rate {@code min(0.03, n / (maxN / 0.03))}, at most {@code maxBits}.
   */
  static long optimalNumOfBits(long n, long maxN, long maxBits) {
    double p = Math.min((double) n / ((double) maxN / 0.03), 0.03);
    return Math.min(optimalNumOfBits(n, p), maxBits);
  }

  /**
   * An empty filter as Spark's {@code create(version, expectedNumItems, numBits, seed)}: {@code
   * numBits} rounded up to words, {@code k = max(1, round(numBits / n · ln 2))}.
   *
   * @throws IllegalArgumentException if {@code n} or the bits are not positive, or the shape is
   *     over the limits; or a seed other than 0 for V1
   */
  public static SparkBloomFilter create(
      Version version, long expectedNumItems, long numBits, int seed) {
    if (expectedNumItems <= 0) {
      throw new IllegalArgumentException("Expected insertions must be positive");
    }
    if (numBits <= 0 || numBits > (long) MAX_WORDS * Long.SIZE) {
      throw new IllegalArgumentException(
          "number of bits must be in [1, " + (long) MAX_WORDS * Long.SIZE + "], got " + numBits);
    }
    if (version == Version.V1 && seed != 0) {
      throw new IllegalArgumentException("a V1 filter has seed 0, got " + seed);
    }
    int k = Math.max(1, (int) Math.round((double) numBits / expectedNumItems * Math.log(2)));
    if (k > MAX_PROBES) {
      throw new IllegalArgumentException(
          k + " hash functions for " + numBits + " bits, over the limit of " + MAX_PROBES);
    }
    long words = (long) Math.ceil(numBits / 64.0);
    return new SparkBloomFilter(new long[(int) words], k, version, seed, 0);
  }

  /**
   * Reads Spark's {@code writeTo} form (V1 or V2, told by its first four bytes), exactly {@code
   * bytes.length} bytes.
   *
   * @throws SieveFormatException naming the field and its limit on a bad header or length
   */
  public static SparkBloomFilter readFrom(byte[] bytes) {
    return read(ByteBuffer.wrap(bytes), -1);
  }

  /** Reads Spark's form from the remaining bytes of {@code bytes}; the position is unchanged. */
  public static SparkBloomFilter readFrom(ByteBuffer bytes) {
    return read(bytes, -1);
  }

  static SparkBloomFilter read(ByteBuffer bytes, long numKeys) {
    ByteBuffer in = bytes.slice();
    long length = in.remaining();
    if (length < 4) {
      throw new SieveFormatException(
          0, "Spark Bloom filter of " + length + " bytes has no version");
    }
    int v = in.getInt();
    if (v != 1 && v != 2) {
      throw new SieveFormatException(0, "Spark Bloom filter version " + v + " is not 1 or 2");
    }
    Version version = v == 1 ? Version.V1 : Version.V2;
    int header = version == Version.V1 ? 12 : 16;
    if (length < header) {
      throw new SieveFormatException(
          0,
          "Spark Bloom filter V"
              + v
              + " of "
              + length
              + " bytes is shorter than its header of "
              + header);
    }
    int k = in.getInt();
    if (k < 1 || k > MAX_PROBES) {
      throw new SieveFormatException(
          4, "number of hash functions " + k + " outside [1, " + MAX_PROBES + "]");
    }
    int seed = version == Version.V2 ? in.getInt() : 0;
    int wordsAt = in.position();
    int numWords = in.getInt();
    if (numWords < 1 || numWords > MAX_WORDS) {
      throw new SieveFormatException(
          wordsAt, "number of words " + numWords + " outside [1, " + MAX_WORDS + "]");
    }
    long expected = header + (long) numWords * Long.BYTES;
    if (length != expected) {
      throw new SieveFormatException(
          wordsAt,
          "number of words "
              + numWords
              + " needs "
              + expected
              + " bytes, the filter has "
              + length);
    }
    long[] words = readWordsBigEndian(in, numWords);
    long n = numKeys >= 0 ? numKeys : estimateKeys(words, k);
    return new SparkBloomFilter(words, k, version, seed, n);
  }

  @Override
  public byte[] toByteArray() {
    int header = version == Version.V1 ? 12 : 16;
    ByteBuffer out = ByteBuffer.allocate(header + words.length * Long.BYTES);
    out.putInt(version.number()).putInt(numProbes);
    if (version == Version.V2) {
      out.putInt(seed);
    }
    out.putInt(words.length);
    for (long w : words) {
      out.putLong(w);
    }
    return out.array();
  }

  @Override
  boolean probeBytes(byte[] key, int off, int len) {
    int h1 = Murmur3.sparkBytes32(key, off, len, seed);
    int h2 = Murmur3.sparkBytes32(key, off, len, h1);
    return probe(h1, h2);
  }

  @Override
  boolean probeLong(long key) {
    int h1 = Murmur3.sparkLong32(key, seed);
    return probe(h1, Murmur3.sparkLong32(key, h1));
  }

  private boolean probe(int h1, int h2) {
    return version == Version.V1
        ? SparkBloomKernel.mayContainV1(words, numBits, numProbes, h1, h2)
        : SparkBloomKernel.mayContainV2(words, numBits, numProbes, h1, h2);
  }

  @Override
  boolean putBytes(byte[] key, int off, int len) {
    int h1 = Murmur3.sparkBytes32(key, off, len, seed);
    return add(h1, Murmur3.sparkBytes32(key, off, len, h1));
  }

  @Override
  boolean putLongKey(long key) {
    int h1 = Murmur3.sparkLong32(key, seed);
    return add(h1, Murmur3.sparkLong32(key, h1));
  }

  private boolean add(int h1, int h2) {
    return version == Version.V1
        ? SparkBloomKernel.addV1(words, numBits, numProbes, h1, h2)
        : SparkBloomKernel.addV2(words, numBits, numProbes, h1, h2);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SparkBloomFilter s
        && s.version == version
        && s.seed == seed
        && s.numProbes == numProbes
        && s.data.sameWords(data);
  }

  @Override
  public int hashCode() {
    return data.wordsHash() * 31 + numProbes;
  }

  @Override
  public String toString() {
    return "SparkBloomFilter{" + version + ", bits=" + numBits + ", k=" + numProbes + "}";
  }

  /** The container's payload form: Spark's bytes; parameter A the hash functions, B the version. */
  static final class Payload extends PayloadForm<SparkBloomFilter> {
    Payload() {
      super(SparkBloomFilter.class);
    }

    @Override
    public byte[] payload(SparkBloomFilter f) {
      return f.toByteArray();
    }

    @Override
    public int parameterA(SparkBloomFilter f) {
      return f.numProbes;
    }

    @Override
    public int parameterB(SparkBloomFilter f) {
      return f.version.number();
    }

    @Override
    public SparkBloomFilter read(byte[] payload, long numKeys) {
      return SparkBloomFilter.read(ByteBuffer.wrap(payload), numKeys);
    }
  }
}
