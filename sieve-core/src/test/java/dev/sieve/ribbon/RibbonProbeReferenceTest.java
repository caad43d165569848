package dev.sieve.ribbon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The single-key probes ({@link RibbonProbe}: heap, one buffer, split buffers) and the batch probe
 * against a straightforward reference reading of the layout, written as RocksDB's {@code
 * InterleavedFilterQuery} reads it: per column, load this block's and the next block's 128-bit
 * segment, shift the coefficient row by the start's bit with a branch per case, and compare the
 * parity with the result bit. Random solution data with random shapes (any number of blocks and
 * segments, 0 to 32 columns, short blocks first), so every corner of the index math is reached
 * without a solve; and solved filters, whose added keys must all match. The loops run long enough
 * (a few million probes per form) for every probe to be compiled by C2 and checked again after.
 */
class RibbonProbeReferenceTest {

  // ------------------------------------------------------------------ the reference

  /** RocksDB's FastRange64 with the sign fix-up written as a branch. */
  static int referenceStart(long h, int numStarts) {
    long high = Math.multiplyHigh(h, numStarts);
    if (h < 0) {
      high += numStarts;
    }
    return (int) high;
  }

  /** Segment {@code s}'s 64-bit half {@code half} (0 low, 1 high), 0 past the data. */
  private static long segmentWord(ByteBuffer le, int numSegments, long s, int half) {
    if (s >= numSegments) {
      return 0;
    }
    return le.getLong((int) (16 * s + 8 * half));
  }

  /**
   * Whether the key with start {@code start} and {@code a} matches the interleaved data {@code le}
   * (little-endian, {@code numSegments} 16-byte segments) over {@code numBlocks} blocks.
   */
  static boolean referenceMatches(
      ByteBuffer le, int numSegments, int numBlocks, int start, long a) {
    int upper = (numSegments + numBlocks - 1) / numBlocks;
    int upperStart = upper * numBlocks - numSegments;
    int block = start / 128;
    int columns = block < upperStart ? upper - 1 : upper;
    long segment = (long) block * upper - Math.min(block, upperStart);
    long cHi = a;
    long cLo = (a ^ 0xc367844a6e52731dL) | 1L;
    int expected = Integer.reverseBytes((int) (a >>> 32));
    int t = start % 128;
    // c << t (this block) and c >>> (128 - t) (the next block), as 128-bit (hi, lo) pairs
    long lHi;
    long lLo;
    long rHi;
    long rLo;
    if (t == 0) {
      lHi = cHi;
      lLo = cLo;
      rHi = 0;
      rLo = 0;
    } else if (t < 64) {
      lHi = (cHi << t) | (cLo >>> (64 - t));
      lLo = cLo << t;
      rHi = 0;
      rLo = cHi >>> (64 - t);
    } else if (t == 64) {
      lHi = cLo;
      lLo = 0;
      rHi = 0;
      rLo = cHi;
    } else {
      lHi = cLo << (t - 64);
      lLo = 0;
      rHi = cHi >>> (128 - t);
      rLo = (cHi << (t - 64)) | (cLo >>> (128 - t));
    }
    for (int j = 0; j < columns; j++) {
      long here = segment + j;
      long next = segment + columns + j;
      long x =
          (segmentWord(le, numSegments, here, 0) & lLo)
              ^ (segmentWord(le, numSegments, here, 1) & lHi)
              ^ (segmentWord(le, numSegments, next, 0) & rLo)
              ^ (segmentWord(le, numSegments, next, 1) & rHi);
      if ((Long.bitCount(x) & 1) != ((expected >>> j) & 1)) {
        return false;
      }
    }
    return true;
  }

