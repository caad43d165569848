package dev.sieve.bloom;

import dev.sieve.internal.base.BatchScratch;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Parquet's split-block Bloom check in one 256-bit vector, through {@code jdk.incubator.vector}:
 * the SIMD path of {@link SplitBlockBloomFilter}, the form the layout was designed for (Parquet's
 * BloomFilter.md; Arrow's and Impala's AVX2 code do the same).
 *
 * <h2>The idea</h2>
 *
 * A split-block block is eight 32-bit words and a value sets one bit in each: bit {@code (key ·
 * SALT[i]) >>> 27} of word {@code i}. Eight lanes of 32 bits hold the block exactly, so the check
 * is: one 256-bit load of the block; one broadcast of the key and one lane-wise multiply by the
 * constant salt vector; one shift right by 27 (the eight bit positions, 0..31); one variable shift
 * of a vector of ones by them (the eight one-bit masks); one AND with the block and one test that
 * every lane is non-zero. No loop, no branch but the answer's, against the scalar path's eight
 * multiplies, eight shifts and four 64-bit tests.
 *
 * <h2>Bit for bit the scalar answers</h2>
 *
 * The block is read as four longs and reinterpreted as eight ints, which the Vector API defines in
 * little-endian lane order on every platform: lane {@code 2j} is the low half of long {@code j}
 * (word {@code 2j} of the block, as the scalar path's mask puts it) and lane {@code 2j + 1} the
 * high half; the multiplies wrap at 32 bits in both paths. {@code SplitBlockVectorProbeTest}
 * compares every answer with an independent scalar reference before and after C2 compiles it.
 *
 * <h2>What C2 makes of it</h2>
 *
 * Inlined into a caller's loop, every Vector API call here is intrinsified ({@code
 * -XX:+PrintInlining}: no "failed to inline (intrinsic)" in the loop's compile; the species and the
 * salt and ones vectors are constants, loaded once before the loop), and a lookup is, on an AVX-512
 * machine: {@code vmovdqu} (the block), {@code vpbroadcastd}, {@code vpmulld}, {@code vpsrld},
 * {@code vpand} (the Vector API's masking of the shift count to 0..31, redundant here but not
 * removed), {@code vpsllvd}, {@code vpand}, {@code vpcmpneqd} into a mask register, then on JDK 25
 * {@code kortestb}; on JDK 17, which keeps masks in vector registers, a masked load of all-ones and
 * {@code vptest} instead: 9 vector instructions on JDK 25 and 11 on JDK 17, beside the block
 * index's multiply-shift and the load's bounds check. Of the other ways to write the test, checked
 * the same way on JDK 17: {@code and(bits).compare(EQ, bits)} compiles to the same sequence; {@code
 * AND_NOT} then {@code compare(EQ, 0)} or {@code compare(NE, 0).anyTrue()} add a {@code vpternlogd}
 * (the NOT); {@code reduceLanes(OR)} over the missing bits adds a shuffle-and-OR tree.
 *
 * <h2>When it is used</h2>
 *
 * For heap-resident filters when the JVM runs with {@code --add-modules jdk.incubator.vector} on
 * hardware with 256-bit vectors, once {@link VectorGate#SPLIT_BLOCK} has seen this code compiled
 * (its warm-up starts after about 2^20 scalar lookups; until it opens, and for wrapped filters, the
 * scalar path answers). Only the gate's warm-up thread and the filter's gated branch touch this
 * class, so without the module no incubator class is loaded.
 */
final class SplitBlockVectorProbe {
  private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_256;
  private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_256;

  /** Parquet's eight salts, lane {@code i} for word {@code i}. */
  private static final int[] SCALAR_SALTS = {
    0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31
  };

  private static final IntVector SALTS = IntVector.fromArray(INTS, SCALAR_SALTS, 0);

  private static final IntVector ONES = IntVector.broadcast(INTS, 1);

  private SplitBlockVectorProbe() {}

  /** Whether this platform's preferred vectors hold the eight 32-bit lanes this check needs. */
  static boolean wideEnough() {
    return IntVector.SPECIES_PREFERRED.vectorBitSize() >= INTS.vectorBitSize();
  }

  /**
   * Whether all eight bits of {@code key} (the hash's low 32 bits) are set in the block of four
   * longs at {@code w[base..base+4)}.
   */
  static boolean mayContain(long[] w, int base, int key) {
    IntVector block = LongVector.fromArray(LONGS, w, base).reinterpretAsInts();
    IntVector pos = IntVector.broadcast(INTS, key).mul(SALTS).lanewise(VectorOperators.LSHR, 27);
    IntVector bits = ONES.lanewise(VectorOperators.LSHL, pos);
    return block.and(bits).compare(VectorOperators.NE, 0).allTrue();
  }

  /**
   * The batch form ({@link dev.sieve.Filter#mayContainHashes}'s contract) over a heap filter of
   * {@code numBlocks} blocks at {@code w}: one result word per 64 hashes, the number of maybes
   * returned: whole chunks in a loop of exactly 64, then the partial one, the vector check written
   * out in each loop (not called through {@link #mayContain}).
   *
   * <p><b>A compile root, never inlined.</b> Its bytecode is longer than C2's {@code
   * FreqInlineSize} (325 bytes, the default on JDK 17 and 25; {@code
   * SplitBlockVectorProbeTest#batchKernelIsTooLongForC2ToInline} holds it there), so C2 compiles it
   * on its own and calls it once per batch (once per chunk of 64 from a key batch), and its vector
   * operations sit one level below their compile root. That depth matters: a variable shift of the
   * Vector API ({@code lanewise(LSHL, vector)}) reaches its {@code opKind} test 8 levels below the
   * caller, and C2 inlines at most {@code MaxInlineLevel} (15) levels, delaying deeper {@code
   * ForceInline} methods; a delayed {@code opKind} does not fold, the other branch's {@code
   * lanewise} then recurses past {@code MaxRecursiveInlineLevel}, and the vector is boxed on every
   * lookup. When this method was 141 bytes, C2 inlined it into JMH's stub 7 levels down (stub,
   * benchmark, membership, {@code mayContainBatch}, {@code keyBatch}, the filter's {@code
   * mayContainHashes}, this) in some forks, whose batch lookups then stayed several times slower
   * for the whole trial ({@code -XX:+PrintInlining}: "recursive inlining is too deep" at {@code
   * Int256Vector::lanewise}, "failed to inline (intrinsic)" at {@code
   * VectorSupport::broadcastInt}); as a 211-byte loop, fewer forks did the same; with {@code
   * -XX:MaxInlineLevel=30} every fork was fast. The price: in cache a batch lookup is slightly
   * slower than the old form where that form was inlined and compiled well ({@code
   * sieve-bench/scripts/simd-fork-check.sh} counts slow forks).
   */
  static int mayContainHashes(
      long[] w, long numBlocks, long[] hashes, int off, int len, long[] resultBits) {
    BatchScratch.checkBatch(hashes.length, off, len, resultBits.length);
    IntVector salts = SALTS;
    IntVector ones = ONES;
    int count = 0;
    int done = 0;
    // whole chunks: a loop of exactly 64
    for (; len - done >= 64; done += 64) {
      int at = off + done;
      long word = 0;
      for (int i = 0; i < 64; i++) {
        long h = hashes[at + i];
        int b = (int) (((h >>> 32) * numBlocks) >>> 32) * 4;
        IntVector p =
            IntVector.broadcast(INTS, (int) h).mul(salts).lanewise(VectorOperators.LSHR, 27);
        boolean a =
            LongVector.fromArray(LONGS, w, b)
                .reinterpretAsInts()
                .and(ones.lanewise(VectorOperators.LSHL, p))
                .compare(VectorOperators.NE, 0)
                .allTrue();
        word |= (a ? 1L : 0L) << i;
      }
      resultBits[done >>> 6] = word;
      count += Long.bitCount(word);
    }
    // the last, partial chunk: the same check as above, written out again on purpose (a helper
    // holding one copy would bring this method under FreqInlineSize; see the Javadoc)
    if (done < len) {
      int at = off + done;
      int chunk = len - done;
      long word = 0;
      for (int i = 0; i < chunk; i++) {
        long h = hashes[at + i];
        int b = (int) (((h >>> 32) * numBlocks) >>> 32) * 4;
        IntVector p =
            IntVector.broadcast(INTS, (int) h).mul(salts).lanewise(VectorOperators.LSHR, 27);
        boolean a =
            LongVector.fromArray(LONGS, w, b)
                .reinterpretAsInts()
                .and(ones.lanewise(VectorOperators.LSHL, p))
                .compare(VectorOperators.NE, 0)
                .allTrue();
        word |= (a ? 1L : 0L) << i;
      }
      resultBits[done >>> 6] = word;
      count += Long.bitCount(word);
    }
    return count;
  }

  /**
   * The warm-up of this kernel for {@link VectorGate#SPLIT_BLOCK}: four private blocks (full, three
   * quarters, half and none of their bits set), so both answers are profiled; the single check and
   * the batch kernel ({@link #mayContainHashes}, its own compile root: C2 must have compiled it
   * before the gate opens, or a filter's first batches would run its vector operations
   * interpreted), each beside its scalar reference. Loading this nested class does not initialize
   * {@link SplitBlockVectorProbe}; its first call does, on the warm-up thread.
   */
  static final class Warmup implements VectorGate.Warmup {
    /** Batch lengths of the drive: whole chunks, a two-chunk batch with an odd tail, one odd. */
    private static final int[] BATCH_LENGTHS = {64, 131, 64, 37};

    private final long[] blocks = privateBlocks();
    private final long[] hashes = new long[131];
    private final long[] bits = new long[3];
    private int key = 0x2545f491;
    private int batches;

    private static long[] privateBlocks() {
      long[] w = new long[16];
      long x = 0x9e3779b97f4a7c15L;
      for (int i = 0; i < w.length; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
        long r = x ^ (x >>> 29);
        long s = (x * 0xbf58476d1ce4e5b9L) ^ (x >>> 31);
        int block = i / 4;
        w[i] = block == 0 ? -1L : block == 1 ? r | s : block == 2 ? r : 0L;
      }
      return w;
    }

    @Override
    public boolean supported() {
      return wideEnough();
    }

    @Override
    public long drive(int calls) {
      long acc = 0;
      for (int i = 0; i < calls; i++) {
        key = key * 0x9e3779b9 + 0x7f4a7c15;
        int base = (key >>> 30) * 4;
        acc += mayContain(blocks, base, key) ? 1 : 0;
        acc += scalar(blocks, base, key) ? 2 : 0;
        hashes[i % hashes.length] = ((long) key << 32) ^ (key * 0x85ebca6bL);
        if ((i & 63) == 63) {
          int len = BATCH_LENGTHS[batches++ & 3];
          acc += mayContainHashes(blocks, 4, hashes, 0, len, bits);
          acc +=
              Long.bitCount(SplitBlockKernel.probeChunk(blocks, 4, hashes, 0, Math.min(len, 64)));
        }
      }
      return acc;
    }

    /** {@value VectorGate#SAMPLE_CALLS} single checks and one batch of as many plus one. */
    @Override
    public long sampleVector() {
      long acc = 0;
      for (int i = 0; i < VectorGate.SAMPLE_CALLS; i++) {
        acc += mayContain(blocks, (i & 3) * 4, key + i * 0x9e3779b9) ? 1 : 0;
      }
      return acc + mayContainHashes(blocks, 4, hashes, 0, VectorGate.SAMPLE_CALLS + 1, bits);
    }

    /** The scalar references of {@link #sampleVector}'s calls. */
    @Override
    public long sampleScalar() {
      long acc = 0;
      for (int i = 0; i < VectorGate.SAMPLE_CALLS; i++) {
        acc += scalar(blocks, (i & 3) * 4, key + i * 0x9e3779b9) ? 1 : 0;
      }
      return acc + SplitBlockKernel.probeChunk(blocks, 4, hashes, 0, VectorGate.SAMPLE_CALLS + 1);
    }
  }

  /**
   * The scalar check, word by word from Parquet's definition: the warm-up's and tests' reference.
   */
  static boolean scalar(long[] w, int base, int key) {
    for (int i = 0; i < 8; i++) {
      int word = (int) (w[base + (i >>> 1)] >>> ((i & 1) * 32));
      if ((word & (1 << ((key * SCALAR_SALTS[i]) >>> 27))) == 0) {
        return false;
      }
    }
    return true;
  }
}
