package dev.sieve.bench;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.hash.KeyHash;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The SIMD experiment of issue 11: a FastLocalBloom query whose probes run eight at a time as one
 * vector operation through {@code jdk.incubator.vector}, in the manner of RocksDB's AVX2 path: the
 * probe positions {@code h2 · 0x9e3779b9^i >>> 23} of all lanes in one multiply and shift, the
 * 512-bit line loaded as two 256-bit vectors of eight 32-bit words, each lane's word picked by a
 * two-vector rearrange, and one mask test. It queries a copy of a real {@link BlockedBloomFilter}'s
 * bytes, so its answers are the library's (the bench test checks this).
 *
 * <p>Bench-only: it exists to measure whether the Vector API beats the scalar probe loop by the 20%
 * the issue asks before such a path may enter {@code sieve-core}. Needs {@code --add-modules
 * jdk.incubator.vector} at compile and run time ({@link Diagnostics#vectorModulePresent()}).
 */
public final class VectorBlockedBloom implements Membership {
  private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_256;
  private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_256;
  private static final IntVector MULTIPLIERS;

  static {
    int[] m = new int[8];
    int x = 1;
    for (int i = 0; i < 8; i++) {
      m[i] = x;
      x *= 0x9e3779b9;
    }
    MULTIPLIERS = IntVector.fromArray(INTS, m, 0);
  }

  /** {@code 0x9e3779b9^8}: the multiplier from one group of eight probes to the next. */
  private static final int GROUP_STEP;

  static {
    int x = 1;
    for (int i = 0; i < 8; i++) {
      x *= 0x9e3779b9;
    }
    GROUP_STEP = x;
  }

  private final long[] words;
  private final int numBlocks;
  private final int numProbes;
  private final VectorMask<Integer> unusedLanes;
  private final BlockedBloomFilter filter;

  private VectorBlockedBloom(BlockedBloomFilter filter) {
    if (filter.numBlocks() == 0) {
      throw new IllegalArgumentException("the vector path needs a filter of at least one block");
    }
    this.filter = filter;
    byte[] block = filter.toRocksDbFilterBlock();
    int dataLen = block.length - BlockedBloomFilter.TRAILER_BYTES;
    this.words = new long[dataLen / 8];
    ByteBuffer.wrap(block, 0, dataLen).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(words);
    this.numBlocks = filter.numBlocks();
    this.numProbes = filter.numProbes();
    // lanes past the last probe of the last group of eight
    boolean[] unused = new boolean[8];
    int inLastGroup = (numProbes - 1) % 8 + 1;
    for (int i = inLastGroup; i < 8; i++) {
      unused[i] = true;
    }
    this.unusedLanes = VectorMask.fromArray(INTS, unused, 0);
  }

  /** Builds the library's filter over the keys, then its vector copy. */
  public static VectorBlockedBloom build(long[] keys, double bitsPerKey) {
    return new VectorBlockedBloom(BlockedBloomFilter.builder().bitsPerKey(bitsPerKey).build(keys));
  }

  /** The vector query of a 64-bit key hash: eight probes per vector step. */
  public boolean mayContainHash(long hash64) {
    int base = (int) (((hash64 & 0xFFFFFFFFL) * numBlocks) >>> 32) * 8;
    IntVector low = LongVector.fromArray(LONGS, words, base).reinterpretAsInts();
    IntVector high = LongVector.fromArray(LONGS, words, base + 4).reinterpretAsInts();
    int h = (int) (hash64 >>> 32);
    for (int group = 0; group < numProbes; group += 8) {
      IntVector pos =
          IntVector.broadcast(INTS, h)
              .mul(MULTIPLIERS)
              .lanewise(VectorOperators.LSHR, 23); // 0..511 in the line
      IntVector word = pos.lanewise(VectorOperators.LSHR, 5); // 32-bit word 0..15
      IntVector bit = IntVector.broadcast(INTS, 1).lanewise(VectorOperators.LSHL, pos.and(31));
      // each lane's word: from the low half for 0..7, the high half for 8..15. (The one-op form,
      // low.rearrange(word.toShuffle(), high) with 8..15 as exceptional indexes, gave false
      // negatives on JDK 17.0.15 after some 10^4 queries, i.e. once compiled;
      // VectorBlockedBloomTest.)
      VectorShuffle<Integer> pick = word.and(7).toShuffle();
      IntVector selected =
          low.rearrange(pick).blend(high.rearrange(pick), word.compare(VectorOperators.GE, 8));
      VectorMask<Integer> set = selected.and(bit).compare(VectorOperators.NE, 0);
      if (!(group + 8 >= numProbes ? set.or(unusedLanes) : set).allTrue()) {
        return false;
      }
      h *= GROUP_STEP;
    }
    return true;
  }

  @Override
  public boolean mayContain(long key) {
    return mayContainHash(KeyHash.hash64(key));
  }

  @Override
  public long sizeInBits() {
    return filter.sizeInBits();
  }

  @Override
  public double modelFpRate() {
    return filter.modelledFpRate();
  }

  @Override
  public Object root() {
    return words;
  }
}
