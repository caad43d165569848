package dev.sieve.ribbon;

import static dev.sieve.ribbon.RibbonKernel.COEFF_AND_RESULT_FACTOR;
import static dev.sieve.ribbon.RibbonKernel.REHASH_FACTOR;

import dev.sieve.KeyScheme;
import dev.sieve.RocksDbFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.Schemes;
import dev.sieve.internal.base.BatchScratch;
import dev.sieve.math.BloomMath;
import dev.sieve.math.RibbonMath;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * A static Ribbon filter, byte for byte RocksDB's Standard128Ribbon ({@code ribbonfilter}, format
 * since RocksDB 6.15): 128-bit coefficient rows, a 32-bit result row, interleaved solution storage
 * with fractional result bits.
 *
 * <h2>The idea</h2>
 *
 * A Bloom filter <em>sets</em> bits and pays {@code 1.44 · log2(1/f)} bits per key for rate {@code
 * f}. Ribbon (Rapid Incremental Boolean Banding ON-the-fly) <em>solves</em> for them: each key
 * hashes to a start slot {@code s}, a random 128-bit coefficient row {@code c} and an {@code r}-bit
 * fingerprint {@code R}; the filter is a matrix {@code S} of {@code m} slots × {@code r} columns
 * with {@code XOR_j c_j · S[s + j] = R} for every added key. A query recomputes the XOR and
 * compares it with the key's fingerprint: an added key always matches, an absent key matches with
 * probability {@code 2^-r}. With {@code m ≈ 1.05 n} slots the cost is about {@code 1.05 ·
 * log2(1/f)} bits per key, close to the information floor.
 *
 * <h2>The math</h2>
 *
 * The system is a random band matrix over GF(2) with band width 128 (Dietzfelbinger and Walzer);
 * {@code RibbonBanding} solves it by on-the-fly Gaussian elimination, key by key, and
 * back-substitutes. It is solvable with high probability when there are a few percent more slots
 * than keys ({@link RibbonSizing#numSlotsForKeys}); RocksDB sizes for a 1-in-20 failure chance per
 * seed and retries with the next of 256 seeds. The FPR of {@code c} columns in a fraction {@code p}
 * of the start positions and {@code c + 1} in the rest is {@code p·2^-c + (1-p)·2^-(c+1)} ({@link
 * RibbonMath#interleavedRibbonFpRate}), i.e. {@code 2^-r} interpolated linearly at the fractional
 * {@link #resultBits()} {@code r = c + 1 - p}.
 *
 * <h2>Where the parts are</h2>
 *
 * This class is the filter's API; the hashing and batch probe are in {@code RibbonKernel}, the
 * column probe in {@code RibbonProbe}, the block's layout ({@code docs/format.md}) in {@code
 * RibbonBlockForm}, the banding and seed search in {@code RibbonBanding}.
 *
 * <h2>The trade-off</h2>
 *
 * About 30% smaller than FastLocalBloom at the same FPR (7.0 instead of 10 bits/key at 0.95%), but
 * static (all keys must be known before the solve), 3–4× the CPU and about 3× the temporary memory
 * to build (20 bytes per slot for the band), and a query reads up to {@code 2 · columns} 16-byte
 * segments instead of one cache line: see {@code dev.sieve.policy.FilterPolicy} (sieve-rocksdb) for
 * where that pays.
 *
 * <p>Reference: P. C. Dillinger and S. Walzer, "Ribbon filter: practically smaller than Bloom and
 * Xor", arXiv:2103.02515 (2021); RocksDB util/ribbon_alg.h, util/ribbon_impl.h,
 * util/ribbon_config.cc, table/block_based/filter_policy.cc.
 */
public final class Standard128RibbonFilter implements RocksDbFilter {

  /** RocksDB's trailer length. */
  static final int TRAILER_BYTES = 5;

  /** The trailer marker byte of Standard128Ribbon ({@code (byte) -2}). */
  static final byte MARKER = (byte) 0xFE;

  /** The number of ordinal seeds tried before a build gives up on Ribbon. */
  static final int NUM_SEEDS = 256;

  /** The filter of no keys (RocksDB's 0-byte block). */
  static final Standard128RibbonFilter EMPTY =
      new Standard128RibbonFilter(new long[0], null, null, 0, 0, 0, 0);

  // Two storage forms, each with its own hot loop in the query methods: one loop over a common
  // storage interface was measurably slower on heap queries; every cold method reads through one
  // accessor instead.
  /** Segments, two longs each (low 64 bits, then high), then {@code 2 · upperNumColumns} zeros. */
  private final long[] data;

  /** The segments read in place from buffers, unpadded; {@code null} on the heap. */
  private final LongSegments wrapped;

  /** {@link #wrapped}'s one buffer as little-endian longs; {@code null} on the heap or split. */
  private final LongBuffer buffer;

  private final int numSegments;

  private final int numBlocks;
  private final int numStarts;
  private final int seed;

  /** The raw seed, zero-extended as the rehash uses it. */
  private final long rawSeed64;

  private final int upperNumColumns;
  private final int upperStartBlock;
  private final long numKeys;
  private final BatchScratch.ChunkProbe chunkProbe = this::probeChunk;
  private final KeyScheme keyScheme;

  /**
   * A filter over heap {@code data} (segments, with or without the padding, added when missing), or
   * reading its segments in place from {@code wrapped} ({@code data} null; {@code buffer} its one
   * buffer's words, null when they span several buffers).
   */
  Standard128RibbonFilter(
      long[] data,
      LongSegments wrapped,
      LongBuffer buffer,
      int numBlocks,
      int numSegments,
      int seed,
      long numKeys) {
    this(data, wrapped, buffer, numBlocks, numSegments, seed, numKeys, KeyScheme.XXPH3);
  }

  private Standard128RibbonFilter(
      long[] data,
      LongSegments wrapped,
      LongBuffer buffer,
      int numBlocks,
      int numSegments,
      int seed,
      long numKeys,
      KeyScheme keyScheme) {
    this.keyScheme = keyScheme;
    this.numSegments = numSegments;
    this.numBlocks = numBlocks;
    this.seed = seed;
    this.rawSeed64 = RibbonKernel.rawSeed(seed) & 0xFFFFFFFFL;
    this.numKeys = numKeys;
    if (numBlocks == 0) {
      this.numStarts = 0;
      this.upperNumColumns = 0;
      this.upperStartBlock = 0;
    } else {
      this.numStarts = numBlocks * RibbonSizing.SLOTS_PER_BLOCK - RibbonSizing.SLOTS_PER_BLOCK + 1;
      int upper = (int) (((long) numSegments + numBlocks - 1) / numBlocks);
      this.upperNumColumns = upper;
      this.upperStartBlock = (int) ((long) upper * numBlocks - numSegments);
    }
    // zero words after the last block, read (under zero masks, or as columns the block does not
    // have) by a query starting in the last block
    int padded = RibbonProbe.paddedWords(numSegments, upperNumColumns);
    this.data = data == null ? null : data.length == padded ? data : Arrays.copyOf(data, padded);
    this.wrapped = wrapped;
    this.buffer = buffer;
  }

  @Override
  public KeyScheme keyScheme() {
    return keyScheme;
  }

  @Override
  public Standard128RibbonFilter withKeyScheme(KeyScheme scheme) {
    Schemes.check(this, scheme);
    return scheme == keyScheme
        ? this
        : new Standard128RibbonFilter(
            data, wrapped, buffer, numBlocks, numSegments, seed, numKeys, scheme);
  }

  /** {@return a builder sized by a bloom-equivalent bits/key (default 10) or a target FPR} */
  public static Standard128RibbonFilterBuilder builder() {
    return new Standard128RibbonFilterBuilder();
  }

  /**
   * The Standard128Ribbon filter RocksDB's {@code Standard128RibbonBitsBuilder} solves for {@code n
   * ≥ 1} entries at {@code numSlots} slots and {@code dataBytes} bytes of solution (RocksDB's
   * sizing, {@link RibbonSizing#bytesForOneInFpRate}), trying seeds from {@code lower32(first
   * entry) & 255} on, or empty if all 256 fail. When RocksDB builds this filter and when it falls
   * back to Bloom instead is its policy's choice, made in sieve-rocksdb's {@code FilterPolicy}.
   *
   * @param entries 64-bit key hashes in the order RocksDB adds them, without two equal neighbours;
   *     not modified
   * @param n how many entries to use, at least 1
   * @param numSlots slots, a multiple of 128 and at least 256
   * @param dataBytes bytes of solution, a multiple of 16
   * @return the filter, or empty when no seed solves
   */
  public static Optional<Standard128RibbonFilter> solveRocksDb(
      long[] entries, int n, int numSlots, long dataBytes) {
    return RibbonBanding.solveRocksDb(entries, n, numSlots, dataBytes);
  }

  /** The data segments, then the 5-byte trailer; the empty filter gives a 0-byte block. */
  @Override
  public byte[] toRocksDbFilterBlock() {
    return RibbonBlockForm.toBytes(this);
  }

  @Override
  public long rocksDbFilterBlockLength() {
    return numBlocks == 0 ? 0 : (long) numSegments * RibbonSizing.SEGMENT_BYTES + TRAILER_BYTES;
  }

  @Override
  public void writeRocksDbFilterBlock(java.nio.channels.WritableByteChannel out)
      throws java.io.IOException {
    RibbonBlockForm.write(this, out);
  }

  /** As {@link #fromRocksDbFilterBlock(byte[], long)} with the number of keys unknown (0). */
  public static Standard128RibbonFilter fromRocksDbFilterBlock(byte[] block) {
    return fromRocksDbFilterBlock(block, 0);
  }

  /**
   * Reads a Standard128Ribbon filter block as RocksDB writes it. The data is copied; any length
   * RocksDB can write is accepted (with {@code optimize_filters_for_memory} the data is any whole
   * number of 16-byte segments, not only the length this class's builder chooses). {@code numKeys}
   * (which the format does not store) feeds the model FPR and bits/key.
   *
   * <p>A 0-byte block is RocksDB's "no keys" block and reads as the empty filter (every key
   * absent). Everything else is checked and refused with a {@link SieveFormatException} naming the
   * problem where inconsistent, including where RocksDB's reader would quietly fall back ({@code
   * RibbonBlockForm} lists the cases).
   *
   * <p><b>No integrity check:</b> a raw block has no checksum; the Sieve container checksums it.
   *
   * @throws SieveFormatException also for a 0-byte block and {@code numKeys > 0}: that block
   *     answers "absent" for every key, so it cannot hold any
   */
  public static Standard128RibbonFilter fromRocksDbFilterBlock(byte[] block, long numKeys) {
    Objects.requireNonNull(block, "block");
    return RibbonBlockForm.read(block, numKeys);
  }

  /**
   * Wraps a Standard128Ribbon filter block held in a buffer (heap, direct or memory-mapped), from
   * its position to its limit, <em>without copying</em>: queries read the buffer in place. The
   * bytes must not change while the filter is in use. Checks and errors as {@link
   * #fromRocksDbFilterBlock(byte[], long)}; no integrity check either.
   */
  public static Standard128RibbonFilter wrapRocksDbFilterBlock(ByteBuffer block, long numKeys) {
    Objects.requireNonNull(block, "block");
    return RibbonBlockForm.wrap(block, numKeys);
  }

  @Override
  public boolean mayContainHash(long hash64) {
    final long[] data = this.data;
    final int numStarts = this.numStarts;
    if (numStarts == 0) {
      return false;
    }
    long h = (hash64 ^ rawSeed64) * REHASH_FACTOR;
    int start = RibbonProbe.start(h, numStarts);
    long a = h * COEFF_AND_RESULT_FACTOR;
    if (data != null) {
      return RibbonProbe.heap(data, upperNumColumns, upperStartBlock, start, a);
    }
    LongBuffer buf = this.buffer;
    if (buf != null) {
      return RibbonProbe.buffer(buf, 0, upperNumColumns, upperStartBlock, start, a);
    }
    return RibbonProbe.segments(wrapped, upperNumColumns, upperStartBlock, start, a);
  }

  /** Two passes per 64-hash chunk: load every key's blocks, then branch-free parities. */
  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    if (data == null || numBlocks == 0) {
      return RocksDbFilter.super.mayContainHashes(hashes, off, len, resultBits);
    }
    return BatchScratch.batch(hashes, off, len, resultBits, chunkProbe);
  }

  private long probeChunk(long[] hashes, int at, int chunk) {
    return RibbonKernel.probeChunk(
        data, numStarts, rawSeed64, upperNumColumns, upperStartBlock, hashes, at, chunk);
  }

  /** Data word {@code i} of either storage; 0 past the segments (the padding). */
  long word(int i) {
    if (data != null) {
      return data[i];
    }
    return i < 2 * numSegments ? wrapped.get(i) : 0L;
  }

  /** {@return whether the filter reads its data in place from a buffer} */
  public boolean isWrapped() {
    return data == null && numBlocks > 0;
  }

  /** {@return the ordinal hash seed (0..255) that solved the system; stored in the trailer} */
  public int seed() {
    return seed;
  }

  /** {@return the number of 128-slot blocks (0 for the empty filter)} */
  public int numBlocks() {
    return numBlocks;
  }

  /** {@return the number of slots, {@code 128 · numBlocks}} */
  public long numSlots() {
    return (long) numBlocks * RibbonSizing.SLOTS_PER_BLOCK;
  }

  /** {@return the number of 16-byte segments of solution data} */
  int numSegments() {
    return numSegments;
  }

  /** {@return the number of result columns in blocks from {@code upperStartBlock} on} */
  int upperNumColumns() {
    return upperNumColumns;
  }

  /** {@return the first block with {@code upperNumColumns} columns; earlier have one fewer} */
  int upperStartBlock() {
    return upperStartBlock;
  }

  /**
   * The fractional number of result bits a query is checked against, averaged over start positions:
   * {@code upperNumColumns − p} where {@code p} is the fraction of starts in the blocks with one
   * column fewer. The model FPR is {@code 2^-r} interpolated at this {@code r}.
   */
  public double resultBits() {
    if (numBlocks == 0) {
      return 0.0;
    }
    return upperNumColumns - lowerPortion();
  }

  private double lowerPortion() {
    return Math.min(1.0, (double) upperStartBlock * RibbonSizing.SLOTS_PER_BLOCK / numStarts);
  }

  @Override
  public long numKeys() {
    return numKeys;
  }

  @Override
  public long sizeInBits() {
    return (long) numSegments * RibbonSizing.SEGMENT_BYTES * Byte.SIZE;
  }

  /** RocksDB's {@code ExpectedFpRate} of the layout with the 64-bit hash's collision rate. */
  @Override
  public double modelledFpRate() {
    if (numBlocks == 0) {
      return 0.0;
    }
    return BloomMath.independentProbabilitySum(
        RibbonMath.interleavedRibbonFpRate(numBlocks, upperNumColumns, upperStartBlock),
        BloomMath.fingerprintFpRate((double) numKeys, 64));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Standard128RibbonFilter other
        && other.numBlocks == numBlocks
        && other.seed == seed
        && other.numSegments == numSegments
        && other.keyScheme == keyScheme
        && RibbonKernel.sameWords(this, other);
  }

  @Override
  public int hashCode() {
    return RibbonKernel.wordsHash(this, numBlocks * 257 + seed);
  }

  @Override
  public String toString() {
    return String.format(
        "Standard128RibbonFilter[keys=%d, blocks=%d, seed=%d, columns=%d (from block %d, %d-1"
            + " before), resultBits=%.3f, bits/key=%.3f, fpr=%.3g]",
        numKeys,
        numBlocks,
        seed,
        upperNumColumns,
        upperStartBlock,
        upperNumColumns,
        resultBits(),
        bitsPerKey(),
        modelledFpRate());
  }
}
