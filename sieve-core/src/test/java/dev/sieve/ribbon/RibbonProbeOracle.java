package dev.sieve.ribbon;

/**
 * The heap probe of {@link RibbonProbe} as it was before the straight-line rewrite (a loop over all
 * but the last column with the early exit after column 1 inside it, the last column masked by its
 * presence), kept unchanged as the oracle of {@code RibbonProbeDifferentialTest}: the new probe
 * must answer exactly as this one for every shape, start and coefficient row.
 */
final class RibbonProbeOracle {
  private RibbonProbeOracle() {}

  private static final long COEFF_XOR_64 = RibbonKernel.COEFF_XOR_64;

  /** The earlier {@code RibbonProbe.heap}, unchanged. */
  static boolean heap(long[] data, int upper, int upperStartBlock, int start, long a) {
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
      if (j == 1 && (miss & 1) != 0) {
        return false;
      }
    }
    int k = 2 * last;
    long x = (data[p0 + k] & wa) ^ (data[p1 + k] & wb) ^ (data[p2 + k] & wc);
    miss |= (Long.bitCount(x) ^ (want >>> last)) & (columns - last);
    return (miss & 1) == 0;
  }

  /** {@code BumpedRibbonKernel.Layer.probe} of a heap layer with the oracle's column probe. */
  static int layerProbe(BumpedRibbonKernel.Layer l, long hash64, int thresholds) {
    long h = BumpedRibbonKernel.layerHash(hash64, l.seed);
    int start = RibbonProbe.start(h, l.numStarts);
    int block = start >>> 7;
    int t = (int) (l.meta[block >>> 5] >>> ((block & 31) << 1)) & 3;
    if ((start & 127) < ((thresholds >>> (t << 3)) & 0xFF)) {
      return -1;
    }
    long a = h * RibbonKernel.COEFF_AND_RESULT_FACTOR;
    return heap(l.data, l.upperNumColumns, l.upperStartBlock, start, a) ? 1 : 0;
  }

  /** {@code BumpedRibbonFilter.mayContainHash} of a heap filter with the oracle's column probe. */
  static boolean bumped(BumpedRibbonFilter f, long hash64) {
    int[] t = f.thresholds();
    int thresholds = BumpedRibbonKernel.packThresholds(t[1], t[2]);
    for (int i = 0; i < f.numLayers(); i++) {
      int r = layerProbe(f.layer(i), hash64, thresholds);
      if (r >= 0) {
        return r != 0;
      }
    }
    return false;
  }

  /**
   * {@code Standard128RibbonFilter.mayContainHash} of a heap filter with the oracle's column probe,
   * its data read back word by word ({@code word(i)}: the segments, then zero padding).
   */
  static boolean standard(Standard128RibbonFilter f, long[] padded, long hash64) {
    int numBlocks = f.numBlocks();
    if (numBlocks == 0) {
      return false;
    }
    int upper = (f.numSegments() + numBlocks - 1) / numBlocks;
    int upperStartBlock = upper * numBlocks - f.numSegments();
    long rawSeed64 = RibbonKernel.rawSeed(f.seed()) & 0xFFFFFFFFL;
    long h = (hash64 ^ rawSeed64) * RibbonKernel.REHASH_FACTOR;
    int start = RibbonProbe.start(h, numBlocks * 128 - 127);
    long a = h * RibbonKernel.COEFF_AND_RESULT_FACTOR;
    return heap(padded, upper, upperStartBlock, start, a);
  }

  /** The filter's heap data with its padding: {@code 2 · (numSegments + upperNumColumns)} words. */
  static long[] padded(Standard128RibbonFilter f) {
    int numBlocks = f.numBlocks();
    int upper = numBlocks == 0 ? 0 : (f.numSegments() + numBlocks - 1) / numBlocks;
    long[] d = new long[2 * (f.numSegments() + upper)];
    for (int i = 0; i < d.length; i++) {
      d[i] = f.word(i);
    }
    return d;
  }
}
