package dev.sieve.bloom;

import static dev.sieve.bloom.BlockedBloomKernel.BRANCH_FREE_MAX_BYTES;
import static dev.sieve.bloom.BlockedBloomKernel.VECTOR_PROBE;
import static dev.sieve.bloom.BlockedBloomKernel.WORDS_PER_BLOCK;
import static dev.sieve.bloom.BlockedBloomKernel.all6;
import static dev.sieve.bloom.BlockedBloomKernel.allProbes;
import static dev.sieve.bloom.BlockedBloomKernel.blockBase;
import static dev.sieve.bloom.BlockedBloomKernel.early6;
import static dev.sieve.bloom.BlockedBloomKernel.earlyLoop;
import static dev.sieve.bloom.BlockedBloomKernel.upTo8;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.MergeableFilter;
import dev.sieve.RocksDbFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.BatchScratch;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.Checks;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.Schemes;
import dev.sieve.math.BloomMath;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * A cache-local ("blocked") Bloom filter, bit for bit RocksDB's FastLocalBloom (the default filter
 * of block-based tables since format_version 5).
 *
 * <h2>The idea</h2>
 *
 * A standard Bloom filter's {@code k} probes land in {@code k} random cache lines, so a query can
 * cost {@code k} cache misses. This filter first picks one 512-bit (64-byte) block per key, from
 * the lower 32 bits of its 64-bit hash, and runs a small Bloom filter inside it, its probes from
 * the upper 32 bits, so every add and query touches exactly one cache line. The data is RocksDB's
 * bytes, and its filter block is the data followed by RocksDB's 5-byte trailer ({@code FF 00}, the
 * number of probes, {@code 00 00}).
 *
 * <h2>Sizing and the trade-off, as RocksDB has them</h2>
 *
 * Bits per key become thousandths ({@link FastLocalBloomSizing#rocksDbMillibitsPerKey}), the data
 * length is RocksDB's ({@link FastLocalBloomSizing#rocksDbDataBytes}) and the probe count comes
 * from RocksDB's table of measured optima ({@link FastLocalBloomSizing#chooseNumProbes}: 6 at 10
 * bits/key, 9 at 16). The keys per block are Poisson, and crowded blocks raise the FPR above the
 * standard Bloom rate: 0.95% at 10 bits/key and 6 probes against a standard filter's 0.84% ({@link
 * BloomMath#cacheLocalFpRate}), a 1.13× tax for one cache miss instead of up to six. The space cost
 * stays Bloom's.
 *
 * <h2>Limits</h2>
 *
 * At most {@link #MAX_DATA_BYTES} data bytes (RocksDB's cap), just under 2^35 bits. The builder and
 * {@link #createWithBitsPerKey} refuse more keys than fit; {@link #buildRocksDb} caps there.
 *
 * <p>Reference: P. Dillinger, RocksDB util/bloom_impl.h and table/block_based/filter_policy.cc;
 * Putze, Sanders, Singler, "Cache-, Hash- and Space-Efficient Bloom Filters" (2007).
 */
public final class BlockedBloomFilter
    implements MergeableFilter<BlockedBloomFilter>, RocksDbFilter {
  // The API; the words are BloomWords', the loops BlockedBloomKernel's, the block
  // BlockedBloomForm's.

  /** The largest data length RocksDB's FastLocalBloom supports, in bytes. */
  public static final long MAX_DATA_BYTES = 0xffffffc0L;

  /** Bytes per block (one cache line). */
  public static final int BLOCK_BYTES = 64;

  /** The length of RocksDB's filter-block trailer. */
  static final int TRAILER_BYTES = 5;

  /** The smallest and largest bits/key the builders accept. */
  public static final double MIN_BITS_PER_KEY = 1.0;

  public static final double MAX_BITS_PER_KEY = 100.0;

  /** The words and the key count, for the cold operations. */
  private final BloomWords data;

  // Two storage forms, each with its own hot loop (one loop over both ran 5-60% slower on heap).
  /** The data on the heap; {@code null} when the filter wraps buffers ({@link #wrapped}). */
  private final long[] words;

  /** The data in (possibly memory-mapped) buffers, read in place; {@code null} on the heap. */
  private final LongSegments wrapped;

  private final int numBlocks;
  private final int numProbes;
  private final BatchScratch.ChunkProbe chunkProbe = this::probeChunk;

  /** Whether heap queries test this filter branch-free (small enough: in cache). */
  private final boolean branchFreeQueries;

  /** How keys become the hashes probed ({@link Filter#keyScheme()}). */
  private final KeyScheme keyScheme;

  BlockedBloomFilter(long[] words, int numProbes, long numKeys) {
    this(BloomWords.onHeap(words, numKeys), numProbes);
  }

  BlockedBloomFilter(BloomWords data, int numProbes) {
    this(data, numProbes, KeyScheme.XXPH3);
  }

  BlockedBloomFilter(BloomWords data, int numProbes, KeyScheme keyScheme) {
    this.keyScheme = keyScheme;
    this.data = data;
    this.words = data.heapOrNull();
    this.wrapped = data.wrappedOrNull();
    if (VECTOR_PROBE && words != null) {
      VectorGate.BLOCKED_BLOOM.watch(); // the SIMD path's warm-up thread, waiting for 2^20 lookups
    }
    this.numBlocks = (int) (data.numWords() / WORDS_PER_BLOCK);
    this.branchFreeQueries = (long) numBlocks * BLOCK_BYTES <= BRANCH_FREE_MAX_BYTES;
    this.numProbes = numProbes;
  }

  /** {@return a builder that sizes the filter by bits/key or by a target false-positive rate} */
  public static BlockedBloomFilterBuilder builder() {
    return new BlockedBloomFilterBuilder();
  }

  /**
   * An empty filter sized as RocksDB sizes one for {@code expectedKeys} keys at {@code bitsPerKey}:
   * adding exactly that many distinct keys gives the filter RocksDB builds.
   */
  public static BlockedBloomFilter createWithBitsPerKey(long expectedKeys, double bitsPerKey) {
    Checks.bitsPerKey(bitsPerKey, MIN_BITS_PER_KEY, MAX_BITS_PER_KEY);
    return BlockedBloomForm.createEmpty(
        expectedKeys, FastLocalBloomSizing.rocksDbMillibitsPerKey(bitsPerKey));
  }

  /**
   * An empty filter of {@code dataBytes} bytes (a positive multiple of 64, at most {@link
   * #MAX_DATA_BYTES}) with {@code numProbes} probes (1 to 30), for callers that choose the shape.
   */
  public static BlockedBloomFilter withShape(long dataBytes, int numProbes) {
    return BlockedBloomForm.withShape(dataBytes, numProbes);
  }

  /**
   * Builds the filter RocksDB's FastLocalBloom builder writes for these key hashes at {@code
   * millibitsPerKey} (with {@code optimize_filters_for_memory=false}): a hash equal to the one
   * before it is added once (RocksDB's consecutive de-duplication), the length comes from the
   * number of hashes left, and the probe count from {@code millibitsPerKey} (1000 to 100000).
   */
  public static BlockedBloomFilter buildRocksDb(long[] hashes, int count, int millibitsPerKey) {
    return BlockedBloomForm.build(hashes, count, millibitsPerKey);
  }

  /**
   * Reads a FastLocalBloom filter block as RocksDB writes it (data, 5-byte trailer), copying the
   * data; the trailer alone (zero keys) reads as a filter answering "absent". <b>No integrity
   * check:</b> a raw block has no checksum; the Sieve container checksums it.
   *
   * @throws SieveFormatException if the block is not one this reader supports ({@code
   *     docs/format.md} lists the checks)
   */
  public static BlockedBloomFilter fromRocksDbFilterBlock(byte[] block) {
    return fromRocksDbFilterBlock(block, 0);
  }

  /**
   * As {@link #fromRocksDbFilterBlock(byte[])}, recording {@code numKeys} (which RocksDB's format
   * does not store) for the model FPR.
   *
   * @throws SieveFormatException also for a block with no data and {@code numKeys > 0}
   * @throws IllegalArgumentException if {@code numKeys} is negative
   */
  public static BlockedBloomFilter fromRocksDbFilterBlock(byte[] block, long numKeys) {
    return BlockedBloomForm.read(block, numKeys);
  }

  /**
   * Wraps a FastLocalBloom filter block in a buffer from its position to its limit <em>without
   * copying</em>: its bytes must not change while the filter is in use. Read-only; no integrity
   * check; throws as {@link #fromRocksDbFilterBlock(byte[], long)}.
   */
  public static BlockedBloomFilter wrapRocksDbFilterBlock(ByteBuffer block, long numKeys) {
    return BlockedBloomForm.wrap(block, numKeys);
  }

  @Override
  public byte[] toRocksDbFilterBlock() {
    return BlockedBloomForm.toBytes(this);
  }

  @Override
  public long rocksDbFilterBlockLength() {
    return numBlocks == 0 ? 0 : (long) numBlocks * BLOCK_BYTES + TRAILER_BYTES;
  }

  @Override
  public void writeRocksDbFilterBlock(WritableByteChannel out) throws IOException {
    BlockedBloomForm.write(this, out);
  }

  /**
   * {@return whether heap queries take the SIMD line test once it is warm} True when the JVM runs
   * with {@code --add-modules jdk.incubator.vector} on hardware with 256-bit vectors. Until its
   * warm-up thread has seen the vector code compiled, queries run the scalar probe ({@code
   * VectorGate} describes the warm-up). The answers are the same either way (docs/journal.md).
   */
  public static boolean usesVectorProbe() {
    return VECTOR_PROBE && VectorGate.BLOCKED_BLOOM.supported();
  }

  /** {@return whether queries run the SIMD line test now ({@link #usesVectorProbe()} and warm)} */
  public static boolean vectorProbeActive() {
    return VECTOR_PROBE && (VectorGate.UNGATED || VectorGate.BLOCKED_BLOOM.isOpen());
  }

  @Override
  public KeyScheme keyScheme() {
    return keyScheme;
  }

  @Override
  public BlockedBloomFilter withKeyScheme(KeyScheme scheme) {
    Schemes.check(this, scheme);
    return scheme == keyScheme ? this : new BlockedBloomFilter(data, numProbes, scheme);
  }

  @Override
  public boolean mayContainHash(long hash64) {
    long[] w = words;
    if (w == null || numBlocks == 0) {
      return wrappedOrEmptyMayContain(hash64);
    }
    // heap and wrapped storage keep separate loops: one loop over a storage interface measured
    // slower on heap queries (docs/journal.md)
    int base = blockBase(hash64, numBlocks);
    int h = (int) (hash64 >>> 32);
    if (VECTOR_PROBE) {
      int k = numProbes;
      // the gate counts the scalar lookups, starting the warm-up after about 2^20 (VectorGate)
      if (VectorGate.UNGATED || VectorGate.BLOCKED_BLOOM.openFor(hash64)) {
        return k <= 8
            ? VectorLineProbe.oneGroup(w, base, h, k)
            : VectorLineProbe.groups(w, base, h, k);
      }
      // the gate is shut: the scalar test, for up to eight probes straight-line code (no loop, no
      // call), so that a caller's loop compiled with both sides of the gate stays an innermost
      // loop without calls, which C2 optimizes as the vector side alone (see upTo8)
      return k <= 8 ? upTo8(w, base, h, k) : earlyLoop(w, base, h, k);
    }
    if (branchFreeQueries) {
      return (allProbes(w, base, h, numProbes) & 1) != 0;
    }
    return numProbes == 6 ? early6(w, base, h) : earlyLoop(w, base, h, numProbes);
  }

  private boolean wrappedOrEmptyMayContain(long hash64) {
    if (numBlocks == 0) {
      return false; // built from zero keys
    }
    return earlyLoop(wrapped, blockBase(hash64, numBlocks), (int) (hash64 >>> 32), numProbes);
  }

  /**
   * Heap storage: the scalar batch is software-pipelined one chunk of 64 hashes deep (the next
   * chunk's blocks computed and both their cache lines requested before the current chunk is
   * tested); with the SIMD line test warm, one pass per chunk.
   */
  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    if (words == null || numBlocks == 0) {
      return MergeableFilter.super.mayContainHashes(hashes, off, len, resultBits);
    }
    // the gate counts batch lookups too (VectorGate.openAfter), so a batch-only workload warms it
    if (VECTOR_PROBE && (VectorGate.UNGATED || VectorGate.BLOCKED_BLOOM.openAfter(len))) {
      return BatchScratch.batch(hashes, off, len, resultBits, chunkProbe);
    }
    return pipelined(hashes, null, off, len, resultBits);
  }

  /**
   * As {@link Filter#mayContainBatch(long[], int, int, long[])}; on heap storage with the scalar
   * probe, the keys of the next chunk of 64 are hashed and their lines requested before the current
   * chunk is tested.
   */
  @Override
  public int mayContainBatch(long[] keys, int off, int len, long[] resultBits) {
    if (words == null
        || numBlocks == 0
        || keyScheme == KeyScheme.IDENTITY
        || (VECTOR_PROBE && (VectorGate.UNGATED || VectorGate.BLOCKED_BLOOM.openAfter(len)))) {
      return MergeableFilter.super.mayContainBatch(keys, off, len, resultBits);
    }
    return pipelined(keys, keyScheme, off, len, resultBits);
  }

  /**
   * The scalar batch over heap storage, software-pipelined one chunk of {@value BatchScratch#CHUNK}
   * keys deep: while chunk {@code c} is tested, chunk {@code c + 1} has been hashed, its blocks
   * computed and both cache lines each block can span requested (a {@code long[]}'s data is only
   * 16-byte aligned, so a 64-byte block straddles two lines three times in four).
   *
   * <p>Why this shape. Out of cache a batch is bound by the misses in flight: about 10-24 line-fill
   * buffers per core, and a reorder buffer of a few hundred micro-ops that a miss at its head
   * stalls. So the loop that requests lines is kept short ({@link #stage}: a multiply, a shift, two
   * loads per key, about 10 micro-ops, so some 20 keys' loads fit in the reorder buffer and fill
   * the buffers), with the hash work before it and the probe work after it. The 64 keys of a chunk
   * ask for ~112 lines, several times the fill buffers, so requests keep the memory system busy
   * through the whole staging loop; the 7 KiB they bring stay in L1 until the chunk is tested one
   * stage later, and that test (branch-free, {@link BlockedBloomKernel#all6}) overlaps the last
   * misses of the next chunk instead of waiting for its own. The loads' values are XORed into one
   * word stored in the thread's scratch, so the JIT cannot drop them.
   *
   * @param scheme the key scheme to hash {@code input} by; {@code null}: {@code input} holds hashes
   */
  private int pipelined(long[] input, KeyScheme scheme, int off, int len, long[] resultBits) {
    BatchScratch.checkBatch(input.length, off, len, resultBits.length);
    if (len == 0) {
      return 0;
    }
    BatchScratch scratch = BatchScratch.get();
    long[] current = scratch.loaded;
    long[] next = scratch.state;
    int chunkSize = BatchScratch.CHUNK;
    long touched = stage(input, scheme, off, Math.min(chunkSize, len), current, scratch.hashes);
    int count = 0;
    for (int done = 0; done < len; done += chunkSize) {
      int ahead = done + chunkSize;
      if (ahead < len) {
        touched ^=
            stage(
                input, scheme, off + ahead, Math.min(chunkSize, len - ahead), next, scratch.hashes);
      }
      long word = testStaged(current, Math.min(chunkSize, len - done));
      resultBits[done >>> 6] = word;
      count += Long.bitCount(word);
      long[] swap = current;
      current = next;
      next = swap;
    }
    scratch.positions[0] = (int) (touched ^ (touched >>> 32)); // keeps the staging loads
    return count;
  }

  /**
   * Stages {@code n <= 64} keys (hashed by {@code scheme} into {@code hashBuffer} first) or hashes
   * ({@code scheme == null}) from {@code input[at]} on: {@code staged[i]} gets the hash's probe
   * half ({@code h2}, the upper 32 bits) above the block's first word index, and both lines of the
   * block are requested. Returns the XOR of the words loaded.
   */
  private long stage(
      long[] input, KeyScheme scheme, int at, int n, long[] staged, long[] hashBuffer) {
    long[] source = input;
    int from = at;
    if (scheme != null) {
      if (scheme == KeyScheme.XXPH3) {
        KeyHash.hash64(input, at, n, hashBuffer, 0);
      } else {
        scheme.hash(input, at, n, hashBuffer, 0);
      }
      source = hashBuffer;
      from = 0;
    }
    long[] w = words;
    long blocks = numBlocks;
    long touched = 0;
    for (int i = 0; i < n; i++) {
      long hash = source[from + i];
      int base = (int) (((hash & 0xFFFFFFFFL) * blocks) >>> 32) * WORDS_PER_BLOCK;
      staged[i] = (hash & 0xFFFFFFFF00000000L) | base;
      touched ^= w[base] ^ w[base + WORDS_PER_BLOCK - 1];
    }
    return touched;
  }

  /**
   * The answers for {@code n} staged keys ({@link #stage}), branch-free: bit {@code i} for key i.
   */
  private long testStaged(long[] staged, int n) {
    long[] w = words;
    int k = numProbes;
    long word = 0;
    if (k == 6) {
      for (int i = 0; i < n; i++) {
        long e = staged[i];
        word |= (all6(w, (int) e, (int) (e >>> 32)) & 1) << i;
      }
    } else {
      for (int i = 0; i < n; i++) {
        long e = staged[i];
        word |= (allProbes(w, (int) e, (int) (e >>> 32), k) & 1) << i;
      }
    }
    return word;
  }

  /** One chunk through the SIMD line test (the gate is open): one pass, no staging. */
  private long probeChunk(long[] hashes, int at, int chunk) {
    long[] w = words;
    // one pass: the vector line test is short and branch-light, so the core overlaps the lines of
    // consecutive keys without a separate loading pass (which measured slower)
    int k = numProbes;
    long word = 0;
    for (int i = 0; i < chunk; i++) {
      long hash = hashes[at + i];
      int base = blockBase(hash, numBlocks);
      int h = (int) (hash >>> 32);
      if (k <= 8
          ? VectorLineProbe.oneGroup(w, base, h, k)
          : VectorLineProbe.groups(w, base, h, k)) {
        word |= 1L << i;
      }
    }
    return word;
  }

  @Override
  public boolean addHash(long hash64) {
    if (numBlocks == 0) {
      throw new IllegalStateException(
          "cannot add to a filter of zero blocks (built from zero keys)");
    }
    if (words == null) {
      throw new UnsupportedOperationException("a filter wrapping a buffer is read-only");
    }
    int base = blockBase(hash64, numBlocks);
    int h = (int) (hash64 >>> 32);
    boolean changed = BlockedBloomKernel.add(words, base, h, numProbes);
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
   * round(approximateElementCount()))}, not the sum, which would count shared keys twice.
   *
   * @throws IllegalArgumentException if the two filters differ in size or probes
   */
  @Override
  public void union(BlockedBloomFilter other) {
    data.checkMutable();
    Schemes.checkSame(this, other);
    BloomWords.checkSameShape(
        other.numBlocks == numBlocks && other.numProbes == numProbes,
        "cannot union filters of different shapes: ",
        sizeInBytes() + " bytes/" + numProbes + " probes",
        other.sizeInBytes() + " bytes/" + other.numProbes + " probes");
    data.union(other.data, this::approximateElementCount);
  }

  /**
   * Folds the filter to half its size: a new filter of {@code numBlocks() / 2} blocks and the same
   * probes that holds every key of this one, for a filter built too large. This filter is not
   * changed. Take the fold of a quiescent filter: keys added while it runs may be missing from the
   * result.
   *
   * <p>The fold is exact on RocksDB's layout: a key's block is {@code FastRange32(h1, n)} and its
   * probe positions come from {@code h2} alone, so for even {@code n} the key of block {@code j}
   * lives in block {@code floor(j/2)} of the folded filter, at the same bit positions: the folded
   * block {@code j} is the OR of blocks {@code 2j} and {@code 2j + 1}. Folding {@code t} times
   * needs {@code n} divisible by {@code 2^t}.
   *
   * <p>The cost: the fold is the filter of the same keys at {@code n/2} blocks and this probe
   * count, chosen for the larger size ({@link #foldedFpRate()}: at 20 bits/key and 11 probes, 1.46%
   * against 0.95% at RocksDB's 6 probes). A wrapped filter folds too; the result is on the heap.
   *
   * @throws IllegalStateException if the number of blocks is odd or below 2
   */
  public BlockedBloomFilter fold() {
    BlockedBloomKernel.checkFoldable(numBlocks);
    return new BlockedBloomFilter(
        BloomWords.onHeap(data.foldPairs(WORDS_PER_BLOCK), numKeys()), numProbes, keyScheme);
  }

  /**
   * The modelled rate of {@link #fold()}'s result: {@link BloomMath#fastLocalBloomFpRate} at half
   * the data bytes, the same probes and key count.
   *
   * @throws IllegalStateException if the filter cannot fold (an odd number of blocks, or one)
   */
  public double foldedFpRate() {
    BlockedBloomKernel.checkFoldable(numBlocks);
    return BloomMath.fastLocalBloomFpRate(numKeys(), sizeInBytes() / 2, numProbes, 64);
  }

  /**
   * Folds as often as the layout allows while the modelled rate stays at most {@code maxFpRate}:
   * the smallest exact fold of this filter meeting the rate ({@link #fold()}); this filter itself
   * when no fold meets it.
   */
  public BlockedBloomFilter shrink(double maxFpRate) {
    return BlockedBloomKernel.shrink(this, Checks.fpRate(maxFpRate));
  }

  /**
   * Block by block ({@link BloomMath#blockedBloomBlockElementCount}), within about 1% at the
   * designed load; once a block is full, from the zero bits of all blocks ({@code
   * BlockedBloomKernel} gives the math); a lower bound when {@linkplain #isSaturated() saturated}.
   */
  @Override
  public double approximateElementCount() {
    return BlockedBloomKernel.approximateElementCount(data, numBlocks, numProbes);
  }

  /** The mean over the blocks of {@code (bits set / 512)^k}: right whatever the key count. */
  @Override
  public double expectedFpRate() {
    return BlockedBloomKernel.expectedFpRate(data, numBlocks, numProbes);
  }

  /** Fewer zero bits than this in the whole filter make it {@linkplain #isSaturated saturated}. */
  public static final int SATURATION_ZERO_BITS = 32;

  /**
   * Whether fewer than {@value #SATURATION_ZERO_BITS} bits are 0 (at 10 bits/key, about 100 times
   * its capacity): the key count estimate is a lower bound and nearly every query answers "maybe".
   */
  public boolean isSaturated() {
    return BlockedBloomKernel.hasFewerZeroBits(data, numBlocks, SATURATION_ZERO_BITS);
  }

  @Override
  public BlockedBloomFilter copy() {
    return new BlockedBloomFilter(data.copy(), numProbes, keyScheme);
  }

  /** {@return whether the filter reads its data in place ({@link #wrapRocksDbFilterBlock})} */
  public boolean isWrapped() {
    return words == null;
  }

  /** {@return the words and the key count} */
  BloomWords data() {
    return data;
  }

  /** {@return the number of probes per key} */
  public int numProbes() {
    return numProbes;
  }

  /** {@return the number of 64-byte blocks} */
  public int numBlocks() {
    return numBlocks;
  }

  /** The distinct consecutive hashes built from, plus the adds that changed the filter. */
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
    return BloomMath.fastLocalBloomFpRate(numKeys(), sizeInBytes(), numProbes, 64);
  }

  /** {@return the fraction of bits that are set} */
  public double fractionOfBitsSet() {
    return numBlocks == 0 ? 0.0 : (double) data.bitCount() / sizeInBits();
  }

  /** Equal when the probes and the data bits are equal (the key count is not compared). */
  @Override
  public boolean equals(Object o) {
    return o instanceof BlockedBloomFilter other
        && other.numProbes == numProbes
        && other.keyScheme == keyScheme
        && other.data.sameWords(data);
  }

  @Override
  public int hashCode() {
    return 31 * data.wordsHash() + numProbes;
  }

  @Override
  public String toString() {
    return "BlockedBloomFilter{bytes="
        + sizeInBytes()
        + ", blocks="
        + numBlocks
        + ", probes="
        + numProbes
        + ", keys="
        + numKeys()
        + "}";
  }
}
