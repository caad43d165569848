package dev.sieve.interop;

import dev.sieve.SieveFormatException;
import dev.sieve.hash.XxHash64;
import dev.sieve.internal.PayloadForm;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Apache DataSketches' {@code org.apache.datasketches.filters.bloomfilter.BloomFilter}, read and
 * written in its serialized form ({@code toByteArray}/{@code heapify}), answering every key as
 * DataSketches does.
 *
 * <h2>The form</h2>
 *
 * Little-endian: preamble longs (1 byte: 3 when empty, else 4), serial version 1, family id 21,
 * flags (bit 2: empty), the number of hash functions (2 bytes), 2 zero bytes, the seed (8 bytes),
 * the number of 64-bit words (4 bytes), 4 zero bytes; unless empty, the number of bits set (8
 * bytes; -1 when DataSketches did not keep count), then the words. {@code m = 64 · words}.
 *
 * <h2>Keys</h2>
 *
 * {@code h0 = XXH64(key, seed)}, {@code h1 = XXH64(key, h0)} ({@link XxHash64}: a {@code long} key
 * is its eight little-endian bytes, {@code update(long)}; a byte key the bytes; a string its UTF-8
 * bytes, the empty string never added and never present); probe {@code i = 1..k} is bit {@code ((h0
 * + i · h1) >>> 1) mod m}.
 *
 * <h2>Sizing</h2>
 *
 * As {@code BloomFilterBuilder.createByAccuracy(n, p, seed)}: {@code m = ceil(-n ln p / (ln 2)^2)}
 * rounded up to words, {@code k = max(1, ceil(m / n · ln 2))}.
 */
public final class DataSketchesBloomFilter extends ForeignBloomFilter {

  /**
   * The most words read: 2^25, 2^31 bits. DataSketches' heap bit array indexes words by the bit
   * index cast to {@code int}, so past 2^31 bits it does not address the bits its probes name; no
   * filter beyond that answers the same in both.
   */
  public static final int MAX_WORDS = 1 << 25;

  /** The family id of DataSketches' Bloom filter. */
  static final int FAMILY = 21;

  private final long seed;

  /**
   * The count of bits set as DataSketches keeps it: -1 ("dirty") once a bit was set after the last
   * count (every update sets it so), else the count read or started with. Written as is, as
   * DataSketches writes it, except a recorded 0 over words that hold bits: the writer chooses the
   * empty form (no words) by a count of 0, so that count is replaced by the words' own count rather
   * than drop every key.
   */
  private long recordedBitsSet;

  DataSketchesBloomFilter(
      long[] words, int numProbes, long seed, long recordedBitsSet, long numKeys) {
    super(words, numProbes, numKeys);
    this.seed = seed;
    this.recordedBitsSet = recordedBitsSet;
  }

  /** {@return the seed} */
  public long seed() {
    return seed;
  }

  /**
   * An empty filter sized as DataSketches' {@code BloomFilterBuilder.createByAccuracy(n, fpp,
   * seed)}.
   *
   * @throws IllegalArgumentException for parameters DataSketches refuses
   */
  public static DataSketchesBloomFilter createByAccuracy(
      long maxDistinctItems, double fpp, long seed) {
    if (maxDistinctItems < 1 || !(fpp > 0.0 && fpp < 1.0)) {
      throw new IllegalArgumentException(
          "need maxDistinctItems >= 1 and fpp in (0, 1), got " + maxDistinctItems + ", " + fpp);
    }
    double ln2 = Math.log(2);
    long bits = (long) Math.ceil(-maxDistinctItems * Math.log(fpp) / (ln2 * ln2));
    int k = Math.max(1, (int) Math.ceil((double) bits / maxDistinctItems * ln2));
    long words = (long) Math.ceil(bits / 64.0);
    if (words > MAX_WORDS || k > Short.MAX_VALUE) {
      throw new IllegalArgumentException(bits + " bits and " + k + " hash functions: too large");
    }
    return new DataSketchesBloomFilter(new long[(int) words], k, seed, 0, 0);
  }

  /**
   * Reads DataSketches' serialized form, exactly {@code bytes.length} bytes.
   *
   * @throws SieveFormatException naming the field and its limit
   */
  public static DataSketchesBloomFilter readFrom(byte[] bytes) {
    return read(ByteBuffer.wrap(bytes), -1);
  }

