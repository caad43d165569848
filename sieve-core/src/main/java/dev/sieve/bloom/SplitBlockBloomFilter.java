package dev.sieve.bloom;

import static dev.sieve.bloom.SplitBlockKernel.blockBase;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.MergeableFilter;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.SieveFormatException;
import dev.sieve.hash.ParquetHash;
import dev.sieve.internal.AtomicBits;
import dev.sieve.internal.BatchScratch;
import dev.sieve.internal.Checks;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.PayloadForms;
import dev.sieve.internal.Schemes;
import dev.sieve.math.BloomMath;
import java.nio.ByteBuffer;

/**
 * Parquet's split-block Bloom filter (SBBF), bit for bit: the column filter that parquet-java,
 * Arrow, Spark and DuckDB write into {@code .parquet} files, with the same bytes as parquet-java's
 * {@code BlockSplitBloomFilter} for the same values and size.
 *
 * <h2>The idea</h2>
 *
 * A blocked Bloom filter (Putze, Sanders, Singler 2007) whose block is 256 bits: eight 32-bit
 * words, and every value sets exactly one bit in each word. The block fits half a cache line and
 * one 256-bit SIMD register, and the eight bit positions come from eight independent multiplies, so
 * a probe is a handful of arithmetic instructions and one memory access.
 *
 * <h2>The layout (apache/parquet-format, BloomFilter.md)</h2>
 *
 * <ul>
 *   <li>The bitset is {@code z} blocks of 32 bytes; word {@code i} of block {@code b} is the
 *       little-endian 32-bit integer at byte {@code 32b + 4i}.
 *   <li>The value's 64-bit hash {@code h} (for Parquet, XXH64 of its plain encoding: {@link
 *       ParquetHash}) picks block {@code ((h >>> 32) · z) >>> 32}: the <em>top</em> 32 bits,
 *       multiply-shift in place of a modulo.
 *   <li>In word {@code i} it sets bit {@code (key · SALT[i]) >>> 27} (32-bit wrap-around), where
 *       {@code key} is the <em>low</em> 32 bits of {@code h} and the salts are eight fixed odd
 *       constants ({@code 0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b,
 *       0x9efc4947, 0x5c6bfb31}). The block and the bits use disjoint halves of the hash.
 *   <li>A value is "maybe present" when all eight bits are set.
 * </ul>
 *
 * In memory the bitset is a {@code long[]} whose little-endian bytes are Parquet's bytes, so words
 * {@code 2j} and {@code 2j + 1} of a block are the low and high halves of its long {@code j}, and a
 * probe is four 64-bit tests. {@link #toParquetBitset()} gives exactly the bytes a {@code .parquet}
 * file stores after its {@code BloomFilterHeader}.
 *
 * <h2>Sizes</h2>
 *
 * Parquet's writers use a power of two from 32 bytes to 128 MiB ({@link #MIN_BYTES}, {@link
 * #MAX_BYTES}); {@link #parquetNumBytes(long, double)} is parquet-java's sizing: {@code m =
 * -8n/ln(1 - p^(1/8))} bits ({@link BloomMath#parquetSplitBlockBits}), rounded as parquet-java
 * rounds it, then clamped to at least 32 bytes, rounded up to a power of two and clamped to at most
 * the maximum (128 MiB, or the {@code maxBytes} given, as parquet-java's writer caps at {@code
 * parquet.bloom.filter.max.bytes}, 1 MiB by default). The multiply-shift block choice is defined
 * for any number of blocks, so the readers (Sieve's and parquet-java's) accept any positive
 * multiple of 32 bytes up to 128 MiB, and {@link #withNumBytes} builds one, for comparisons at an
 * exact bits/key.
 *
 * <h2>Two hashes: Parquet's and Sieve's</h2>
 *
 * Every filter hashes keys by its {@link KeyScheme}. A filter read from Parquet ({@link
 * #fromParquetBitset}, {@link #wrapParquetBitset}) or built with {@code
 * builder().keyScheme(KeyScheme.PARQUET_XXH64)} hashes as Parquet does (XXH64 of the little-endian
 * plain encoding): {@link #mayContain(long)} is an INT64 value, {@link #mayContainInt} an INT32,
 * {@link #mayContainFloat}, {@link #mayContainDouble}, {@link #mayContain(byte[])} a BYTE_ARRAY,
 * {@link #mayContain(CharSequence)} a string, each exactly parquet-java's answer. A filter built
 * with the default scheme hashes with Sieve's {@link dev.sieve.hash.KeyHash} (XXPH3 of the key's
 * big-endian bytes) and is not what a Parquet reader asks; {@link #union} refuses to mix the two.
 * {@link #mayContainHash} and {@link #addHash} take any 64-bit hash. Parquet has no seed, so
 * neither does this filter.
 *
 * <h2>The math and the trade-off</h2>
 *
 * {@link BloomMath#splitBlockFpRate}: values per block are Poisson with mean {@code 256/b}; a block
 * of {@code j} values answers an absent value "maybe" with probability {@code (1 - (31/32)^j)^8}.
 * At 10 bits per value that is 1.26%, against 0.95% for RocksDB's 512-bit FastLocalBloom with 6
 * probes ({@link BlockedBloomFilter}) and 0.85% for an unblocked filter with 8 probes: the smaller
 * block spreads the load more and one bit per word forbids two probes of one value from sharing a
 * word. In exchange the probe needs no loop or data-dependent branch. Parquet's sizing rule ignores
 * the blocking (it is the unblocked rate solved for {@code m}), so a filter of exactly the rule's
 * size misses its target (1.46% for a 1% target); the power-of-two rounding usually restores it.
 *
 * <h2>Concurrency</h2>
 *
 * Adds are lock-free ({@link AtomicBits#orWord}), as in the other mutable Bloom filters; {@link
 * #union} ORs another filter of the same size in.
 *
 * <p>References: apache/parquet-format BloomFilter.md; parquet-java {@code BlockSplitBloomFilter};
 * Putze, Sanders, Singler, "Cache-, Hash- and Space-Efficient Bloom Filters" (WEA 2007).
 */
