package dev.sieve.ribbon;

import dev.sieve.internal.LongSegments;
import java.nio.LongBuffer;

/**
 * The single-key query of an interleaved Ribbon layout (RocksDB's {@code InterleavedFilterQuery}),
 * shared by {@link Standard128RibbonFilter} and {@link BumpedRibbonFilter}, for solution data on
 * the heap, in one little-endian buffer, or over {@link LongSegments}.
 *
 * <h2>The query</h2>
 *
 * A key with start slot {@code s} (block {@code b = s / 128}, bit {@code t = s % 128}), 128-bit
 * coefficient row {@code c} and expected result row {@code R} matches when, for every column {@code
 * j} of block {@code b}, the parity of {@code (seg_j(b) & c << t) ^ (seg_j(b+1) & c >>> (128 - t))}
 * is bit {@code j} of {@code R}. RocksDB loops over the columns and returns at the first one that
 * disagrees. Answers here are the same; the work is arranged so that nothing but one early exit
 * depends on the key:
 *
 * <ul>
 *   <li><b>Masks instead of a branch on {@code t}.</b> With {@code u = t % 64} the window covers
 *       three of a column's four words (this block's low and high, the next block's low and high):
 *       {@code (A, B, C) = (c_lo << u, c_hi << u | c_lo >>> (64-u), c_hi >>> (64-u))} over words
 *       {@code (0, 1, 2)} when {@code t < 64} and {@code (1, 2, 3)} from it. The middle word's
 *       index is picked with arithmetic ({@code here + 1} or {@code next}, by {@code -(t >>> 6)} as
 *       a mask), not a conditional, and {@code C = 0} when {@code u = 0}.
 *   <li><b>A fixed column count.</b> Blocks before {@code upperStartBlock} have one column fewer.
 *       Every query runs {@code upperNumColumns} columns (the same count for every key, so the
 *       loop's exit is always predicted); the last column's term is ANDed with {@code columns -
 *       (upperNumColumns - 1)} (1 when the block has that column, else 0). The extra column of a
 *       short block reads the next block's words, which exist (a short block is never the last).
 *       Column {@code j} contributes {@code bitCount(x_j) ^ (R >>> j)}, ORed into one word whose
 *       bit 0 is set exactly when some column disagrees.
 *   <li><b>Straight-line on the heap.</b> Up to {@value #NARROW_COLUMNS} columns ({@link #narrow},
 *       every filter at a rate of 1/256 or above) the columns are read at fixed offsets from the
 *       three word indices, with no loop: C2 checks each index against the array once or twice
 *       instead of per column, and there is no loop set-up (C2 made pre, main and post loops, each
 *       with its own index checks, of the five-column loop at seven columns). The columns past the
 *       block's count are masked off: their result bits and their parities are both set to 1. Wider
 *       filters ({@link #wide}) read columns 0 and 1 the same way and gather the others' parities
 *       in a loop with no exit. The buffer forms keep the loop below.
 *   <li><b>One early exit, after two columns.</b> A negative key disagrees in one of the first two
 *       columns with probability 3/4, so it leaves after two columns' reads (as in RocksDB, where
 *       it leaves after two on average), and a positive key never takes that branch. A per-column
 *       exit would be taken with probability 1/2 at each column, a branch no predictor can learn,
 *       and its misprediction also discards the independent work of the following queries.
 * </ul>
 *
 * <h2>Bounds</h2>
 *
 * Only the last block's starts ({@code t = 0}) can reach past the data: their next-block words have
 * zero masks. The heap form holds {@code 2 · max(upperNumColumns, 8)} zero words of padding after
 * the data for them ({@link #paddedWords}), enough for {@link #narrow}'s eight columns from any
 * start (the columns a block lacks read the next block's words or the padding); the buffer forms
 * read the start's own block instead (any word will do under a zero mask), picked by a branch that
 * only 1 start in 128 takes, so every read stays inside the data.
 *
 * <h2>Size</h2>
 *
 * Each probe stays under HotSpot's {@code FreqInlineSize} (325 bytecode bytes) so that C2 inlines
 * it into the filter's query and that into the caller's loop (now 225 bytes for {@link #narrow} and
 * 149 for its second half {@link #columns2To7}, 321 for {@link #wide} and for {@link #buffer}:
 * check with {@code javap -c} after a change). A first version of 554 bytes (two loops) was called
 * instead of inlined and ran measurably slower at 10^7 keys.
 */
