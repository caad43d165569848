package dev.sieve.range;

import static dev.sieve.range.GrafiteCodes.blockOffset;

import java.util.Arrays;

/**
 * {@link GrafiteFilter}'s batch of ranges: the ranges in groups of {@value #GROUP}, each group in
 * stages, so that the memory reads of different ranges overlap instead of following one another.
 * Stage 1 maps every range to its interval of codes, answers the trivial ones and reads the select
 * index entry of the rest (one read each, independent); stage 2 reads, for each, the upper-bits
 * word of that entry's zero and the low-bits word its bucket probably starts in (two reads each,
 * independent of one another and of the other ranges'); stage 3 answers from lines now cached.
 * Ranges over several blocks, or wrapping past {@code r}, are answered as {@link
 * GrafiteFilter#mayContainRange(long, long)} answers them. The per-group arrays are a per-thread
 * scratch: a batch allocates nothing.
 */
final class GrafiteBatch {
  /** The ranges of one group. */
  static final int GROUP = 32;

  private static final byte NO = 0;
  private static final byte YES = 1;
  private static final byte SEARCH = 2;
  private static final byte SINGLE = 3;

  private static final ThreadLocal<GrafiteBatch> SCRATCH =
      ThreadLocal.withInitial(GrafiteBatch::new);

  private final long[] first = new long[GROUP]; // the interval's first code
  private final long[] end = new long[GROUP]; // its last code
  private final long[] from = new long[GROUP]; // the position of the index entry's zero
  private final long[] upper = new long[GROUP]; // that zero's upper-bits word
  private final long[] hint = new long[GROUP]; // the low-bits word read early
  private final int[] hintWord = new int[GROUP]; // its index
  private final byte[] todo = new byte[GROUP];

  private GrafiteBatch() {}

  /** The answers of {@link GrafiteFilter#mayContainRanges}; the arguments are checked. */
  static int run(GrafiteFilter f, long[] lo, long[] hi, int off, int len, long[] resultBits) {
    Arrays.fill(resultBits, 0, (len + 63) >>> 6, 0L);
    GrafiteBatch s = SCRATCH.get();
    int count = 0;
    for (int g = 0; g < len; g += GROUP) {
      int size = Math.min(GROUP, len - g);
      s.locate(f, lo, hi, off + g, size);
      s.touch(f.codes, size);
      long bits = s.answer(f, lo, hi, off + g, size);
      resultBits[g >>> 6] |= bits << (g & 63);
      count += Long.bitCount(bits);
    }
    return count;
  }

  /** Stage 1: the intervals, the trivial answers, the select index entries. */
  private void locate(GrafiteFilter f, long[] lo, long[] hi, int at, int size) {
    EliasFano ef = f.codes;
    int k = f.blockShift;
    long mask = k == 0 ? 0 : (1L << k) - 1;
    long r = f.codeRange;
    long seed = f.seed;
    for (int j = 0; j < size; j++) {
      long a = lo[at + j];
      long b = hi[at + j];
      RangeFilter.checkRange(a, b);
      byte t = SINGLE;
      if (ef.n == 0) {
        t = NO;
      } else if ((a >>> k) == (b >>> k)) {
        long offLo = a & mask;
        long width = (b & mask) - offLo + 1;
        long start = blockOffset(a >>> k, seed, r) + offLo;
        long x = start < r ? start : start % r;
        long e = x + width - 1;
        if (width < r && e < r) {
          if (x > ef.last || e < ef.first) {
            t = NO;
          } else if (x <= ef.first) {
            t = YES;
          } else {
            t = SEARCH;
            first[j] = x;
            end[j] = e;
            long h = x >>> ef.lowBits;
            if (h == 0) {
              from[j] = -1;
            } else {
              int step = (int) ((h - 1) >>> EliasFano.STEP_SHIFT);
              from[j] = ((long) step << EliasFano.STEP_SHIFT) + ef.stepRank(step);
            }
          }
        }
      }
      todo[j] = t;
    }
  }

  /** Stage 2: the upper-bits word of each entry's zero, the probable low-bits word. */
  private void touch(EliasFano ef, int size) {
    for (int j = 0; j < size; j++) {
      if (todo[j] == SEARCH) {
        long p = from[j];
        int w;
        if (p < 0) {
          w = 0;
          upper[j] = 0;
        } else {
          long t = (first[j] >>> ef.lowBits) - 1;
          w = ef.lowHintWord(t, p - (t >>> EliasFano.STEP_SHIFT << EliasFano.STEP_SHIFT));
          upper[j] = ef.upperWord((int) (p >>> 6));
        }
        hintWord[j] = w;
        hint[j] = ef.word(w);
      }
    }
  }

  /** Stage 3: the answers, as bits from bit 0. */
  private long answer(GrafiteFilter f, long[] lo, long[] hi, int at, int size) {
    EliasFano ef = f.codes;
    long bits = 0;
    for (int j = 0; j < size; j++) {
      boolean yes =
          switch (todo[j]) {
            case NO -> false;
            case YES -> true;
            case SEARCH -> {
              long x = first[j];
              long h = x >>> ef.lowBits;
              long p = from[j];
              long pos =
                  p < 0
                      ? 0
                      : ef.selectZeroFrom(p, (int) ((h - 1) & EliasFano.STEP_MASK), upper[j]) + 1;
              yield ef.successorFrom(x, h, pos, hintWord[j], hint[j]) <= end[j];
            }
            default -> f.mayContainRange(lo[at + j], hi[at + j]);
          };
      if (yes) {
        bits |= 1L << j;
      }
    }
    return bits;
  }
}