public final class SplitBlockBloomFilter implements MergeableFilter<SplitBlockBloomFilter> {

  /** Bytes per block: eight 32-bit words. */
  public static final int BLOCK_BYTES = 32;

  /** The smallest bitset Parquet writes: one block. */
  public static final int MIN_BYTES = 32;

  /** The largest bitset Parquet writes or reads: 128 MiB. */
  public static final int MAX_BYTES = 128 << 20;

  /** The most distinct values the sizing accepts: 2^60 (see {@link #parquetOptimalNumOfBits}). */
  public static final long MAX_DISTINCT_VALUES = 1L << 60;

  /** Parquet's default false-positive rate ({@code parquet.bloom.filter.fpp}). */
  public static final double DEFAULT_FP_RATE = 0.01;

  // This class holds the API. The words and the key count are BloomWords'; the probe and add
  // loops over raw storage (and Parquet's salts) are SplitBlockKernel's; the bitset's bytes, its
  // checks and parquet-java's sizing are SplitBlockForm's.

  /** The bitset and the key count, for the cold operations (union, copy, equals, bytes). */
  private final BloomWords data;

  // heap and wrapped storage keep separate probes (one path over a storage interface measured
  // 5-60% slower on heap queries, docs/notes.md): the probes read these raw fields, data's storage
  /** The bitset on the heap; {@code null} when the filter wraps a buffer. */
  private final long[] words;

  /** The bitset read in place from a buffer; {@code null} on the heap. */
  private final LongSegments wrapped;

  private final int numBlocks;
  private final BatchScratch.ChunkProbe chunkProbe = this::probeChunk;