final class RibbonProbe {
  private RibbonProbe() {}

  private static final long COEFF_XOR_64 = RibbonKernel.COEFF_XOR_64;

  /** {@code FastRange64(h, numStarts)}: the high half of the unsigned 128-bit product. */
  static int start(long h, int numStarts) {
    // multiplyHigh is signed; for h < 0 the unsigned high half is numStarts more (numStarts >= 0)
    return (int) (Math.multiplyHigh(h, numStarts) + ((h >> 63) & numStarts));
  }

  /**
   * The most columns {@link #heap} reads straight-line ({@link #narrow}), whatever the filter's
   * count: every filter at a rate of 1/256 or above. Wider filters take {@link #wide}'s loop.
   */
  static final int NARROW_COLUMNS = 8;

  /**
   * The length of a heap layout of {@code numSegments} segments in blocks of at most {@code upper}
   * columns: the segments, then zero words for the reads past the last block, the widest being
   * {@link #narrow}'s {@code 2 · NARROW_COLUMNS} words from a start in the last block.
   */
  static int paddedWords(int numSegments, int upper) {
    return 2 * numSegments + 2 * Math.max(upper, NARROW_COLUMNS);
  }

  /**
   * Whether the key with start {@code start} and {@code a = h · COEFF_AND_RESULT_FACTOR} matches
   * heap data: segments as two longs each, low half first, followed by the zero words of {@link
   * #paddedWords}. {@link #narrow} for up to {@value #NARROW_COLUMNS} columns, else {@link #wide}:
   * the choice is the filter's shape, not the key's, so the branch is always predicted, and C2
   * compiles only the side a filter takes into a caller's loop.
   */
  static boolean heap(long[] data, int upper, int upperStartBlock, int start, long a) {
    return upper <= NARROW_COLUMNS
        ? narrow(data, upper, upperStartBlock, start, a)
        : wide(data, upper, upperStartBlock, start, a);
  }

  /**
   * {@link #heap} for at most {@value #NARROW_COLUMNS} columns, straight-line: the filter's columns
   * at fixed offsets 0, 2, ..., 14 from the three word indices, which C2 checks against the array
   * once or twice per index instead of once per column (the padding keeps them in range for every
   * start), and no loop. A short block's missing column, and the columns no block has, count as
   * matching: their result bits and their parities are both set to 1. Columns 0 and 1 decide the
   * one early exit, as in {@link #wide}.
   */
  static boolean narrow(long[] data, int upper, int upperStartBlock, int start, long a) {
    int block = start >>> 7;
    int columns = upper - ((block - upperStartBlock) >>> 31);
    int o = (start >>> 6) & 1;
    int p0 = 2 * (block * upper - Math.min(block, upperStartBlock)) + o;
    int p1 = p0 + 1 + ((2 * columns - 2) & -o);
    int p2 = p0 + 2 * columns;
    int s = start & 63;
    long cLo = (a ^ COEFF_XOR_64) | 1L;
    long wa = cLo << s;
    long wb = (a << s) | ((cLo >>> 1) >>> (63 - s));
    long wc = (a >>> 1) >>> (63 - s);
    // the result row's bits that must match: those of the block's columns
    int want = (int) Long.reverseBytes(a) | (-1 << columns);
    int bits =
        parity(data, p0, p1, p2, wa, wb, wc)
            | parity(data, p0 + 2, p1 + 2, p2 + 2, wa, wb, wc) << 1
            | -1 << columns;
    if (((bits ^ want) & 3) != 0) {
      return false;
    }
    return (bits | columns2To7(data, upper, p0, p1, p2, wa, wb, wc)) == want;
  }