  /** The Standard128Ribbon reference: RocksDB's rehash, start and query over the filter block. */
  static boolean referenceStandard(byte[] block, long hash64) {
    if (block.length == 0) {
      return false;
    }
    int dataLen = block.length - Standard128RibbonFilter.TRAILER_BYTES;
    int seed = block[dataLen + 1] & 0xFF;
    int numBlocks =
        (block[dataLen + 2] & 0xFF)
            | (block[dataLen + 3] & 0xFF) << 8
            | (block[dataLen + 4] & 0xFF) << 16;
    long t = (seed & 0xFFFFFFFFL) * 0xc78219a23eeadd03L;
    t ^= (t & 0xf0f0f0f0f0f0f0f0L) >>> 4;
    long rawSeed = t & 0xFFFFFFFFL;
    long h = (hash64 ^ rawSeed) * 0x6193d459236a3a0dL;
    int start = referenceStart(h, numBlocks * 128 - 127);
    long a = h * 0xc28f82822b650bedL;
    ByteBuffer le = ByteBuffer.wrap(block, 0, dataLen).slice().order(ByteOrder.LITTLE_ENDIAN);
    return referenceMatches(le, dataLen / 16, numBlocks, start, a);
  }

  // ------------------------------------------------------------------ shapes

  /** A well-formed filter block of random data: {@code numBlocks} blocks, {@code numSegments}. */
  static byte[] randomBlock(SplittableRandom rnd, int numBlocks, int numSegments) {
    byte[] b = new byte[16 * numSegments + Standard128RibbonFilter.TRAILER_BYTES];
    for (int i = 0; i < 16 * numSegments; i++) {
      b[i] = (byte) rnd.nextInt();
    }
    int at = 16 * numSegments;
    b[at] = Standard128RibbonFilter.MARKER;
    b[at + 1] = (byte) rnd.nextInt(256);
    b[at + 2] = (byte) numBlocks;
    b[at + 3] = (byte) (numBlocks >>> 8);
    b[at + 4] = (byte) (numBlocks >>> 16);
    return b;
  }

  /** Segments for a shape: often fractional columns, sometimes fewer segments than blocks. */
  static int randomSegments(SplittableRandom rnd, int numBlocks) {
    switch (rnd.nextInt(6)) {
      case 0:
        return 1 + rnd.nextInt(numBlocks); // 0 or 1 column per block
      case 1:
        return numBlocks * (1 + rnd.nextInt(32)); // whole columns
      case 2:
        return 32 * numBlocks - rnd.nextInt(numBlocks); // 31 and 32 columns
      default:
        return 1 + rnd.nextInt(32 * numBlocks);
    }
  }

  /** Every form of one filter block: heap, direct and heap buffers, split buffers. */
  static Standard128RibbonFilter[] forms(byte[] block) {
    Standard128RibbonFilter heap = Standard128RibbonFilter.fromRocksDbFilterBlock(block);
    ByteBuffer direct = ByteBuffer.allocateDirect(block.length + 3);
    direct.position(3);
    direct.put(block).position(3);
    Standard128RibbonFilter wrappedDirect =
        Standard128RibbonFilter.wrapRocksDbFilterBlock(direct, 0);
    Standard128RibbonFilter wrappedHeap =
        Standard128RibbonFilter.wrapRocksDbFilterBlock(ByteBuffer.wrap(block), 0);
    int dataLen = block.length - Standard128RibbonFilter.TRAILER_BYTES;
    int shift = 6; // 64-byte buffers: every few columns cross into the next one
    int pieces = Math.max(1, (dataLen + 63) >>> shift);
    ByteBuffer[] split = new ByteBuffer[pieces];
    for (int i = 0; i < pieces; i++) {
      int from = i << shift;
      split[i] = ByteBuffer.wrap(block, from, Math.min(64, dataLen - from)).slice();
    }
    Standard128RibbonFilter segmented =
        RibbonBlockForm.wrapData(
            split, shift, dataLen, ByteBuffer.wrap(block, dataLen, 5).slice(), 0);
    return new Standard128RibbonFilter[] {heap, wrappedDirect, wrappedHeap, segmented};
  }

