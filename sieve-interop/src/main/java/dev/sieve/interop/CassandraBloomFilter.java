package dev.sieve.interop;

import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;

/**
 * Apache Cassandra's SSTable Bloom filter, the {@code *-Filter.db} component, read and written in
 * Cassandra's form and answering every partition key exactly as Cassandra's {@code BloomFilter}
 * does.
 *
 * <h2>The form</h2>
 *
 * {@code BloomFilterSerializer}: the number of hash functions {@code k} (4-byte big-endian {@code
 * int}), then {@code OffHeapBitSet.serialize}: the number of 64-bit words (4-byte big-endian), then
 * the bits. The filter has {@code m = 64 · words} bits. Two layouts of the bits:
 *
 * <ul>
 *   <li>{@link Layout#CURRENT} (SSTable versions {@code na} and later, Cassandra 4.0, 4.1, 5.0):
 *       the bit set's raw bytes, byte {@code i} holding bits {@code 8i..8i+7}, lowest bit first.
 *   <li>{@link Layout#LEGACY} (versions before {@code na}, Cassandra 3.x): each group of 8 bytes
 *       written as a big-endian {@code long} of the little-endian word, i.e. every 8 bytes
 *       reversed. The bytes do not say which layout they are in: {@link #readFrom(byte[], Layout)}
 *       is told.
 * </ul>
 *
 * No key count, no rate, no checksum, no magic ({@code CassandraBloomForm} reads and writes it).
 *
 * <h2>Keys</h2>
 *
 * Cassandra hashes the partition key's serialized bytes (the {@code ByteBuffer} of the key's CQL
 * type: UTF-8 for {@code text}, 8 bytes big-endian for {@code bigint}, 4 for {@code int}, the
 * composite encoding for a compound key) with its MurmurHash3 x64_128 variant (seed 0, tail bytes
 * sign-extended) and probes {@code |(h1 + i · h0) mod m|}; see {@link CassandraBloomKernel}. So
 * {@link #mayContain(byte[])} takes those bytes, {@link #mayContain(long)} a {@code bigint} key
 * (big-endian), {@link #mayContainInt} an {@code int} key, {@link #mayContain(CharSequence)} a
 * {@code text} key.
 *
 * <h2>Sizing</h2>
 *
 * As Cassandra's {@code FilterFactory.getFilter(numElements, fpChance)} with {@code
 * BloomCalculations}: from a table of false-positive rates for 2 to 20 bits per key and 1 to 14
 * hash functions (computed for the textbook Bloom filter), the fewest bits per key {@code b} whose
 * best {@code k} meets the rate, then the fewest {@code k} at that {@code b} that still meets it;
 * {@code m = n · b + 20} bits rounded up to whole words. Rates of 0.393 and above give Cassandra's
 * own odd answer {@code k = 2, b = 1}; rates below the table's smallest entry (6.71e-5 at 20 bits
 * per key) are refused, as Cassandra refuses them. See {@link #create(long, double)}.
 *
 * <h2>Verification</h2>
 *
 * Cassandra's own classes ({@code cassandra-all}) are not a test dependency: the artifact brings
 * about eighty dependencies and its off-heap bit set needs the server's memory allocator. Instead
 * the tests read {@code Filter.db} files that Cassandra 3.11, 4.1 and 5.0 wrote themselves ({@code
 * scripts/cassandra-golden/generate.sh}), with Cassandra's answers for absent keys, and check this
 * class against a second, bit-by-bit implementation and the reference MurmurHash3.
 *
 * <h2>Limits</h2>
 *
 * {@code k} in [1, {@link #MAX_PROBES}]; the word count in [1, {@link #MAX_WORDS}] and checked
 * against the bytes present before anything is allocated. Cassandra itself reads the word count and
 * allocates {@code 8 · count} bytes of native memory without a check.
 */
public final class CassandraBloomFilter extends ForeignBloomFilter {

  /** The most words a filter holds (one Java array). */
  public static final int MAX_WORDS = Integer.MAX_VALUE - 8;

  /**
   * The most hash functions read. Cassandra's sizing gives at most 14; the form allows any {@code
   * int}, and a bound keeps a crafted header from asking for billions of probes per key.
   */
  public static final int MAX_PROBES = 255;

  /** The bits after the one-row-per-bits-per-key table's last row: {@code BITSET_EXCESS}. */
  static final int EXCESS_BITS = 20;

