package dev.sieve.bloom;

import static dev.sieve.bloom.BlockedBloomKernel.VECTOR_PROBE;
import static dev.sieve.bloom.BlockedBloomKernel.WORDS_PER_BLOCK;
import static dev.sieve.bloom.BlockedBloomKernel.all6;
import static dev.sieve.bloom.BlockedBloomKernel.blockBase;
import static dev.sieve.bloom.BlockedBloomKernel.early6;
import static dev.sieve.bloom.BlockedBloomKernel.earlyLoop;
import static dev.sieve.bloom.BlockedBloomKernel.upTo8;
import static dev.sieve.bloom.BlockedBloomKernel.vectorBatch;

import dev.sieve.KeyScheme;
import dev.sieve.MergeableFilter;
import dev.sieve.RocksDbFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.Schemes;
import dev.sieve.internal.base.BatchScratch;
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
 * Bits/key, data length and probe count are RocksDB's ({@link FastLocalBloomSizing}: 6 probes at 10
 * bits/key, 9 at 16). The keys per block are Poisson, and crowded blocks raise the FPR above the
 * standard Bloom rate: 0.95% at 10 bits/key and 6 probes against a standard filter's 0.84% ({@link
 * BloomMath#cacheLocalFpRate}), a 1.13× tax for one cache miss instead of up to six; the space cost
 * stays Bloom's. {@code BlockedBloomKernel} gives the layout, the math and the probe forms. At most
 * {@link #MAX_DATA_BYTES} data bytes (RocksDB's cap, just under 2^35 bits): the builder and {@link
 * #createWithBitsPerKey} refuse more keys than fit; {@link #buildRocksDb} caps there.
 *
 * <p>Reference: P. Dillinger, RocksDB util/bloom_impl.h and table/block_based/filter_policy.cc;
 * Putze, Sanders, Singler, "Cache-, Hash- and Space-Efficient Bloom Filters" (2007).
 */
public final class BlockedBloomFilter
    implements MergeableFilter<BlockedBloomFilter>, RocksDbFilter {
  // The API; the words are BloomWords', the loops BlockedBloomKernel's, the bytes the form's.

  /** The largest data length RocksDB's FastLocalBloom supports, in bytes. */
  public static final long MAX_DATA_BYTES = 0xffffffc0L;

  /** Bytes per block (one cache line). */
  public static final int BLOCK_BYTES = 64;

  /** The words and the key count, for the cold operations. */
  private final BloomWords data;

  /** The data on the heap (own loops: {@code BloomWords} gives why), else {@code null}. */
  private final long[] words;

  /** The data in (possibly memory-mapped) buffers, read in place; {@code null} on the heap. */
  private final LongSegments wrapped;

  private final int numBlocks;
  private final int numProbes;
  private final KeyScheme keyScheme;
  private final BlockedBloomVectorChunk chunkProbe; // null where the SIMD path cannot run

  BlockedBloomFilter(BloomWords data, int numProbes, KeyScheme keyScheme) {
    this.keyScheme = keyScheme;
    this.data = data;
    this.words = data.heapOrNull();
    this.wrapped = data.wrappedOrNull();
    this.numBlocks = (int) (data.numWords() / BlockedBloomKernel.WORDS_PER_BLOCK);
    this.numProbes = numProbes;
    this.chunkProbe = BlockedBloomVectorChunk.forHeap(words, numBlocks, numProbes);
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
    return BlockedBloomForm.createWithBitsPerKey(expectedKeys, bitsPerKey);
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
    return numBlocks == 0 ? 0 : (long) numBlocks * BLOCK_BYTES + BlockedBloomForm.TRAILER_BYTES;
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

  // mayContainHash's heap scalar path written out, the hash from the scheme field: a fresh JVM
  // interprets its first lookups, where a call level costs about as much as the probe's arithmetic
  @Override
  public boolean mayContain(long key) {
    KeyScheme s = keyScheme;
    long hash64 =
        s == KeyScheme.XXPH3
            ? KeyHash.hash64(key)
            : s == KeyScheme.FAST || s == KeyScheme.MIX64 ? KeyHash.mix64(key) : s.hash(key);
    long[] w = words;
    int n = numBlocks;
    if (VECTOR_PROBE || w == null || n == 0) { // the gate counts the lookup there, as a hash's
      return mayContainHash(hash64);
    }
    int base = (int) (((hash64 & 0xFFFFFFFFL) * n) >>> 32) * WORDS_PER_BLOCK; // blockBase
    int h = (int) (hash64 >>> 32);
    int k = numProbes;
    if (n <= BlockedBloomKernel.BRANCH_FREE_MAX_BLOCKS) {
      return ((k == 6 ? all6(w, base, h) : BlockedBloomKernel.allProbes(w, base, h, k)) & 1) != 0;
    }
    return k == 6 ? early6(w, base, h) : earlyLoop(w, base, h, k);
  }

  @Override
  public boolean mayContainHash(long hash64) {
    long[] w = words;
    if (w == null || numBlocks == 0) {
      return BlockedBloomKernel.wrappedOrEmpty(wrapped, numBlocks, numProbes, hash64);
    }
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
      // the gate is shut: the scalar test, straight-line up to eight probes (upTo8 gives why)
      return k <= 8 ? upTo8(w, base, h, k) : earlyLoop(w, base, h, k);
    }
    if (numBlocks <= BlockedBloomKernel.BRANCH_FREE_MAX_BLOCKS) { // small: in cache
      return (BlockedBloomKernel.allProbes(w, base, h, numProbes) & 1) != 0;
    }
    return numProbes == 6 ? early6(w, base, h) : earlyLoop(w, base, h, numProbes);
  }

  /**
   * Heap storage: the scalar batch software-pipelined a chunk of 64 hashes deep ({@code
   * BlockedBloomBatch}); with the SIMD line test warm, one pass per chunk.
   */
  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    if (words == null || numBlocks == 0) {
      return MergeableFilter.super.mayContainHashes(hashes, off, len, resultBits);
    }
    if (vectorBatch(len)) {
      return BatchScratch.batch(hashes, off, len, resultBits, chunkProbe);
    }
    return BlockedBloomBatch.pipelined(
        words, numBlocks, numProbes, hashes, null, off, len, resultBits);
  }

  @Override
  public int mayContainBatch(long[] keys, int off, int len, long[] resultBits) {
    if (words == null || numBlocks == 0 || keyScheme == KeyScheme.IDENTITY || vectorBatch(len)) {
      return MergeableFilter.super.mayContainBatch(keys, off, len, resultBits);
    }
    return BlockedBloomBatch.pipelined(
        words, numBlocks, numProbes, keys, keyScheme, off, len, resultBits);
  }

  @Override
  public boolean addHash(long hash64) {
    return BlockedBloomKernel.addHash(words, data, numBlocks, numProbes, hash64);
  }

  /**
   * {@inheritDoc} Here the count is {@code max(numKeys(), other.numKeys(),
   * round(approximateElementCount()))}, not the sum, which would count shared keys twice.
   */
  @Override
  public void union(BlockedBloomFilter other) {
    BlockedBloomKernel.union(this, other);
  }

  /**
   * Folds the filter to half its size, for a filter built too large: a new filter of {@code
   * numBlocks() / 2} blocks and the same probes holding every key of this one, exact on RocksDB's
   * layout ({@code BlockedBloomFolding} gives why); this filter is not changed (fold a quiescent
   * one: keys added meanwhile may be missing). Folding {@code t} times needs {@code numBlocks()}
   * divisible by {@code 2^t}. The cost: the probe count was chosen for the larger size ({@link
   * #foldedFpRate()}). A wrapped filter folds too; the result is on the heap.
   *
   * @throws IllegalStateException if the number of blocks is odd or below 2
   */
  public BlockedBloomFilter fold() {
    return BlockedBloomFolding.fold(this);
  }

  /**
   * The modelled rate of {@link #fold()}'s result: {@link BloomMath#fastLocalBloomFpRate} at half
   * the data bytes, the same probes and key count.
   *
   * @throws IllegalStateException if the filter cannot fold (an odd number of blocks, or one)
   */
  public double foldedFpRate() {
    return BlockedBloomFolding.foldedFpRate(this);
  }

  /**
   * Folds as often as the layout allows while the modelled rate stays at most {@code maxFpRate}:
   * the smallest exact fold of this filter meeting the rate ({@link #fold()}); this filter itself
   * when no fold meets it.
   */
  public BlockedBloomFilter shrink(double maxFpRate) {
    return BlockedBloomFolding.shrink(this, maxFpRate);
  }

  /**
   * Block by block ({@link BloomMath#blockedBloomBlockElementCount}), within about 1% at the
   * designed load; once a block is full, from the zero bits of all blocks ({@code
   * BlockedBloomKernel} gives the math); a lower bound when {@linkplain #isSaturated() saturated}.
   */
  @Override
  public double approximateElementCount() {
    return BlockedBloomCounts.approximateElementCount(data, numBlocks, numProbes);
  }

  /** The mean over the blocks of {@code (bits set / 512)^k}: right whatever the key count. */
  @Override
  public double expectedFpRate() {
    return BlockedBloomCounts.expectedFpRate(data, numBlocks, numProbes);
  }

  /**
   * Whether fewer than 32 bits are 0 (at 10 bits/key, about 100 times its capacity): the key count
   * estimate is a lower bound and nearly every query answers "maybe".
   */
  public boolean isSaturated() {
    return BlockedBloomCounts.isSaturated(data, numBlocks);
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
    return "BlockedBloomFilter{bytes=%d, blocks=%d, probes=%d, keys=%d}"
        .formatted(sizeInBytes(), numBlocks, numProbes, numKeys());
  }
}