  /** Whether single lookups test all four words without a branch (a filter in cache). */
  private final boolean branchFreeQueries;

  /** How keys become the hashes probed ({@link Filter#keyScheme()}). */
  private final KeyScheme keyScheme;

  SplitBlockBloomFilter(BloomWords data) {
    this(data, KeyScheme.XXPH3);
  }

  SplitBlockBloomFilter(BloomWords data, KeyScheme keyScheme) {
    this.keyScheme = keyScheme;
    this.data = data;
    this.words = data.heapOrNull();
    this.wrapped = data.wrappedOrNull();
    if (VECTOR_PROBE && words != null) {
      VectorGate.SPLIT_BLOCK.start(); // the warm-up of the SIMD path, once per JVM
    }
    this.numBlocks = (int) (data.numWords() / SplitBlockKernel.LONGS_PER_BLOCK);
    this.branchFreeQueries =
        words == null // the wrapped path is always branch-free
            || (long) numBlocks * BLOCK_BYTES <= BlockedBloomKernel.BRANCH_FREE_MAX_BYTES;
  }

  // ---------------------------------------------------------------- creation and sizing

  static {
    PayloadForms.register(new SplitBlockForm.Payload()); // the container's form of type id 9
  }

  /** A builder sizing the filter as parquet-java does (see the class comment). */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * An empty filter of exactly {@code numBytes} bytes: a positive multiple of 32 up to {@link
   * #MAX_BYTES}, not rounded (Parquet's writers use powers of two; see the class comment).
   */
  public static SplitBlockBloomFilter withNumBytes(int numBytes) {
    return SplitBlockForm.withNumBytes(numBytes);
  }

  /**
   * parquet-java's number of bits for {@code distinctValues} at {@code fpRate} ({@code
   * BlockSplitBloomFilter.optimalNumOfBits}): {@link BloomMath#parquetSplitBlockBits} truncated to
   * an int, at most {@code 8 · MAX_BYTES}, then "rounded up to a multiple of 256" with
   * parquet-java's mask {@code ~256} (which clears bit 8 only, so the result is not always a
   * multiple of 256; reproduced as is, since the power-of-two rounding after it decides the size),
   * and at least 256.
   *
   * @throws IllegalArgumentException if {@code distinctValues} is not in [0, 2^60] or {@code
   *     fpRate} is not in (0, 1)
   */
  public static int parquetOptimalNumOfBits(long distinctValues, double fpRate) {
    return SplitBlockForm.optimalNumOfBits(distinctValues, fpRate);
  }

  /**
   * The bitset size parquet-java gives a filter asked for {@code requestedBytes} with the cap
   * {@code maxBytes} ({@code new BlockSplitBloomFilter(requestedBytes, maxBytes)}): at least 32,
   * rounded up to a power of two, then at most {@code maxBytes} (and 128 MiB). A {@code maxBytes}
   * outside (32, 128 MiB) means 128 MiB, as in parquet-java.
   */
  public static int parquetNumBytes(int requestedBytes, int maxBytes) {
    return SplitBlockForm.numBytes(requestedBytes, maxBytes);
  }

  /**
   * The bitset size parquet-java's writer gives a column of {@code distinctValues} distinct values
   * at {@code fpRate} with the cap {@code maxBytes}: {@code parquetNumBytes(optimalNumOfBits / 8,
   * maxBytes)}.
   */
  public static int parquetNumBytes(long distinctValues, double fpRate, int maxBytes) {
    return parquetNumBytes(parquetOptimalNumOfBits(distinctValues, fpRate) / 8, maxBytes);
  }

  /** {@link #parquetNumBytes(long, double, int)} with the format's 128 MiB cap. */
  public static int parquetNumBytes(long distinctValues, double fpRate) {
    return parquetNumBytes(distinctValues, fpRate, MAX_BYTES);
  }

  /**
   * Reads a bitset as Parquet stores it (after the {@code BloomFilterHeader}); the bytes are
   * copied. The filter hashes keys as Parquet does ({@link KeyScheme#PARQUET_XXH64}): {@code
   * mayContain(42L)} is parquet-java's answer for the INT64 value 42. Parquet stores no value
   * count, so the filter starts with {@code numKeys} (0 if unknown); {@link
   * #approximateElementCount()} estimates it from the bits.
   *
   * <p>No integrity check: Parquet stores no checksum for the filter, so a changed byte gives
   * another well-formed filter that can answer "absent" for present values; the Sieve container
   * ({@link dev.sieve.format.SieveFormat}) checksums it.
   *
   * @throws SieveFormatException if the length is not a positive multiple of 32 up to 128 MiB
   * @throws IllegalArgumentException if {@code numKeys} is negative
   */
  public static SplitBlockBloomFilter fromParquetBitset(byte[] bitset, long numKeys) {
    return SplitBlockForm.read(bitset, numKeys).withKeyScheme(KeyScheme.PARQUET_XXH64);
  }

  /** {@link #fromParquetBitset(byte[], long)} with an unknown (0) value count. */
  public static SplitBlockBloomFilter fromParquetBitset(byte[] bitset) {
    return fromParquetBitset(bitset, 0);
  }

  /**
   * Wraps a bitset held in {@code bitset}'s remaining bytes (heap, direct or memory-mapped)
   * <em>without copying</em>: queries read the buffer in place, which must not change while the
   * filter is in use. The wrapped filter is read-only ({@link #addHash} throws {@link
   * UnsupportedOperationException}; {@link #copy()} gives a mutable one).
   *
   * @throws SieveFormatException as {@link #fromParquetBitset(byte[], long)}
   */
  public static SplitBlockBloomFilter wrapParquetBitset(ByteBuffer bitset, long numKeys) {
    return SplitBlockForm.wrap(bitset, numKeys).withKeyScheme(KeyScheme.PARQUET_XXH64);
  }

  /**
   * The bitset exactly as Parquet stores it after the {@code BloomFilterHeader}. Parquet's readers
   * hash values by {@link KeyScheme#PARQUET_XXH64}: a filter meant for a Parquet file is built with
   * that scheme ({@code builder().keyScheme(KeyScheme.PARQUET_XXH64)}) or read from a bitset.
   */
  public byte[] toParquetBitset() {
    return SplitBlockForm.toBytes(this);
  }

  // ---------------------------------------------------------------- the filter

  /** {@inheritDoc} */
  @Override
  public KeyScheme keyScheme() {
    return keyScheme;
  }

  @Override
  public SplitBlockBloomFilter withKeyScheme(KeyScheme scheme) {
    Schemes.check(this, scheme);
    return scheme == keyScheme ? this : new SplitBlockBloomFilter(data, scheme);
  }

  /**
   * {@inheritDoc}
   *
   * <p>For a filter read from Parquet, the hash is {@link ParquetHash}'s ({@link
   * KeyScheme#PARQUET_XXH64}); see the class comment.
   *
   * <p>The probe computes the eight masks as four 64-bit masks and tests the block's four longs. A
   * heap filter of at most {@link BlockedBloomKernel#BRANCH_FREE_MAX_BYTES} tests all four without
   * a branch (in cache an absent key's mispredicted exit costs more than the three tests it saves);
   * a larger one returns "absent" as soon as the first long misses a bit, as about 70% of absent
   * keys do at 10 bits per value: past a few MiB (TLB misses, DRAM) a predicted exit lets the core
   * run ahead into the next lookups' loads, while the branch-free test's 40 instructions keep few
   * lookups in flight (absent keys 1.3–1.9× faster at 10^7 to 10^8 values, present ones unchanged;
   * docs/notes.md, section 6). The answers are the same.
   */
  @Override
  public boolean mayContainHash(long hash64) {
    if (VECTOR_PROBE && words != null && (VectorGate.UNGATED || VectorGate.SPLIT_BLOCK.isOpen())) {
      return SplitBlockVectorProbe.mayContain(words, blockBase(hash64, numBlocks), (int) hash64);
    }
    int base = blockBase(hash64, numBlocks);
    int key = (int) hash64;
    long[] w = words;
    if (w == null) {
      return SplitBlockKernel.mayContain(wrapped, base, key);
    }
    // heap and wrapped storage keep separate reads: one path over a storage interface measured
    // 5-60% slower on heap queries (docs/notes.md)
    return SplitBlockKernel.mayContain(w, base, key, branchFreeQueries);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Two passes over each chunk of 64 hashes (heap storage): the first computes every block and
   * loads the block's first and last word, so every cache line the chunk needs is requested by a
   * short loop of independent loads (a block straddles two lines when the array's data is not
   * 32-byte aligned, which Java does not promise); the second tests each block as {@link
   * #mayContainHash} does, its lines now in cache. Out of cache this overlaps many more misses than
   * single lookups do: a test of the eight masks is about 40 instructions, so the reorder buffer
   * holds only a few keys' loads at once, while the loading loop holds about 20 (docs/notes.md,
   * section 6). A wrapped filter answers key by key. On the SIMD path ({@link #usesVectorProbe()},
   * once its gate is open) a heap filter tests the chunk with the vector check instead. The answers
   * are {@link #mayContainHash}'s.
   */
  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    if (VECTOR_PROBE && words != null && (VectorGate.UNGATED || VectorGate.SPLIT_BLOCK.isOpen())) {
      return SplitBlockVectorProbe.mayContainHashes(words, numBlocks, hashes, off, len, resultBits);
    }
    if (words == null) {
      return MergeableFilter.super.mayContainHashes(hashes, off, len, resultBits);
    }
    return BatchScratch.batch(hashes, off, len, resultBits, chunkProbe);
  }

  private long probeChunk(long[] hashes, int at, int chunk) {
    return SplitBlockKernel.probeChunk(words, numBlocks, hashes, at, chunk);
  }

  /**
   * Whether heap-resident filters may use the SIMD check ({@link SplitBlockVectorProbe}): the
   * module {@code jdk.incubator.vector} is readable. Read as a constant, so without the module the
   * JIT drops the gated branch.
   */
  private static final boolean VECTOR_PROBE = VectorGate.MODULE_READABLE;

  /**
   * Whether this JVM's queries of heap-resident split-block filters (single and batch) take the
   * SIMD check (one 256-bit load, one multiply by the eight salts, one shift, one test) once it is
   * warm: when the JVM runs with {@code --add-modules jdk.incubator.vector} on hardware with
   * 256-bit vectors. Until the vector code is compiled the scalar check answers; the warm-up and
   * what it costs a short-lived JVM are those of {@link BlockedBloomFilter#usesVectorProbe()} (one
   * shared daemon thread). Wrapped filters always use the scalar check. The answers are the same
   * either way.
   *
   * @return whether queries use the SIMD path, now or once it is warm
   */
  public static boolean usesVectorProbe() {
    return VECTOR_PROBE && VectorGate.SPLIT_BLOCK.supported();
  }

  /**
   * Whether queries of heap-resident split-block filters run the SIMD check now ({@link
   * #usesVectorProbe()} and warm).
   *
   * @return whether the SIMD path is in use at this moment
   */
  public static boolean vectorProbeActive() {
    return VECTOR_PROBE && (VectorGate.UNGATED || VectorGate.SPLIT_BLOCK.isOpen());
  }

  @Override
  public boolean addHash(long hash64) {
    if (words == null) {
      throw new UnsupportedOperationException("a filter wrapping a buffer is read-only");
    }
    boolean changed = SplitBlockKernel.add(words, blockBase(hash64, numBlocks), (int) hash64);
    if (changed) {
      data.countKey();
    }
    return changed;
  }

  /**
   * ORs {@code other} into this filter: afterwards it holds every value of both. Safe while other
   * threads add to or query either filter. The key count afterwards is {@code max(numKeys(),
   * other.numKeys(), round(approximateElementCount()))}, the estimate from the set bits, not the
   * sum of the two counts (which would count shared values twice), as {@link
   * BlockedBloomFilter#union} does.
   *
   * @throws IllegalArgumentException if the two filters differ in size (Parquet's filters of one
   *     column are only mergeable at equal size: the block of a value depends on the block count)
   */
  @Override
  public void union(SplitBlockBloomFilter other) {
    data.checkMutable();
    Schemes.checkSame(this, other);
    BloomWords.checkSameShape(
        other.numBlocks == numBlocks,
        "cannot union split-block Bloom filters of different shapes (sizes): ",
        sizeInBytes() + " bytes",
        other.sizeInBytes() + " bytes");
    data.union(other.data, this::approximateElementCount);
  }

  /**
   * The number of distinct values the filter holds, estimated from its set bits block by block
   * ({@link BloomMath#splitBlockElementCount}, summed): the way to learn the value count of a
   * filter read from Parquet, which does not store it. One pass over the bitset.
   */
  @Override
  public double approximateElementCount() {
    return SplitBlockKernel.approximateElementCount(data, numBlocks);
  }

  /** An independent, mutable copy on the heap. */
  @Override
  public SplitBlockBloomFilter copy() {
    return new SplitBlockBloomFilter(data.copy(), keyScheme);
  }

  /** Whether the filter reads its bitset in place from a buffer. */
  public boolean isWrapped() {
    return words == null;
  }

  /** {@return the bitset and the key count} */
  BloomWords data() {
    return data;
  }

  /** The number of 32-byte blocks. */
  public int numBlocks() {
    return numBlocks;
  }

  /**
   * The number of values: for a built filter, its hashes that differ from the one before; for
   * values added later, the adds that changed the filter; after {@link #union}, the estimate
   * described there; for a filter read from Parquet, what the reader was told (Parquet stores no
   * count).
   */
  @Override
  public long numKeys() {
    return data.numKeys();
  }

  @Override
  public long sizeInBits() {
    return (long) numBlocks * BLOCK_BYTES * Byte.SIZE;
  }

  /** {@link BloomMath#splitBlockBloomFpRate} at {@link #numKeys()} and this size. */
  @Override
  public double modelledFpRate() {
    return BloomMath.splitBlockBloomFpRate(numKeys(), sizeInBytes());
  }

  /** The fraction of bits that are set. */
  public double fractionOfBitsSet() {
    return (double) data.bitCount() / sizeInBits();
  }

  /** Equal when the bitsets are equal (the key count is not compared). */
  @Override
  public boolean equals(Object o) {
    return o instanceof SplitBlockBloomFilter other
        && other.keyScheme == keyScheme
        && other.data.sameWords(data);
  }

  @Override
  public int hashCode() {
    return data.wordsHash();
  }

  @Override
  public String toString() {
    return "SplitBlockBloomFilter{bytes="
        + sizeInBytes()
        + ", blocks="
        + numBlocks
        + ", keys="
        + numKeys()
        + "}";
  }

  /**
   * Builds {@link SplitBlockBloomFilter}s sized as parquet-java sizes them: from {@link
   * #expectedKeys} distinct values at {@link #fpRate} (default 1%, Parquet's), or a {@link
   * #numBytes} request; both rounded to a power of two and capped at {@link #maxBytes}. There is no
   * seed: Parquet's hash has none.
   */
  public static final class Builder extends MutableFilterBuilder<SplitBlockBloomFilter> {
    /** {@inheritDoc} */
    @Override
    public Builder keyScheme(KeyScheme scheme) {
      super.keyScheme(scheme);
      return this;
    }

    private long expectedKeys = -1;
    private double fpRate = DEFAULT_FP_RATE;
    private int numBytes = -1;
    private int maxBytes = MAX_BYTES;
    private double bitsPerKey = -1;

    private Builder() {}

    /** The number of distinct values expected (parquet-java's {@code ndv}). */
    @Override
    public Builder expectedKeys(long n) {
      Checks.count("expected keys", n, MAX_DISTINCT_VALUES);
      super.expectedKeys(n);
      expectedKeys = n;
      return this;
    }

    /** The target false-positive rate, in (0, 1) (default 0.01). */
    @Override
    public Builder fpRate(double f) {
      fpRate = Checks.fpRate(f);
      return this;
    }

    /**
     * A bitset size request in bytes, rounded as {@code new BlockSplitBloomFilter(numBytes)} rounds
     * it (at least 32, up to a power of two, at most {@link #maxBytes}); it overrides the sizing by
     * keys and rate.
     */
    public Builder numBytes(int b) {
      if (b < 0) {
        throw new IllegalArgumentException("number of bytes must be >= 0, got " + b);
      }
      numBytes = b;
      return this;
    }

    /**
     * The largest bitset, in bytes (default 128 MiB, the format's limit; parquet-java's writer uses
     * {@code parquet.bloom.filter.max.bytes}, 1 MiB by default). Values outside (32, 128 MiB) mean
     * 128 MiB, as in parquet-java.
     */
    public Builder maxBytes(int b) {
      maxBytes = b;
      return this;
    }

    /**
     * Sizes the filter at exactly {@code bitsPerKey} bits per distinct value, rounded up to whole
     * 32-byte blocks (at least one): <b>not</b> a size Parquet's writers choose (they use powers of
     * two), but the one to compare filters at equal bits/key. It overrides the other sizings.
     *
     * @throws IllegalArgumentException if {@code bitsPerKey} is not in [1, 100]
     */
    public Builder bitsPerKey(double bitsPerKey) {
      this.bitsPerKey = Checks.bitsPerKey(bitsPerKey, 1.0, 100.0);
      return this;
    }

    /**
     * The bitset size these settings give for {@code distinctValues} values.
     *
     * @throws IllegalArgumentException if {@link #bitsPerKey} sizing needs more than {@link
     *     #MAX_BYTES}
     */
    public int numBytesFor(long distinctValues) {
      return SplitBlockForm.numBytesFor(distinctValues, bitsPerKey, numBytes, maxBytes, fpRate);
    }

    /**
     * An empty mutable filter sized by {@link #numBytes} or by {@link #expectedKeys} at {@link
     * #fpRate}.
     *
     * @throws IllegalStateException if neither the size nor the expected keys were given
     */
    @Override
    protected SplitBlockBloomFilter createEmpty() {
      return SplitBlockForm.empty(numBytesFor(expectedKeys()));
    }

    /**
     * As {@link #create()}, but refusing to guess a size: one of {@link #numBytes} or {@link
     * #expectedKeys} must have been given.
     *
     * @return a new, empty filter
     * @throws IllegalStateException if neither the size nor the expected keys were given
     */
    public SplitBlockBloomFilter build() {
      SplitBlockForm.checkSized(numBytes, expectedKeys);
      return schemed(SplitBlockForm.empty(numBytesFor(Math.max(0, expectedKeys))));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Sized by {@link #bitsPerKey}, {@link #numBytes} or {@link #expectedKeys} if given, else by
     * the number of hashes at {@link #fpRate}. The key count is the number of hashes that differ
     * from the one before them (as {@link BlockedBloomFilter} counts, after RocksDB): the distinct
     * keys when repeats are adjacent or absent.
     */
    @Override
    protected SplitBlockBloomFilter buildFromHashes(long[] hashes, int count) {
      return SplitBlockForm.build(hashes, count, expectedKeys, this::numBytesFor);
    }
  }
}