  /**
   * Cassandra's {@code BloomCalculations} table: row {@code b} (bits per key, 0 to 20), column
   * {@code k} (hash functions, 0 first) the false-positive rate. Values as Cassandra's source
   * prints them; rows 0 and 1 are placeholders.
   */
  private static final double[][] RATES = {
    {1.0},
    {1.0, 1.0},
    {1.0, 0.393, 0.400},
    {1.0, 0.283, 0.237, 0.253},
    {1.0, 0.221, 0.155, 0.147, 0.160},
    {1.0, 0.181, 0.109, 0.092, 0.092, 0.101},
    {1.0, 0.154, 0.0804, 0.0609, 0.0561, 0.0578, 0.0638},
    {1.0, 0.133, 0.0618, 0.0423, 0.0359, 0.0347, 0.0364},
    {1.0, 0.118, 0.0489, 0.0306, 0.024, 0.0217, 0.0216, 0.0229},
    {1.0, 0.105, 0.0397, 0.0228, 0.0166, 0.0141, 0.0133, 0.0135, 0.0145},
    {1.0, 0.0952, 0.0329, 0.0174, 0.0118, 0.00943, 0.00844, 0.00819, 0.00846},
    {1.0, 0.0869, 0.0276, 0.0136, 0.00864, 0.0065, 0.00552, 0.00513, 0.00509},
    {1.0, 0.08, 0.0236, 0.0108, 0.00646, 0.00459, 0.00371, 0.00329, 0.00314},
    {1.0, 0.074, 0.0203, 0.00875, 0.00492, 0.00332, 0.00255, 0.00217, 0.00199, 0.00194},
    {1.0, 0.0689, 0.0177, 0.00718, 0.00381, 0.00244, 0.00179, 0.00146, 0.00129, 0.00121, 0.0012},
    {1.0, 0.0645, 0.0156, 0.00596, 0.003, 0.00183, 0.00128, 0.001, 0.000852, 0.000775, 0.000744},
    {
      1.0, 0.0606, 0.0138, 0.005, 0.00239, 0.00139, 0.000935, 0.000702, 0.000574, 0.000505, 0.00047,
      0.000459
    },
    {
      1.0, 0.0571, 0.0123, 0.00423, 0.00193, 0.00107, 0.000692, 0.000499, 0.000394, 0.000335,
      0.000302, 0.000287, 0.000284
    },
    {
      1.0, 0.054, 0.0111, 0.00362, 0.00158, 0.000839, 0.000519, 0.00036, 0.000275, 0.000226,
      0.000198, 0.000183, 0.000176
    },
    {
      1.0, 0.0513, 0.00998, 0.00312, 0.0013, 0.000663, 0.000394, 0.000264, 0.000194, 0.000155,
      0.000132, 0.000118, 0.000111, 0.000109
    },
    {
      1.0, 0.0488, 0.00906, 0.0027, 0.00108, 0.00053, 0.000303, 0.000196, 0.00014, 0.000108,
      8.89e-05, 7.77e-05, 7.12e-05, 6.79e-05, 6.71e-05
    }
  };

  /** Per row, the {@code k} with the smallest rate (the first of equals), at least 1. */
  private static final int[] BEST_K = new int[RATES.length];

  static {
    for (int b = 0; b < RATES.length; b++) {
      double min = Double.MAX_VALUE;
      for (int k = 0; k < RATES[b].length; k++) {
        if (RATES[b][k] < min) {
          min = RATES[b][k];
          BEST_K[b] = Math.max(1, k);
        }
      }
    }
  }

  /** The two layouts of the bits in {@code Filter.db}. */
  public enum Layout {
    /** Cassandra 4.0 and later (SSTable version {@code na} on): the bit set's bytes in order. */
    CURRENT(0),
    /** Cassandra 3.x (before {@code na}): 8-byte groups as big-endian {@code long}s. */
    LEGACY(1);

    private final int code;

    Layout(int code) {
      this.code = code;
    }

    /** {@return the layout's code (the container's parameter B)} */
    public int code() {
      return code;
    }
  }

  private final Layout layout;

  CassandraBloomFilter(long[] words, int numProbes, Layout layout, long numKeys) {
    super(words, numProbes, numKeys);
    this.layout = layout;
  }

  /** {@return the layout {@link #toByteArray()} writes} */
  public Layout layout() {
    return layout;
  }