  private static void checkAll(
      byte[] block, Standard128RibbonFilter[] forms, long[] queries, String what) {
    long[] bits = new long[(queries.length + 63) >>> 6];
    forms[0].mayContainHashes(queries, 0, queries.length, bits);
    for (int i = 0; i < queries.length; i++) {
      long q = queries[i];
      boolean want = referenceStandard(block, q);
      for (int f = 0; f < forms.length; f++) {
        if (forms[f].mayContainHash(q) != want) {
          throw new AssertionError(
              what + ": form " + f + " answers " + !want + " for hash " + q + " in " + forms[f]);
        }
      }
      if (((bits[i >>> 6] >>> i) & 1) != (want ? 1 : 0)) {
        throw new AssertionError(what + ": batch answers " + !want + " for hash " + q);
      }
    }
  }

  // ------------------------------------------------------------------ tests

  @Test
  void startIsTheUnsignedHighHalfWithoutABranch() {
    SplittableRandom rnd = new SplittableRandom(7);
    int[] ranges = {1, 129, 255, 1 << 20, Integer.MAX_VALUE - 126, Integer.MAX_VALUE};
    long[] edges = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 63 | 1, 0xFFFFFFFFL};
    for (int n : ranges) {
      for (long h : edges) {
        assertEquals(referenceStart(h, n), RibbonProbe.start(h, n), h + " in " + n);
      }
      for (int i = 0; i < 200_000; i++) {
        long h = rnd.nextLong();
        int s = RibbonProbe.start(h, n);
        assertEquals(referenceStart(h, n), s);
        assertTrue(s >= 0 && s < n);
      }
    }
  }

  /**
   * Random data of many shapes, every form and the batch against the reference, in rounds: the
   * first rounds run in the interpreter and C1, the later ones in C2-compiled code.
   */
  @Test
  void randomLayoutsAnswerAsTheReferenceBeforeAndAfterCompilation() {
    SplittableRandom rnd = new SplittableRandom(20);
    for (int round = 0; round < 120; round++) {
      int numBlocks = round % 10 == 0 ? 2 + rnd.nextInt(3) : 2 + rnd.nextInt(300);
      int numSegments = randomSegments(rnd, numBlocks);
      byte[] block = randomBlock(rnd, numBlocks, numSegments);
      Standard128RibbonFilter[] forms = forms(block);
      long[] queries = rnd.longs(20_000).toArray();
      checkAll(block, forms, queries, "round " + round + " (" + forms[0] + ")");
    }
  }

  /** Solved filters: every added key matches on every form, and other keys as the reference. */
  @Test
  void solvedFiltersMatchTheReferenceAndKeepEveryKey() {
    SplittableRandom rnd = new SplittableRandom(21);
    double[] bits = {1, 4.4, 10, 16, 23.5, 60};
    for (int round = 0; round < 24; round++) {
      int n = round < 6 ? 1 + rnd.nextInt(200) : 1000 + rnd.nextInt(100_000);
      long[] keys = rnd.longs(n).toArray();
      Standard128RibbonFilter f =
          Standard128RibbonFilter.builder()
              .bloomEquivalentBitsPerKey(bits[round % bits.length])
              .buildFromHashes(keys);
      byte[] block = f.toRocksDbFilterBlock();
      Standard128RibbonFilter[] forms = forms(block);
      for (Standard128RibbonFilter form : forms) {
        for (long k : keys) {
          if (!form.mayContainHash(k)) {
            throw new AssertionError("false negative for " + k + " in " + form);
          }
        }
      }
      checkAll(block, forms, keys, "added keys, " + f);
      checkAll(block, forms, rnd.longs(50_000).toArray(), "other keys, " + f);
    }
  }

  @Property(tries = 200)
  void anyShapeAnswersAsTheReference(
      @ForAll @IntRange(min = 2, max = 2000) int numBlocks,
      @ForAll @IntRange(min = 1, max = 32) int columns,
      @ForAll @IntRange(min = 0, max = 1999) int short0,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int shortBlocks = Math.min(short0, numBlocks - 1);
    int numSegments = Math.max(1, columns * numBlocks - shortBlocks);
    byte[] block = randomBlock(rnd, numBlocks, numSegments);
    checkAll(block, forms(block), rnd.longs(2000).toArray(), "property");
  }
}
