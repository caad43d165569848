package dev.sieve.bloom;

import static dev.sieve.bloom.BlockedBloomKernel.BRANCH_FREE_MAX_BYTES;
import static dev.sieve.bloom.BlockedBloomKernel.VECTOR_PROBE;
import static dev.sieve.bloom.BlockedBloomKernel.WORDS_PER_BLOCK;
import static dev.sieve.bloom.BlockedBloomKernel.blockBase;
import static dev.sieve.bloom.BlockedBloomKernel.branchFree;
import static dev.sieve.bloom.BlockedBloomKernel.early6;
import static dev.sieve.bloom.BlockedBloomKernel.earlyLoop;
import static dev.sieve.bloom.BlockedBloomKernel.upTo8;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.MergeableFilter;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.RocksDbFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.BatchScratch;
import dev.sieve.internal.Checks;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.PayloadForms;
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
 * Bits per key become thousandths ({@link #rocksDbMillibitsPerKey}), the data length is RocksDB's
 * ({@link #rocksDbDataBytes}) and the probe count comes from RocksDB's table of measured optima
 * ({@link #chooseNumProbes}: 6 at 10 bits/key, 9 at 16). The keys per block are Poisson, and
 * crowded blocks raise the FPR above the standard Bloom rate: 0.95% at 10 bits/key and 6 probes
 * against a standard filter's 0.84% ({@link BloomMath#cacheLocalFpRate}), a 1.13× tax for one cache
 * miss instead of up to six. The space cost stays Bloom's.
 *
 * <h2>Limits</h2>
 *
 * At most {@link #MAX_DATA_BYTES} data bytes (RocksDB's cap: {@code FastRange32} addresses at most
 * 2^32 blocks and RocksDB stores the length in 32 bits), i.e. just under 2^35 bits. The builder and
 * {@link #createWithBitsPerKey} refuse more keys than fit at the requested bits/key with an {@link
 * IllegalArgumentException} naming the limit; {@link #buildRocksDb} caps the length there, as
 * RocksDB does.
 *
 * <p>Reference: P. Dillinger, RocksDB util/bloom_impl.h and table/block_based/filter_policy.cc;
 * Putze, Sanders, Singler, "Cache-, Hash- and Space-Efficient Bloom Filters" (2007).
 */
public final class BlockedBloomFilter
    implements MergeableFilter<BlockedBloomFilter>, RocksDbFilter {
  // This class holds the API. The words and the key count are BloomWords'; the probe and add
  // loops over raw storage (and the layout's math) are BlockedBloomKernel's; the RocksDB block's
  // bytes, its trailer checks and RocksDB's sizing are BlockedBloomForm's.

  /** The largest data length RocksDB's FastLocalBloom supports, in bytes. */
  public static final long MAX_DATA_BYTES = 0xffffffc0L;

  /** Bytes per block (one cache line). */
  public static final int BLOCK_BYTES = 64;

  /** The length of RocksDB's filter-block trailer. */
  static final int TRAILER_BYTES = 5;

  /** The smallest and largest bits/key the builders accept. */
  public static final double MIN_BITS_PER_KEY = 1.0;

  public static final double MAX_BITS_PER_KEY = 100.0;

  /** The words and the key count, for the cold operations (union, copy, equals, bytes). */
  private final BloomWords data;

  // Two storage forms, each with its own hot loop in the query methods: one loop over a common
  // storage interface ran 5-60% slower on heap queries in a quick harness (api-and-house.md, 2);
  // so the probes read these raw fields (data's storage), and every cold method goes to data.
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
      VectorGate.BLOCKED_BLOOM.start(); // the warm-up of the SIMD path, once per JVM
    }
    this.numBlocks = (int) (data.numWords() / WORDS_PER_BLOCK);
    this.branchFreeQueries = (long) numBlocks * BLOCK_BYTES <= BRANCH_FREE_MAX_BYTES;
    this.numProbes = numProbes;
  }

  static {
    PayloadForms.register(new BlockedBloomForm.Payload()); // the container's form of type id 1
  }

  // ---------------------------------------------------------------- creation

  /** {@return a builder that sizes the filter by bits/key or by a target false-positive rate} */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * An empty filter sized, as RocksDB would size it, for {@code expectedKeys} keys at {@code
   * bitsPerKey} (the same as {@code builder().expectedKeys(expectedKeys).bitsPerKey(bitsPerKey)
   * .create()}). Adding exactly {@code expectedKeys} distinct keys to it gives the filter RocksDB
   * builds over them.
   */
  public static BlockedBloomFilter createWithBitsPerKey(long expectedKeys, double bitsPerKey) {
    Checks.bitsPerKey(bitsPerKey, MIN_BITS_PER_KEY, MAX_BITS_PER_KEY);
    return BlockedBloomForm.createEmpty(expectedKeys, rocksDbMillibitsPerKey(bitsPerKey));
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
   * number of hashes left, and the probe count from {@code millibitsPerKey}.
   *
   * @param hashes 64-bit key hashes in the order RocksDB adds them (key order in an SST)
   * @param count how many entries of {@code hashes} to use
   * @param millibitsPerKey thousandths of a bit per key, 1000 to 100000 ({@link
   *     #rocksDbMillibitsPerKey})
   */
  public static BlockedBloomFilter buildRocksDb(long[] hashes, int count, int millibitsPerKey) {
    return BlockedBloomForm.build(hashes, count, millibitsPerKey);
  }

  /**
   * Reads a FastLocalBloom filter block as RocksDB writes it (data then the 5-byte trailer). The
   * data is copied.
   *
   * <p>A 5-byte block (the trailer alone, which RocksDB writes for zero keys) reads as an empty
   * filter that reports every key absent.
   *
   * <p><b>No integrity check:</b> a raw block carries no checksum, so a changed byte (the probe
   * count, the length) gives another well-formed filter that can answer "absent" for added keys;
   * store filters in the checksummed container ({@link dev.sieve.format.SieveFormat}) and read raw
   * blocks only where something else checks them (RocksDB's block trailers, as {@code SstFile}
   * verifies).
   *
   * @throws SieveFormatException if the block is not a FastLocalBloom block this reader supports:
   *     shorter than the trailer, a data length that is not a multiple of 64, a trailer other than
   *     {@code FF 00 probes 00 00}, or probes outside 1..30. (RocksDB's own reader answers "maybe"
   *     for every key on the reserved trailer values; Sieve's typed reader refuses them so a caller
   *     never mistakes such a block for a working filter.)
   */
  public static BlockedBloomFilter fromRocksDbFilterBlock(byte[] block) {
    return fromRocksDbFilterBlock(block, 0);
  }

  /**
   * As {@link #fromRocksDbFilterBlock(byte[])}, recording {@code numKeys} (which RocksDB's format
   * does not store) for the model FPR: the keys added to the filter (not, say, the entries of a
   * table whose prefix filter skipped some). Carries no integrity check either (see there).
   *
   * @throws SieveFormatException also for a block with no data (0 bytes, or the trailer alone) and
   *     {@code numKeys > 0}: such a block answers "absent" for every key, so it cannot hold any
   * @throws IllegalArgumentException if {@code numKeys} is negative
   */
  public static BlockedBloomFilter fromRocksDbFilterBlock(byte[] block, long numKeys) {
    return BlockedBloomForm.read(block, numKeys);
  }

  /**
   * Wraps a FastLocalBloom filter block held in a buffer (heap, direct or memory-mapped) from its
   * position to its limit, <em>without copying</em>: queries read the buffer in place. The buffer's
   * bytes must not change while the filter is in use; its position and limit may. The wrapped
   * filter is read-only ({@link #addHash} throws {@link UnsupportedOperationException}).
   *
   * <p><b>No integrity check:</b> a raw block carries no checksum, so a changed byte (the probe
   * count, the length) gives another well-formed filter that can answer "absent" for added keys;
   * store filters in the checksummed container ({@link dev.sieve.format.SieveFormat}) and read raw
   * blocks only where something else checks them (RocksDB's block trailers, as {@code SstFile}
   * verifies).
   *
   * @throws SieveFormatException as {@link #fromRocksDbFilterBlock(byte[], long)}, including a
   *     block with no data and {@code numKeys > 0}
   * @throws IllegalArgumentException if {@code numKeys} is negative
   */
  public static BlockedBloomFilter wrapRocksDbFilterBlock(ByteBuffer block, long numKeys) {
    return BlockedBloomForm.wrap(block, numKeys);
  }

  /**
   * The filter block RocksDB writes for this filter: the data followed by the 5-byte trailer, or,
   * for a filter of zero blocks (built from zero keys), the empty block RocksDB writes then.
   */
  @Override
  public byte[] toRocksDbFilterBlock() {
    return BlockedBloomForm.toBytes(this);
  }

  /** The length of {@link #toRocksDbFilterBlock()}: the data plus the trailer, 0 when empty. */
  @Override
  public long rocksDbFilterBlockLength() {
    return numBlocks == 0 ? 0 : (long) numBlocks * BLOCK_BYTES + TRAILER_BYTES;
  }

  /**
   * Writes {@link #toRocksDbFilterBlock()}'s bytes to {@code out} in 64 KiB chunks, for filters of
   * any size up to {@link #MAX_DATA_BYTES} (beyond what one {@code byte[]} holds). The channel is
   * not closed.
   */
  @Override
  public void writeRocksDbFilterBlock(WritableByteChannel out) throws IOException {
    BlockedBloomForm.write(this, out);
  }

  // ---------------------------------------------------------------- RocksDB's sizing rules

  /**
   * RocksDB's conversion of a bits/key setting to thousandths of a bit ({@code
   * BloomLikeFilterPolicy}): {@code (int) (bits · 1000 + 0.500001)}, the nudge making three-decimal
   * settings exact on every platform. The caller range-checks {@code bitsPerKey}.
   */
  public static int rocksDbMillibitsPerKey(double bitsPerKey) {
    return BloomMath.rocksDbMillibitsPerKey(bitsPerKey);
  }

  /**
   * RocksDB's data length in bytes for {@code numKeys} keys at {@code millibitsPerKey}: {@code
   * ceil(n · millibits / 8000)} capped at {@link #MAX_DATA_BYTES}, rounded up to a multiple of 64.
   */
  public static long rocksDbDataBytes(long numKeys, int millibitsPerKey) {
    return BlockedBloomForm.dataBytes(numKeys, millibitsPerKey);
  }

  /**
   * RocksDB's probe count for a setting in thousandths of a bit per key ({@code
   * FastLocalBloomImpl::ChooseNumProbes}): the most accurate count measured for each range, up to
   * 24 probes.
   */
  public static int chooseNumProbes(int millibitsPerKey) {
    return BloomMath.fastLocalBloomNumProbes(millibitsPerKey);
  }

  /**
   * The smallest millibits/key setting whose modelled rate ({@link BloomMath#cacheLocalFpRate} at
   * RocksDB's probe count) is at most {@code fpRate}; {@code 100000} if none is.
   */
  public static int millibitsPerKeyForFpRate(double fpRate) {
    return BlockedBloomForm.millibitsPerKeyForFpRate(fpRate);
  }

  // ---------------------------------------------------------------- the filter

  /**
   * Whether this JVM's queries of heap-resident blocked Bloom filters take the SIMD line test
   * (eight probes per vector operation through {@code jdk.incubator.vector}) once it is warm: true
   * when the JVM runs with {@code --add-modules jdk.incubator.vector} on hardware with 256-bit
   * vectors. The answers are the same either way; only the speed differs (docs/notes.md, section
   * 6).
   *
   * <p><b>Warm-up.</b> Interpreted, the vector code costs about 100 µs a lookup (C1-compiled about
   * 5 µs) until C2 has compiled it. So the first heap filter created starts one daemon thread,
   * {@code sieve-vector-warmup}, which drives the vector code on private data until it measures it
   * compiled (typically 0.2-1.5 s of one core's time, most of it the JIT's, then the thread ends);
   * until then queries run the scalar probe, so a short-lived JVM's lookups cost what they cost
   * without the module, never more, plus that thread's CPU time. {@link #vectorProbeActive()} says
   * whether the switch has happened. Where the vector code never gets fast (C2 disabled, {@code
   * -Xint}) the scalar probe stays. {@code -Dsieve.vector.warmup=false} switches at once (the cold
   * vector code is then paid in full).
   *
   * @return whether queries use the SIMD path, now or once it is warm
   */
  public static boolean usesVectorProbe() {
    return VECTOR_PROBE && VectorGate.BLOCKED_BLOOM.supported();
  }

  /**
   * Whether queries of heap-resident blocked Bloom filters run the SIMD line test now: {@link
   * #usesVectorProbe()} and its warm-up has seen the vector code compiled (see there). False until
   * the first heap filter has been created and for a while after.
   *
   * @return whether the SIMD path is in use at this moment
   */
  public static boolean vectorProbeActive() {
    return VECTOR_PROBE && (VectorGate.UNGATED || VectorGate.BLOCKED_BLOOM.isOpen());
  }

  /** {@inheritDoc} */
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
    // 5-60% slower on heap queries (docs/notes.md)
    int base = blockBase(hash64, numBlocks);
    int h = (int) (hash64 >>> 32);
    if (VECTOR_PROBE) {
      int k = numProbes;
      if (VectorGate.UNGATED || VectorGate.BLOCKED_BLOOM.isOpen()) {
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
      return (branchFree(w, base, h, numProbes) & 1) != 0;
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
   * {@inheritDoc}
   *
   * <p>Two passes over each chunk of 64 hashes (scalar path): the first computes every block and
   * loads its first and last word (independent loads in a short loop, so the CPU overlaps about 20
   * cache misses, both lines of a block that straddles two); the second tests all probes of each
   * key without a data-dependent branch, its block now in cache.
   */
  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    if (words == null || numBlocks == 0) {
      return MergeableFilter.super.mayContainHashes(hashes, off, len, resultBits);
    }
    return BatchScratch.batch(hashes, off, len, resultBits, chunkProbe);
  }

  private long probeChunk(long[] hashes, int at, int chunk) {
    long[] w = words;
    if (VECTOR_PROBE && (VectorGate.UNGATED || VectorGate.BLOCKED_BLOOM.isOpen())) {
      // one pass: the vector line test is short and branch-light, so the core overlaps the
      // lines of consecutive keys without a separate loading pass (which measured slower)
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
    BatchScratch scratch = BatchScratch.get();
    int[] bases = scratch.positions;
    long[] touched = scratch.loaded;
    long blocks = numBlocks;
    int k = numProbes;
    // pass 1: request both cache lines a block can span (a long[]'s data is only 16-byte aligned,
    // so a 64-byte block usually straddles two lines): its first and last word. The store into
    // the scratch keeps the loads; pass 2 reads the words again, from cache. Loading only the
    // first probe's word left the other line to pass 2, whose long tests let few misses overlap:
    // 1.5-2.5x slower at 10^8 keys (docs/notes.md, section 6)
    for (int i = 0; i < chunk; i++) {
      int base = (int) (((hashes[at + i] & 0xFFFFFFFFL) * blocks) >>> 32) * WORDS_PER_BLOCK;
      bases[i] = base;
      touched[i] = w[base] ^ w[base + WORDS_PER_BLOCK - 1];
    }
    // pass 2: all probes of each key, without a data-dependent branch
    long word = 0;
    for (int i = 0; i < chunk; i++) {
      int h = (int) (hashes[at + i] >>> 32);
      word |= (branchFree(w, bases[i], h, k) & 1) << i;
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
   * round(approximateElementCount()))}: the union's distinct keys estimated from its set bits,
   * never below either count, and not the sum of the two counts, which would count the keys the
   * filters share twice (unioning a filter with itself 20 times multiplied its count by 2^20). So
   * {@link #numKeys()} and {@link #modelledFpRate()} follow the estimate after a union; keys added
   * concurrently with the union are counted on top.
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
   * <h4>The cost</h4>
   *
   * The folded filter is exactly the filter of the same keys built with {@code n/2} blocks and this
   * filter's probe count; its rate is {@link #foldedFpRate()}: the model at half the bits per key,
   * with the probe count chosen for the larger size (at 20 bits/key and 11 probes the fold has 10
   * bits/key and 11 probes: 1.46% in the model, against 0.95% at RocksDB's 6 probes; the unfolded
   * filter: 0.017%).
   *
   * <p>A wrapped filter folds too; the result is on the heap.
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
   * The number of distinct keys the filter holds, estimated from its set bits: block by block
   * ({@link BloomMath#blockedBloomBlockElementCount}, summed over the blocks), within about 1% for
   * a filter at its designed load ({@code n ≥ 10^4}). Once some block has every bit set (an
   * overfilled filter: at 10× its capacity about a quarter of the blocks are full) a full block's
   * count is unknowable, so the estimate pools the zero bits of all blocks instead: with the keys
   * per block Poisson with mean {@code λ}, the expected fraction of zero bits is {@code exp(-λ(1 -
   * (1 - 1/512)^k))}, solved for {@code λ} (within a few percent at 10× capacity, see {@code
   * BloomOverfillTest}). With fewer than {@value #SATURATION_ZERO_BITS} zero bits in the whole
   * filter it is {@linkplain #isSaturated() saturated}: the estimate is then only a lower bound. It
   * reads every word, so it costs a pass over the filter. {@link #union} uses it for the key count;
   * it is also the way to learn the key count of a filter read from a raw RocksDB block, which does
   * not store it.
   */
  @Override
  public double approximateElementCount() {
    return BlockedBloomKernel.approximateElementCount(data, numBlocks, numProbes);
  }

  /**
   * The filter's false-positive rate judged from its bits: the mean over the blocks of {@code (bits
   * set in the block / 512)^k}, the probability that all {@code k} probes of a random absent key
   * land on set bits of its block. Right whatever the key count: for a filter read from a RocksDB
   * block (which does not store the count) and for one overfilled past its capacity, where {@link
   * #modelledFpRate()} (from {@link #numKeys()}) is not.
   */
  @Override
  public double expectedFpRate() {
    return BlockedBloomKernel.expectedFpRate(data, numBlocks, numProbes);
  }

  /** Fewer zero bits than this in the whole filter make it {@linkplain #isSaturated saturated}. */
  public static final int SATURATION_ZERO_BITS = 32;

  /**
   * Whether the filter is so full that its key count cannot be estimated: fewer than {@value
   * #SATURATION_ZERO_BITS} of its bits are 0 (at 10 bits/key, about 100 times its capacity). Then
   * {@link #approximateElementCount()} is a lower bound and nearly every query answers "maybe"
   * ({@link #expectedFpRate()} close to 1).
   */
  public boolean isSaturated() {
    return BlockedBloomKernel.hasFewerZeroBits(data, numBlocks, SATURATION_ZERO_BITS);
  }

  /** An independent, mutable copy of this filter on the heap. */
  @Override
  public BlockedBloomFilter copy() {
    return new BlockedBloomFilter(data.copy(), numProbes, keyScheme);
  }

  /**
   * {@return whether the filter reads its data in place from buffers ({@link
   * #wrapRocksDbFilterBlock})}
   */
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

  /**
   * The number of keys: for a built filter, the distinct consecutive hashes it was built from; for
   * keys added later, the adds that changed the filter (a duplicate never does, and a new key fails
   * to only when it was a false positive). A filter read from bytes starts at 0, the key count not
   * being part of RocksDB's format. After a {@link #union} it is the estimate described there.
   */
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

  /** Builds {@link BlockedBloomFilter}s with RocksDB's sizing (see the class comment). */
  public static final class Builder extends MutableFilterBuilder<BlockedBloomFilter> {
    /** {@inheritDoc} */
    @Override
    public Builder keyScheme(KeyScheme scheme) {
      super.keyScheme(scheme);
      return this;
    }

    private int millibitsPerKey = 10_000;

    private Builder() {}

    /**
     * Sets bits per key, fractional, in [1, 100] (default 10).
     *
     * @param bitsPerKey the setting
     * @return this builder
     */
    public Builder bitsPerKey(double bitsPerKey) {
      Checks.bitsPerKey(bitsPerKey, MIN_BITS_PER_KEY, MAX_BITS_PER_KEY);
      millibitsPerKey = rocksDbMillibitsPerKey(bitsPerKey);
      return this;
    }

    /**
     * Sizes for a target false-positive rate: the smallest bits/key (in thousandths) whose modelled
     * rate is at most {@code fpRate}, up to 100 bits/key.
     */
    @Override
    public Builder fpRate(double fpRate) {
      millibitsPerKey = millibitsPerKeyForFpRate(fpRate);
      return this;
    }

    /** {@return the setting in thousandths of a bit per key} */
    public int millibitsPerKey() {
      return millibitsPerKey;
    }

    @Override
    public Builder expectedKeys(long expectedKeys) {
      super.expectedKeys(expectedKeys);
      return this;
    }

    /**
     * {@inheritDoc} Sized as RocksDB sizes a filter for that many keys at the configured
     * millibits/key: adding exactly {@code expectedKeys} distinct keys gives RocksDB's filter.
     */
    @Override
    protected BlockedBloomFilter createEmpty() {
      return BlockedBloomForm.createEmpty(expectedKeys(), millibitsPerKey);
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException where RocksDB would cap the length at {@link
     *     #MAX_DATA_BYTES} (and so miss the requested rate); {@link #buildRocksDb} caps as RocksDB
     *     does
     */
    @Override
    protected BlockedBloomFilter buildFromHashes(long[] hashes, int count) {
      BlockedBloomForm.checkFits(count, millibitsPerKey);
      return buildRocksDb(hashes, count, millibitsPerKey);
    }
  }
}