  /**
   * The parities of columns 2 to 7 as bits 2 to 7 ({@link #narrow}'s second half, its own method to
   * keep each under C2's inlining size), or 1 for the columns from {@code upper} on, which no block
   * of the filter has. Each column's test is the filter's shape, not the key's: always predicted,
   * and C2, from the profile, leaves out the columns a filter never reads.
   */
  static int columns2To7(
      long[] data, int upper, int p0, int p1, int p2, long wa, long wb, long wc) {
    int bits = -1 << upper;
    if (upper > 2) {
      bits |= parity(data, p0 + 4, p1 + 4, p2 + 4, wa, wb, wc) << 2;
    }
    if (upper > 3) {
      bits |= parity(data, p0 + 6, p1 + 6, p2 + 6, wa, wb, wc) << 3;
    }
    if (upper > 4) {
      bits |= parity(data, p0 + 8, p1 + 8, p2 + 8, wa, wb, wc) << 4;
    }
    if (upper > 5) {
      bits |= parity(data, p0 + 10, p1 + 10, p2 + 10, wa, wb, wc) << 5;
    }
    if (upper > 6) {
      bits |= parity(data, p0 + 12, p1 + 12, p2 + 12, wa, wb, wc) << 6;
    }
    if (upper > 7) {
      bits |= parity(data, p0 + 14, p1 + 14, p2 + 14, wa, wb, wc) << 7;
    }
    return bits;
  }

  /** The parity of one column's three words under the window's masks (under 35 bytes: inlined). */
  static int parity(long[] data, int i0, int i1, int i2, long wa, long wb, long wc) {
    return Long.bitCount((data[i0] & wa) ^ (data[i1] & wb) ^ (data[i2] & wc)) & 1;
  }

  /**
   * {@link #heap} for more than {@value #NARROW_COLUMNS} columns (rates below 1/256): columns 0 and
   * 1, which every block has, read with fixed offsets from the three word indices and deciding the
   * one early exit together; the remaining columns in a loop whose trip count is the filter's, with
   * no exit, the last one masked by its presence.
   */
  static boolean wide(long[] data, int upper, int upperStartBlock, int start, long a) {
    int block = start >>> 7;
    int columns = upper - ((block - upperStartBlock) >>> 31);
    int o = (start >>> 6) & 1;
    int p0 = 2 * (block * upper - Math.min(block, upperStartBlock)) + o;
    // the middle word: this block's high word (o = 0) or the next block's low word (o = 1)
    int p1 = p0 + 1 + ((2 * columns - 2) & -o);
    int p2 = p0 + 2 * columns;
    int s = start & 63;
    long cLo = (a ^ COEFF_XOR_64) | 1L;
    long wa = cLo << s;
    long wb = (a << s) | ((cLo >>> 1) >>> (63 - s));
    long wc = (a >>> 1) >>> (63 - s);
    int want = (int) Long.reverseBytes(a);
    int j = 0;
    int bits = 0;
    if (upper > 2) { // the filter's shape, not the key's: always predicted
      long x0 = (data[p0] & wa) ^ (data[p1] & wb) ^ (data[p2] & wc);
      long x1 = (data[p0 + 2] & wa) ^ (data[p1 + 2] & wb) ^ (data[p2 + 2] & wc);
      if ((((Long.bitCount(x0) ^ want) | (Long.bitCount(x1) ^ (want >>> 1))) & 1) != 0) {
        return false;
      }
      bits = want & 3; // columns 0 and 1 agree
      j = 2;
    }
    // the parities of the other columns as bits, compared with the result row at once; a short
    // block's missing last column is masked off
    for (; j < upper; j++) {
      int k = 2 * j;
      long x = (data[p0 + k] & wa) ^ (data[p1 + k] & wb) ^ (data[p2 + k] & wc);
      bits |= (Long.bitCount(x) & 1) << j;
    }
    return ((bits ^ want) & (int) ((1L << columns) - 1)) == 0;
  }

  /**
   * As {@link #heap} without the early exit: 1 when the key matches, else 0, with no branch that
   * depends on the key (the batch query's form).
   */
  static int heapAll(long[] data, int upper, int upperStartBlock, int start, long a) {
    int block = start >>> 7;
    int columns = upper - ((block - upperStartBlock) >>> 31);
    int here = 2 * (block * upper - Math.min(block, upperStartBlock));
    int next = here + 2 * columns;
    int s = start & 63;
    int o = (start >>> 6) & 1;
    long cLo = (a ^ COEFF_XOR_64) | 1L;
    long wa = cLo << s;
    long wb = (a << s) | ((cLo >>> 1) >>> (63 - s));
    long wc = (a >>> 1) >>> (63 - s);
    int p0 = here + o;
    int p1 = here + 1 + ((next - here - 1) & -o);
    int p2 = next + o;
    int want = (int) Long.reverseBytes(a);
    int last = upper - 1;
    int miss = 0;
    for (int j = 0; j < last; j++) {
      int k = 2 * j;
      long x = (data[p0 + k] & wa) ^ (data[p1 + k] & wb) ^ (data[p2 + k] & wc);
      miss |= Long.bitCount(x) ^ (want >>> j);
    }
    int k = 2 * last;
    long x = (data[p0 + k] & wa) ^ (data[p1 + k] & wb) ^ (data[p2 + k] & wc);
    miss |= (Long.bitCount(x) ^ (want >>> last)) & (columns - last);
    return ~miss & 1;
  }