  static DataSketchesBloomFilter read(ByteBuffer bytes, long numKeys) {
    ByteBuffer in = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
    long length = in.remaining();
    if (length < 24) {
      throw new SieveFormatException(
          0,
          "DataSketches Bloom filter of " + length + " bytes is shorter than its 24-byte header");
    }
    int preLongs = in.get(0);
    if (preLongs < 3 || preLongs > 4) {
      throw new SieveFormatException(0, "preamble longs " + preLongs + " outside [3, 4]");
    }
    if (in.get(1) != 1) {
      throw new SieveFormatException(1, "serial version " + in.get(1) + " is not 1");
    }
    if (in.get(2) != FAMILY) {
      throw new SieveFormatException(2, "family id " + in.get(2) + " is not 21 (Bloom filter)");
    }
    boolean empty = (in.get(3) & 4) != 0;
    int k = in.getShort(4);
    if (k < 1) {
      throw new SieveFormatException(4, "number of hash functions " + k + " outside [1, 32767]");
    }
    long seed = in.getLong(8);
    int numWords = in.getInt(16);
    if (numWords < 1 || numWords > MAX_WORDS) {
      throw new SieveFormatException(
          16, "number of words " + numWords + " outside [1, " + MAX_WORDS + "]");
    }
    long expected = empty ? 24 : 32 + (long) numWords * Long.BYTES;
    if (length != expected) {
      throw new SieveFormatException(
          16,
          "number of words "
              + numWords
              + (empty ? " (empty)" : "")
              + " needs "
              + expected
              + " bytes, the filter has "
              + length);
    }
    long[] words = new long[numWords];
    long recorded = 0;
    if (!empty) {
      recorded = in.getLong(24);
      if (recorded < -1 || recorded > (long) numWords * Long.SIZE) {
        throw new SieveFormatException(
            24, "bits set " + recorded + " outside [-1, " + (long) numWords * Long.SIZE + "]");
      }
      in.position(32);
      for (int i = 0; i < numWords; i++) {
        words[i] = in.getLong();
      }
    }
    long n = numKeys >= 0 ? numKeys : estimateKeys(words, k);
    return new DataSketchesBloomFilter(words, k, seed, recorded, n);
  }

  @Override
  public byte[] toByteArray() {
    long count = recordedBitsSet == 0 ? bitsSet() : recordedBitsSet;
    boolean empty = count == 0;
    ByteBuffer out =
        ByteBuffer.allocate(empty ? 24 : 32 + words.length * Long.BYTES)
            .order(ByteOrder.LITTLE_ENDIAN);
    out.put((byte) (empty ? 3 : 4)).put((byte) 1).put((byte) FAMILY).put((byte) (empty ? 4 : 0));
    out.putShort((short) numProbes).putShort((short) 0).putLong(seed);
    out.putInt(words.length).putInt(0);
    if (!empty) {
      out.putLong(count);
      for (long w : words) {
        out.putLong(w);
      }
    }
    return out.array();
  }

  private boolean probe(long h0, long h1) {
    for (int i = 1; i <= numProbes; i++) {
      long bit = ((h0 + i * h1) >>> 1) % numBits;
      if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  private boolean add(long h0, long h1) {
    recordedBitsSet = -1; // DataSketches' setBit marks the count dirty
    boolean changed = false;
    for (int i = 1; i <= numProbes; i++) {
      changed |= GuavaBloomKernel.set(words, ((h0 + i * h1) >>> 1) % numBits);
    }
    return changed;
  }

  @Override
  boolean probeBytes(byte[] key, int off, int len) {
    long h0 = XxHash64.hash(key, off, len, seed);
    return probe(h0, XxHash64.hash(key, off, len, h0));
  }

  @Override
  boolean probeLong(long key) {
    long h0 = XxHash64.hashLong(key, seed);
    return probe(h0, XxHash64.hashLong(key, h0));
  }

  @Override
  boolean putBytes(byte[] key, int off, int len) {
    long h0 = XxHash64.hash(key, off, len, seed);
    return add(h0, XxHash64.hash(key, off, len, h0));
  }

  @Override
  boolean putLongKey(long key) {
    long h0 = XxHash64.hashLong(key, seed);
    return add(h0, XxHash64.hashLong(key, h0));
  }

  /** DataSketches ignores the empty string: never added. */
  @Override
  public boolean put(CharSequence key) {
    return key.length() > 0 && super.put(key);
  }

  /** {@inheritDoc} The empty string is never present (DataSketches' {@code query("")}). */
  @Override
  boolean probeText(CharSequence key) {
    return key.length() > 0 && super.probeText(key);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DataSketchesBloomFilter d
        && d.seed == seed
        && d.numProbes == numProbes
        && d.data.sameWords(data);
  }

  @Override
  public int hashCode() {
    return data.wordsHash() * 31 + numProbes;
  }

  @Override
  public String toString() {
    return "DataSketchesBloomFilter{bits=" + numBits + ", k=" + numProbes + "}";
  }

  /** The container's payload form: DataSketches' bytes; A the hash functions, B 0. */
  static final class Payload extends PayloadForm<DataSketchesBloomFilter> {
    Payload() {
      super(DataSketchesBloomFilter.class);
    }

    @Override
    public byte[] payload(DataSketchesBloomFilter f) {
      return f.toByteArray();
    }

    @Override
    public int parameterA(DataSketchesBloomFilter f) {
      return f.numProbes;
    }

    @Override
    public int parameterB(DataSketchesBloomFilter f) {
      return 0;
    }

    @Override
    public DataSketchesBloomFilter read(byte[] payload, long numKeys) {
      return DataSketchesBloomFilter.read(ByteBuffer.wrap(payload), numKeys);
    }
  }
}