  /**
   * The {@code (k, bits per key)} Cassandra's {@code BloomCalculations.computeBloomSpec} picks for
   * a rate, with at most {@code maxBitsPerKey} bits per key.
   *
   * @return {@code {k, bitsPerKey}}
   * @throws IllegalArgumentException for a rate the table cannot meet
   */
  static int[] spec(int maxBitsPerKey, double fpChance) {
    int maxK = RATES[maxBitsPerKey].length - 1;
    if (fpChance >= RATES[2][1]) {
      return new int[] {2, BEST_K[2]}; // Cassandra's trivial case: k = 2 with 1 bit per key
    }
    if (fpChance < RATES[maxBitsPerKey][maxK]) {
      throw new IllegalArgumentException(
          "false-positive chance "
              + fpChance
              + " is below "
              + RATES[maxBitsPerKey][maxK]
              + ", the least Cassandra's table offers with "
              + maxBitsPerKey
              + " bits per key");
    }
    int b = 2;
    int k = BEST_K[2];
    while (RATES[b][k] > fpChance) {
      b++;
      k = BEST_K[b];
    }
    while (RATES[b][k - 1] <= fpChance) {
      k--;
    }
    return new int[] {k, b};
  }

  /**
   * The {@code bloom_filter_fp_chance} values for which Cassandra's sizing ({@link #create(long,
   * double)}, {@code BloomCalculations.computeBloomSpec}) picks {@code numProbes} hash functions at
   * {@code bitsPerKey} bits per key: the half-open range {@code [low, high)}, or {@code null} when
   * no rate gives that pair. {@code low} is the table's entry for the pair, the rate the filter was
   * built to meet at its design key count; {@code high} the least rate that picks fewer bits or
   * fewer hash functions. The pair {@code (k = 2, 1 bit per key)}, Cassandra's answer for rates of
   * 0.393 and above, gives {@code [0.393, 1)}.
   *
   * <p>It is how {@code inspect} tells the rate a {@code Filter.db} was sized for from its {@code
   * k} and its bits per key: Cassandra's table is not {@code 2^-k} (a 1% filter has {@code k = 5}
   * at 10 bits per key, where {@code 2^-5} would read 3%).
   *
   * @param bitsPerKey bits per key, 1 to 20
   * @param numProbes hash functions
   * @return {@code {low, high}}, or {@code null}
   */
  public static double[] fpChanceRange(int bitsPerKey, int numProbes) {
    if (bitsPerKey == 1 && numProbes == 2) {
      return new double[] {RATES[2][1], 1.0};
    }
    if (bitsPerKey < 2 || bitsPerKey >= RATES.length) {
      return null;
    }
    if (numProbes < 1 || numProbes > BEST_K[bitsPerKey]) {
      return null; // the sizing never goes past the row's best k
    }
    double low = RATES[bitsPerKey][numProbes];
    // fewer bits win while the previous row's best meets the rate; fewer probes while k-1 meets it
    double fewerBits =
        bitsPerKey == 2 ? RATES[2][1] : RATES[bitsPerKey - 1][BEST_K[bitsPerKey - 1]];
    double high = Math.min(fewerBits, RATES[bitsPerKey][numProbes - 1]);
    return low < high ? new double[] {low, high} : null;
  }

  /**
   * An empty filter sized as Cassandra's {@code FilterFactory.getFilter(numElements,
   * maxFalsePosProbability)} (the {@code Filter.db} of an SSTable with {@code numElements}
   * partitions and the table's {@code bloom_filter_fp_chance}), in the current layout.
   *
   * @param numElements the expected partition count, at least 0
   * @param fpChance the false-positive chance, in (0, 1) (Cassandra's 1.0 means no filter at all)
   * @return the filter
   * @throws IllegalArgumentException for a negative count, a rate outside (0, 1) or below
   *     Cassandra's table, or a size over {@link #MAX_WORDS} words
   */
  public static CassandraBloomFilter create(long numElements, double fpChance) {
    if (numElements < 0) {
      throw new IllegalArgumentException("number of elements must be >= 0, got " + numElements);
    }
    if (!(fpChance > 0.0 && fpChance < 1.0)) {
      throw new IllegalArgumentException(
          "false-positive chance must be in (0, 1), got "
              + fpChance
              + " (Cassandra's 1.0 means no filter)");
    }
    long n = Math.max(1, numElements);
    double perKey = (Long.MAX_VALUE - EXCESS_BITS) / (double) n;
    int maxBitsPerKey = (int) Math.min(RATES.length - 1, perKey); // perKey >= 1 for any long n
    int[] spec = spec(maxBitsPerKey, fpChance);
    long bitsPerKey = spec[1];
    if (numElements > ((long) MAX_WORDS * Long.SIZE - EXCESS_BITS) / bitsPerKey) {
      throw new IllegalArgumentException(
          numElements
              + " elements at "
              + bitsPerKey
              + " bits each need more than "
              + MAX_WORDS
              + " words");
    }
    return withShape(numElements * bitsPerKey + EXCESS_BITS, spec[0], Layout.CURRENT);
  }

