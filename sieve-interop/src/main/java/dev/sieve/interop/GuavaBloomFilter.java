package dev.sieve.interop;

import dev.sieve.SieveFormatException;
import dev.sieve.hash.Murmur3;
import dev.sieve.internal.PayloadForm;
import java.nio.ByteBuffer;

/**
 * Guava's {@code com.google.common.hash.BloomFilter}, read and written in the form of its {@code
 * writeTo}/{@code readFrom} and answering every key exactly as Guava does.
 *
 * <h2>The form</h2>
 *
 * Big-endian ({@code DataOutputStream}): the strategy's ordinal (1 byte: 0 {@code
 * MURMUR128_MITZ_32}, 1 {@code MURMUR128_MITZ_64}), the number of hash functions {@code k} (1 byte,
 * unsigned, 1 to 255), the number of 64-bit words (4 bytes), then the words. The filter has {@code
 * m = 64 · words} bits; bit {@code i} is bit {@code i & 63} of word {@code i >>> 6}. No key count,
 * no funnel, no checksum.
 *
 * <h2>Keys</h2>
 *
 * Guava hashes the bytes a {@code Funnel} writes, with MurmurHash3 x64_128, seed 0 ({@link
 * Murmur3#hash128}); the probes are {@link GuavaBloomKernel}'s. Here the key is those bytes: {@code
 * Funnels.byteArrayFunnel()} writes the array itself ({@link #mayContain(byte[])}); {@code
 * Funnels.longFunnel()} the eight little-endian bytes of {@code putLong} ({@link
 * #mayContain(long)}); {@code Funnels.integerFunnel()} four little-endian bytes ({@link
 * #mayContainInt}); {@code Funnels.stringFunnel(UTF_8)} the UTF-8 bytes ({@link
 * #mayContain(CharSequence)}); {@code Funnels.unencodedCharsFunnel()} each {@code char} as two
 * little-endian bytes (UTF-16LE: pass {@code s.getBytes(UTF_16LE)}). A custom funnel's key is the
 * concatenation of what it puts, numbers little-endian.
 *
 * <h2>Sizing</h2>
 *
 * As Guava's {@code create(funnel, n, p)}: {@code m = floor(-n ln p / (ln 2)^2)} rounded up to
 * whole words and {@code k = max(1, round(-ln p / ln 2))}; {@link #create(long, double, Strategy)}.
 * Guava answers with {@code MURMUR128_MITZ_64} unless a filter read says otherwise.
 *
 * <h2>Limits</h2>
 *
 * At most {@link #MAX_WORDS} words (one Java array); {@code k} 1 to 255. Guava's own {@code
 * readFrom} allocates {@code dataLength} words before reading them (an {@code OutOfMemoryError} on
 * a crafted header, oss-fuzz 15484); {@link #readFrom(byte[])} checks the length against the bytes
 * present first.
 */
public final class GuavaBloomFilter extends ForeignBloomFilter {

  /** The most words a filter holds. */
  public static final int MAX_WORDS = Integer.MAX_VALUE - 8;

  /** The most hash functions (one unsigned byte). */
  public static final int MAX_PROBES = 255;

  /** The length of the header before the words. */
  static final int HEADER_BYTES = 6;

  /** Guava's two hashing strategies, by their ordinal in its {@code BloomFilterStrategies}. */
  public enum Strategy {
    /** Ordinal 0: the low 64 bits of the hash, split into two 32-bit halves. */
    MURMUR128_MITZ_32(0),
    /** Ordinal 1: both halves of the 128-bit hash, 64-bit arithmetic (Guava's default). */
    MURMUR128_MITZ_64(1);

    private final int code;

    Strategy(int code) {
      this.code = code;
    }

    /** {@return the strategy's ordinal in Guava's enum, its first byte in the form} */
    public int code() {
      return code;
    }
  }

  private final Strategy strategy;

  GuavaBloomFilter(long[] words, int numProbes, Strategy strategy, long numKeys) {
    super(words, numProbes, numKeys);
    this.strategy = strategy;
  }