  /**
   * As {@link #heap} over segments read from {@code buf} (absolute indices) from word {@code base},
   * without padding: exactly {@code numSegments} segments.
   */
  static boolean buffer(
      LongBuffer buf, int base, int upper, int upperStartBlock, int start, long a) {
    int block = start >>> 7;
    int columns = upper - ((block - upperStartBlock) >>> 31);
    int here = base + 2 * (block * upper - Math.min(block, upperStartBlock));
    int next = here + 2 * columns;
    int s = start & 63;
    int o = (start >>> 6) & 1;
    long cLo = (a ^ COEFF_XOR_64) | 1L;
    long wa = cLo << s;
    long wb = (a << s) | ((cLo >>> 1) >>> (63 - s));
    long wc = (a >>> 1) >>> (63 - s);
    int p0 = here + o;
    int p1 = here + 1 + ((next - here - 1) & -o);
    // start bit 0 (the only start of the last block): the next block's mask is 0; read this one
    // (a branch taken by 1 start in 128, always predicted; shorter than the mask form)
    int p2 = ((start & 127) == 0 ? here : next) + o;
    int want = (int) Long.reverseBytes(a);
    int last = upper - 1;
    int miss = 0;
    // (the indices advance by 2 per column, not p + 2j: this keeps the probe under 325 bytes)
    for (int j = 0; j < last; j++, p0 += 2, p1 += 2, p2 += 2) {
      long x = (buf.get(p0) & wa) ^ (buf.get(p1) & wb) ^ (buf.get(p2) & wc);
      miss |= Long.bitCount(x) ^ (want >>> j);
      if (j == 1 && (miss & 1) != 0) {
        return false;
      }
    }
    long x = (buf.get(p0) & wa) ^ (buf.get(p1) & wb) ^ (buf.get(p2) & wc);
    miss |= (Long.bitCount(x) ^ (want >>> last)) & (columns - last);
    return (miss & 1) == 0;
  }

  /** As {@link #buffer} over words of {@code data}, exactly {@code 2 · numSegments} of them. */
  // columns is a result-bit count (tiny): 2 * columns cannot overflow; probe kept as is
  @SuppressWarnings("NarrowCalculation")
  static boolean segments(LongSegments data, int upper, int upperStartBlock, int start, long a) {
    int block = start >>> 7;
    int columns = upper - ((block - upperStartBlock) >>> 31);
    long here = 2L * ((long) block * upper - Math.min(block, upperStartBlock));
    long next = here + 2 * columns;
    int s = start & 63;
    int o = (start >>> 6) & 1;
    long cLo = (a ^ COEFF_XOR_64) | 1L;
    long wa = cLo << s;
    long wb = (a << s) | ((cLo >>> 1) >>> (63 - s));
    long wc = (a >>> 1) >>> (63 - s);
    long p0 = here + o;
    long p1 = here + 1 + ((next - here - 1) & -o);
    long p2 = next - ((next - here) & (((start & 127) - 1) >> 31)) + o;
    int want = (int) Long.reverseBytes(a);
    int used = (int) ((1L << columns) - 1);
    int miss = 0;
    for (int j = 0; j < upper; j++) {
      int k = 2 * j;
      long x = (data.get(p0 + k) & wa) ^ (data.get(p1 + k) & wb) ^ (data.get(p2 + k) & wc);
      miss |= ((Long.bitCount(x) ^ (want >>> j)) & 1) << j;
      if (j == 1 && (miss & used) != 0) {
        return false;
      }
    }
    return (miss & used) == 0;
  }
}
