package dev.sieve.bloom;

import static dev.sieve.bloom.SplitBlockKernel.VECTOR_PROBE;
import static dev.sieve.bloom.SplitBlockKernel.blockBase;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.KeySchemeException;
import dev.sieve.MergeableFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.AtomicBits;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.Schemes;
import dev.sieve.internal.base.BatchScratch;
import dev.sieve.math.SplitBlockMath;
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
 * The value's 64-bit hash picks a block by its top 32 bits and sets one bit in each of the block's
 * eight words from its low 32 bits times eight fixed odd salts; {@code SplitBlockForm} and {@code
 * docs/format.md} give the layout. {@link #toParquetBitset()} gives exactly the bytes a {@code
 * .parquet} file stores after its {@code BloomFilterHeader}.
 *
 * <h2>Sizes</h2>
 *
 * Parquet's writers use a power of two from 32 bytes to 128 MiB; {@link #parquetNumBytes(long,
 * double)} is parquet-java's sizing: {@code m = -8n/ln(1 - p^(1/8))} bits ({@link
 * SplitBlockMath#parquetSplitBlockBits}), rounded, clamped and capped as parquet-java does. The
 * readers accept any positive multiple of 32 bytes up to 128 MiB, and {@link #withNumBytes} builds
 * one, for comparisons at an exact bits/key.
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
 * {@link SplitBlockMath#splitBlockFpRate}: values per block are Poisson with mean {@code 256/b}; a
 * block of {@code j} values answers an absent value "maybe" with probability {@code (1 -
 * (31/32)^j)^8}. At 10 bits per value that is 1.26%, against 0.95% for RocksDB's 512-bit
 * FastLocalBloom with 6 probes ({@link BlockedBloomFilter}) and 0.85% for an unblocked filter with
 * 8 probes: the smaller block spreads the load more and one bit per word forbids two probes of one
 * value from sharing a word. In exchange the probe needs no loop or data-dependent branch.
 * Parquet's sizing rule ignores the blocking (it is the unblocked rate solved for {@code m}), so a
 * filter of exactly the rule's size misses its target (1.46% for a 1% target); the power-of-two
 * rounding usually restores it.
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
  static final long MAX_DISTINCT_VALUES = 1L << 60;

  /** Parquet's default false-positive rate ({@code parquet.bloom.filter.fpp}). */
  static final double DEFAULT_FP_RATE = 0.01;

  // This class holds the API. The words and the key count are BloomWords'; the probe and add
  // loops over raw storage (and Parquet's salts) are SplitBlockKernel's; the bitset's bytes, its
  // checks and parquet-java's sizing are SplitBlockForm's.

  /** The bitset and the key count, for the cold operations (union, copy, equals, bytes). */
  private final BloomWords data;

  // heap and wrapped storage keep separate probes (one path over a storage interface measured
  // slower on heap queries, docs/journal.md): the probes read these raw fields, data's storage
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
      VectorGate.SPLIT_BLOCK.watch(); // the SIMD path's warm-up thread, waiting for 2^20 lookups
    }
    this.numBlocks = (int) (data.numWords() / SplitBlockKernel.LONGS_PER_BLOCK);
    this.branchFreeQueries =
        words == null // the wrapped path is always branch-free
            || (long) numBlocks * BLOCK_BYTES <= BlockedBloomKernel.BRANCH_FREE_MAX_BYTES;
  }

  /** A builder sizing the filter as parquet-java does (see the class comment). */
  public static SplitBlockBloomFilterBuilder builder() {
    return new SplitBlockBloomFilterBuilder();
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
   * BlockSplitBloomFilter.optimalNumOfBits}): {@link SplitBlockMath#parquetSplitBlockBits}
   * truncated to an int, at most {@code 8 · MAX_BYTES}, then "rounded up to a multiple of 256" with
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

  /** parquet-java writer's bitset size for {@code distinctValues} at {@code fpRate}, capped. */
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
   * <p>No integrity check (Parquet stores no checksum); the Sieve container checksums it.
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
   * {@return the bitset exactly as Parquet stores it after the {@code BloomFilterHeader}, a copy}
   * Only a filter of {@link KeyScheme#PARQUET_XXH64} has one: Parquet's readers hash by it, so
   * other bits would answer them with silent misses. {@code withKeyScheme(PARQUET_XXH64)} re-labels
   * a filter whose hashes are known to be Parquet's (given to {@link #addHash}).
   *
   * @throws KeySchemeException naming the scheme if it is not {@link KeyScheme#PARQUET_XXH64}
   */
  public byte[] toParquetBitset() {
    return SplitBlockForm.parquetBitset(this, keyScheme);
  }

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
   * Tests the block's four longs: without a branch up to {@link
   * BlockedBloomKernel#BRANCH_FREE_MAX_BYTES} (in cache), else exiting at the first miss, which
   * lets the core run ahead out of cache (docs/journal.md). The answers are the same.
   */
  @Override
  public boolean mayContainHash(long hash64) {
    // with the module: the gate counts the scalar lookups, starting the warm-up after about 2^20
    if (VECTOR_PROBE
        && words != null
        && (VectorGate.UNGATED || VectorGate.SPLIT_BLOCK.openFor(hash64))) {
      return SplitBlockVectorProbe.mayContain(words, blockBase(hash64, numBlocks), (int) hash64);
    }
    int base = blockBase(hash64, numBlocks);
    int key = (int) hash64;
    long[] w = words;
    if (w == null) {
      return SplitBlockKernel.mayContain(wrapped, base, key);
    }
    // heap and wrapped storage keep separate reads: one path over a storage interface measured
    // slower on heap queries (docs/journal.md)
    return SplitBlockKernel.mayContain(w, base, key, branchFreeQueries);
  }

  /**
   * Two passes per 64-hash chunk on the heap: load every block's first and last word, then test
   * each block in cache, overlapping many more misses than single lookups (docs/journal.md); the
   * SIMD path when open; a wrapped filter answers key by key.
   */
  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    if (VECTOR_PROBE
        && words != null
        && (VectorGate.UNGATED || VectorGate.SPLIT_BLOCK.openAfter(len))) {
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
   * {@return whether queries of heap-resident filters take the SIMD check once it is warm} That is
   * with {@code --add-modules jdk.incubator.vector} on hardware with 256-bit vectors; the warm-up
   * is that of {@link BlockedBloomFilter#usesVectorProbe()}. The answers are the same either way.
   */
  public static boolean usesVectorProbe() {
    return VECTOR_PROBE && VectorGate.SPLIT_BLOCK.supported();
  }

  /** {@return whether queries run the SIMD check now ({@link #usesVectorProbe()} and warm)} */
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
   * Keys after: the larger count or the set bits' estimate, as blocked Bloom's; sizes must match.
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

  /** {@link SplitBlockMath#splitBlockElementCount} over the blocks: a Parquet filter's count. */
  @Override
  public double approximateElementCount() {
    return SplitBlockKernel.approximateElementCount(data, numBlocks);
  }

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

  /** The adds that changed the filter; for a filter read from Parquet, what the reader was told. */
  @Override
  public long numKeys() {
    return data.numKeys();
  }

  @Override
  public long sizeInBits() {
    return (long) numBlocks * BLOCK_BYTES * Byte.SIZE;
  }

  @Override
  public double modelledFpRate() {
    return SplitBlockMath.splitBlockBloomFpRate(numKeys(), sizeInBytes());
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
    return "SplitBlockBloomFilter{bytes=%s, blocks=%s, keys=%s}"
        .formatted(sizeInBytes(), numBlocks, numKeys());
  }
}