  /** {@return the hashing strategy} */
  public Strategy strategy() {
    return strategy;
  }

  /**
   * An empty filter sized as Guava's {@code BloomFilter.create(funnel, expectedInsertions, fpp)}
   * with the given strategy (Guava's public {@code create} uses {@code MURMUR128_MITZ_64}).
   *
   * @param expectedInsertions the expected key count, at least 0 (0 sizes for 1, as Guava)
   * @param fpp the false-positive rate, in (0, 1)
   * @param strategy the strategy
   * @return the filter
   * @throws IllegalArgumentException for parameters Guava refuses or a size over {@link #MAX_WORDS}
   *     words
   */
  public static GuavaBloomFilter create(long expectedInsertions, double fpp, Strategy strategy) {
    if (expectedInsertions < 0) {
      throw new IllegalArgumentException(
          "expected insertions must be >= 0, got " + expectedInsertions);
    }
    if (!(fpp > 0.0 && fpp < 1.0)) {
      throw new IllegalArgumentException("fpp must be in (0, 1), got " + fpp);
    }
    long n = expectedInsertions == 0 ? 1 : expectedInsertions;
    double ln2 = Math.log(2);
    long bits = (long) (-n * Math.log(fpp) / (ln2 * ln2));
    int k = Math.max(1, (int) Math.round(-Math.log(fpp) / ln2));
    return withShape(bits, k, strategy);
  }

  /** {@return an empty filter for Guava's default strategy, {@code MURMUR128_MITZ_64}} */
  public static GuavaBloomFilter create(long expectedInsertions, double fpp) {
    return create(expectedInsertions, fpp, Strategy.MURMUR128_MITZ_64);
  }

  /**
   * An empty filter of {@code numBits} bits rounded up to whole words, with {@code numProbes} hash
   * functions.
   *
   * @throws IllegalArgumentException if the bits are not in [1, 64 · {@link #MAX_WORDS}] or the
   *     probes not in [1, 255]
   */
  public static GuavaBloomFilter withShape(long numBits, int numProbes, Strategy strategy) {
    if (numBits < 1 || numBits > (long) MAX_WORDS * Long.SIZE) {
      throw new IllegalArgumentException(
          "number of bits must be in [1, " + (long) MAX_WORDS * Long.SIZE + "], got " + numBits);
    }
    if (numProbes < 1 || numProbes > MAX_PROBES) {
      throw new IllegalArgumentException(
          "number of hash functions must be in [1, " + MAX_PROBES + "], got " + numProbes);
    }
    if (strategy == null) {
      throw new IllegalArgumentException("strategy is null");
    }
    return new GuavaBloomFilter(new long[(int) ((numBits + 63) >>> 6)], numProbes, strategy, 0);
  }

  /**
   * Reads Guava's {@code writeTo} form, exactly {@code bytes.length} bytes.
   *
   * @param bytes the form
   * @return the filter, its key count estimated from its bits
   * @throws SieveFormatException naming the field and its limit on a bad header or a length that
   *     does not match it
   */
  public static GuavaBloomFilter readFrom(byte[] bytes) {
    return read(ByteBuffer.wrap(bytes), -1);
  }

  /**
   * Reads Guava's form from the remaining bytes of {@code bytes} (all of them: trailing bytes are
   * an error); the position is not changed.
   *
   * @param bytes the form
   * @return the filter
   * @throws SieveFormatException as {@link #readFrom(byte[])}
   */
  public static GuavaBloomFilter readFrom(ByteBuffer bytes) {
    return read(bytes, -1);
  }