  /**
   * An empty filter of {@code numBits} bits rounded up to whole words, with {@code numProbes} hash
   * functions.
   *
   * @throws IllegalArgumentException if the bits are not in [1, 64 · {@link #MAX_WORDS}] or the
   *     probes not in [1, {@link #MAX_PROBES}]
   */
  public static CassandraBloomFilter withShape(long numBits, int numProbes, Layout layout) {
    if (numBits < 1 || numBits > (long) MAX_WORDS * Long.SIZE) {
      throw new IllegalArgumentException(
          "number of bits must be in [1, " + (long) MAX_WORDS * Long.SIZE + "], got " + numBits);
    }
    if (numProbes < 1 || numProbes > MAX_PROBES) {
      throw new IllegalArgumentException(
          "number of hash functions must be in [1, " + MAX_PROBES + "], got " + numProbes);
    }
    if (layout == null) {
      throw new IllegalArgumentException("layout is null");
    }
    return new CassandraBloomFilter(new long[(int) ((numBits + 63) >>> 6)], numProbes, layout, 0);
  }

  /**
   * Reads a {@code Filter.db} in the current layout (Cassandra 4.0 and later), exactly {@code
   * bytes.length} bytes.
   *
   * @param bytes the form
   * @return the filter, its key count estimated from its bits
   * @throws SieveFormatException naming the field and its limit on a bad header or a length that
   *     does not match it
   */
  public static CassandraBloomFilter readFrom(byte[] bytes) {
    return CassandraBloomForm.read(ByteBuffer.wrap(bytes), Layout.CURRENT, -1);
  }

  /**
   * Reads a {@code Filter.db} in the given layout, exactly {@code bytes.length} bytes.
   *
   * @param bytes the form
   * @param layout the layout of the bits
   * @return the filter
   * @throws SieveFormatException as {@link #readFrom(byte[])}
   */
  public static CassandraBloomFilter readFrom(byte[] bytes, Layout layout) {
    if (layout == null) {
      throw new IllegalArgumentException("layout is null");
    }
    return CassandraBloomForm.read(ByteBuffer.wrap(bytes), layout, -1);
  }

  @Override
  public byte[] toByteArray() {
    return toByteArray(layout);
  }

  /**
   * {@return {@code Filter.db}'s bytes in the given layout}
   *
   * @param layout the layout of the bits
   */
  public byte[] toByteArray(Layout layout) {
    return CassandraBloomForm.toBytes(words, numProbes, layout);
  }

  @Override
  boolean probeBytes(byte[] key, int off, int len) {
    long[] h = new long[2];
    CassandraBloomKernel.hash(key, off, len, h);
    return CassandraBloomKernel.mayContain(words, numBits, numProbes, h[0], h[1]);
  }

  @Override
  boolean putBytes(byte[] key, int off, int len) {
    long[] h = new long[2];
    CassandraBloomKernel.hash(key, off, len, h);
    return CassandraBloomKernel.add(words, numBits, numProbes, h[0], h[1]);
  }

  /** A {@code bigint} partition key: its eight big-endian bytes. */
  @Override
  boolean probeLong(long key) {
    byte[] b = ByteBuffer.allocate(Long.BYTES).putLong(key).array();
    return probeBytes(b, 0, b.length);
  }

  @Override
  boolean putLongKey(long key) {
    byte[] b = ByteBuffer.allocate(Long.BYTES).putLong(key).array();
    return putBytes(b, 0, b.length);
  }

  /** An {@code int} partition key: its four big-endian bytes. */
  @Override
  public boolean mayContainInt(int key) {
    byte[] b = ByteBuffer.allocate(Integer.BYTES).putInt(key).array();
    return probeBytes(b, 0, b.length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CassandraBloomFilter c
        && c.numProbes == numProbes
        && c.data.sameWords(data);
  }

  @Override
  public int hashCode() {
    return data.wordsHash() * 31 + numProbes;
  }

  @Override
  public String toString() {
    return "CassandraBloomFilter{" + layout + ", bits=" + numBits + ", k=" + numProbes + "}";
  }
}