  /** Reads the form; {@code numKeys < 0} estimates the key count from the bits. */
  static GuavaBloomFilter read(ByteBuffer bytes, long numKeys) {
    ByteBuffer in = bytes.slice(); // big-endian
    long length = in.remaining();
    if (length < HEADER_BYTES) {
      throw new SieveFormatException(
          0, "Guava Bloom filter of " + length + " bytes is shorter than its 6-byte header");
    }
    int ordinal = in.get();
    if (ordinal != 0 && ordinal != 1) {
      throw new SieveFormatException(
          0, "strategy ordinal " + ordinal + " outside [0, 1] (MURMUR128_MITZ_32, _64)");
    }
    int k = in.get() & 0xff;
    if (k < 1) {
      throw new SieveFormatException(1, "number of hash functions 0 outside [1, 255]");
    }
    int dataLength = in.getInt();
    if (dataLength < 1 || dataLength > MAX_WORDS) {
      throw new SieveFormatException(
          2, "data length " + dataLength + " words outside [1, " + MAX_WORDS + "]");
    }
    long expected = HEADER_BYTES + (long) dataLength * Long.BYTES;
    if (length != expected) {
      throw new SieveFormatException(
          2,
          "data length "
              + dataLength
              + " words needs "
              + expected
              + " bytes, the filter has "
              + length);
    }
    long[] words = readWordsBigEndian(in, dataLength);
    long n = numKeys >= 0 ? numKeys : estimateKeys(words, k);
    return new GuavaBloomFilter(
        words, k, ordinal == 0 ? Strategy.MURMUR128_MITZ_32 : Strategy.MURMUR128_MITZ_64, n);
  }

  @Override
  public byte[] toByteArray() {
    ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + words.length * Long.BYTES);
    out.put((byte) strategy.code()).put((byte) numProbes).putInt(words.length);
    for (long w : words) {
      out.putLong(w);
    }
    return out.array();
  }

  @Override
  boolean probeBytes(byte[] key, int off, int len) {
    long[] h = new long[2];
    Murmur3.hash128(key, off, len, 0, h);
    return strategy == Strategy.MURMUR128_MITZ_32
        ? GuavaBloomKernel.mayContain32(words, numBits, numProbes, h[0])
        : GuavaBloomKernel.mayContain64(words, numBits, numProbes, h[0], h[1]);
  }

  @Override
  boolean putBytes(byte[] key, int off, int len) {
    long[] h = new long[2];
    Murmur3.hash128(key, off, len, 0, h);
    return strategy == Strategy.MURMUR128_MITZ_32
        ? GuavaBloomKernel.add32(words, numBits, numProbes, h[0])
        : GuavaBloomKernel.add64(words, numBits, numProbes, h[0], h[1]);
  }

  /** Guava's {@code Funnels.longFunnel()}: the eight little-endian bytes. */
  @Override
  boolean probeLong(long key) {
    byte[] b = littleEndian(key, Long.BYTES);
    return probeBytes(b, 0, b.length);
  }

  @Override
  boolean putLongKey(long key) {
    byte[] b = littleEndian(key, Long.BYTES);
    return putBytes(b, 0, b.length);
  }

  /** Guava's {@code Funnels.integerFunnel()}: the four little-endian bytes. */
  @Override
  public boolean mayContainInt(int key) {
    byte[] b = littleEndian(key, Integer.BYTES);
    return probeBytes(b, 0, b.length);
  }

  static byte[] littleEndian(long v, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GuavaBloomFilter g
        && g.strategy == strategy
        && g.numProbes == numProbes
        && g.data.sameWords(data);
  }

  @Override
  public int hashCode() {
    return data.wordsHash() * 31 + numProbes;
  }

  @Override
  public String toString() {
    return "GuavaBloomFilter{" + strategy + ", bits=" + numBits + ", k=" + numProbes + "}";
  }

  /**
   * The container's payload form: Guava's own bytes; parameter A the hash functions, B the
   * strategy's ordinal.
   */
  static final class Payload extends PayloadForm<GuavaBloomFilter> {
    Payload() {
      super(GuavaBloomFilter.class);
    }

    @Override
    public byte[] payload(GuavaBloomFilter f) {
      return f.toByteArray();
    }

    @Override
    public int parameterA(GuavaBloomFilter f) {
      return f.numProbes;
    }

    @Override
    public int parameterB(GuavaBloomFilter f) {
      return f.strategy.code();
    }

    @Override
    public GuavaBloomFilter read(byte[] payload, long numKeys) {
      return GuavaBloomFilter.read(ByteBuffer.wrap(payload), numKeys);
    }
  }
}
