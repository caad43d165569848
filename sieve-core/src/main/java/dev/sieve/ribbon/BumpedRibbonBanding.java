package dev.sieve.ribbon;

import static dev.sieve.ribbon.BumpedRibbonFilter.LOAD;
import static dev.sieve.ribbon.BumpedRibbonFilter.MAX_BLOCKS;
import static dev.sieve.ribbon.BumpedRibbonFilter.MAX_LAYERS;
import static dev.sieve.ribbon.BumpedRibbonKernel.layerHash;
import static dev.sieve.ribbon.BumpedRibbonKernel.layerSeed;
import static dev.sieve.ribbon.BumpedRibbonKernel.metaWords;
import static dev.sieve.ribbon.BumpedRibbonKernel.packThresholds;

import dev.sieve.internal.base.LongList;
import dev.sieve.ribbon.BumpedRibbonKernel.Layer;
import java.util.Arrays;

/**
 * The construction of a {@link BumpedRibbonFilter}, layer after layer until no key is bumped: each
 * layer's keys sorted by start, banded bucket by bucket from the highest offset down with {@link
 * RibbonBanding#insert}, a bucket's threshold raised (and its stored rows removed) at the first
 * contradiction, then back-substituted ({@link RibbonBanding#backSubstitute}). The filter's class
 * Javadoc describes the sizing.
 *
 * <h2>Construction (per layer)</h2>
 *
 * The layer's keys are ordered by start (bucket, then offset within the bucket: two counting-sort
 * passes). Buckets are processed left to right, and within a bucket from the highest offset down,
 * each key added to the band by on-the-fly Gaussian elimination ({@link RibbonBanding#insert}). If
 * a key contradicts the stored rows (its row reduces to zero, its result does not), the bucket's
 * threshold becomes the smallest of the allowed values {@code {0, T1, T2, 128}} above that key's
 * offset; the rows stored for the bucket's keys below it are removed (they are the last ones
 * stored, so removing them, last first, restores the band exactly), and all keys of the bucket
 * below the threshold are bumped. The threshold is stored as a 2-bit index. Duplicate keys give
 * identical rows, which reduce to zero with a zero result: they are accepted, never bumped. Then
 * back-substitution writes the solution in Standard Ribbon's interleaved column layout ({@link
 * RibbonBanding#backSubstitute}).
 */
final class BumpedRibbonBanding {

  private BumpedRibbonBanding() {}

  /** The result of banding one layer: the band, its thresholds, the keys bumped from it. */
  private static final class LayerBand {
    RibbonBanding band;
    long[] meta;
    long[] bumped;
    int numBumped;
  }

  static BumpedRibbonFilter build(
      long[] hashes, int count, double resultBits, long seed, int t1, int t2) {
    return build(hashes, count, resultBits, seed, t1, t2, LOAD);
  }

  /** As the builder does, with the thresholds and the load (keys per slot) given, for tuning. */
  static BumpedRibbonFilter build(
      long[] hashes, int count, double resultBits, long seed, int t1, int t2, double load) {
    if (count == 0) {
      return new BumpedRibbonFilter(seed, 0, t1, t2, new Layer[0]);
    }
    int thresholds = packThresholds(t1, t2);
    java.util.List<Layer> layers = new java.util.ArrayList<>();
    long[] keys = hashes;
    int n = count;
    double slotsPerKey = 1.0 / load;
    for (int i = 0; n > 0; i++) {
      if (i >= MAX_LAYERS) {
        throw new IllegalStateException(
            "Bumped Ribbon: " + n + " keys still bumped after " + MAX_LAYERS + " layers");
      }
      long want = (long) Math.ceil(n * slotsPerKey / 128.0);
      if (want > MAX_BLOCKS) {
        throw new IllegalArgumentException(
            n + " keys need " + want + " blocks in one layer, more than " + MAX_BLOCKS);
      }
      int numBlocks = (int) Math.max(2, want);
      long ls = layerSeed(seed, i);
      LayerBand lb = band(keys, n, numBlocks, ls, thresholds);
      int numSegments =
          (int) Math.min(32L * numBlocks, Math.max(numBlocks, Math.round(numBlocks * resultBits)));
      int upper = (numSegments + numBlocks - 1) / numBlocks;
      int upperStart = upper * numBlocks - numSegments;
      long[] data = lb.band.backSubstitute(numSegments, upper, upperStart);
      lb.band = null;
      if (lb.numBumped == n) {
        slotsPerKey *= 2; // no progress (never seen): give the next layer twice the room
      }
      layers.add(new Layer(ls, numBlocks, numSegments, lb.meta, data));
      keys = lb.bumped;
      n = lb.numBumped;
    }
    return new BumpedRibbonFilter(seed, count, t1, t2, layers.toArray(new Layer[0]));
  }

  /** Bands the first {@code n} keys into one layer of {@code numBlocks} blocks. */
  private static LayerBand band(long[] keys, int n, int numBlocks, long ls, int thresholds) {
    int numSlots = numBlocks * 128;
    int numStarts = numSlots - 127;
    // two counting-sort passes: by offset within the block, then (stable) by block
    long[] tmp = new long[n];
    int[] count = new int[Math.max(128, numBlocks) + 1];
    for (int k = 0; k < n; k++) {
      count[(RibbonKernel.start(layerHash(keys[k], ls), numStarts) & 127) + 1]++;
    }
    for (int i = 1; i <= 128; i++) {
      count[i] += count[i - 1];
    }
    for (int k = 0; k < n; k++) {
      int off = RibbonKernel.start(layerHash(keys[k], ls), numStarts) & 127;
      tmp[count[off]++] = keys[k];
    }
    long[] sorted = new long[n];
    Arrays.fill(count, 0);
    for (int k = 0; k < n; k++) {
      count[(RibbonKernel.start(layerHash(tmp[k], ls), numStarts) >>> 7) + 1]++;
    }
    int maxBucket = 0;
    for (int i = 1; i <= numBlocks; i++) {
      maxBucket = Math.max(maxBucket, count[i]);
      count[i] += count[i - 1];
    }
    // count[b] is now the first index of block b; keep a copy of the starts
    int[] begin = Arrays.copyOf(count, numBlocks + 1);
    for (int k = 0; k < n; k++) {
      int blk = RibbonKernel.start(layerHash(tmp[k], ls), numStarts) >>> 7;
      sorted[count[blk]++] = tmp[k];
    }
    tmp = null;

    RibbonBanding band = new RibbonBanding(numSlots);
    long[] meta = new long[metaWords(numBlocks)];
    LongList bumped = new LongList(16);
    int[] logSlot = new int[maxBucket];
    int[] logOffset = new int[maxBucket];
    for (int blk = 0; blk < numBlocks; blk++) {
      int lo = begin[blk];
      int hi = begin[blk + 1];
      int logged = 0;
      int threshold = 0;
      for (int k = hi - 1; k >= lo; k--) {
        long h = layerHash(sorted[k], ls);
        int start = RibbonKernel.start(h, numStarts);
        long a = h * RibbonKernel.COEFF_AND_RESULT_FACTOR;
        int slot = band.insert(start, RibbonKernel.coeffLow(a), a, RibbonKernel.resultRow(a));
        int offset = start & 127;
        if (slot != RibbonBanding.INCONSISTENT) {
          logSlot[logged] = slot;
          logOffset[logged++] = offset;
          continue;
        }
        int t = 1;
        while (((thresholds >>> (t << 3)) & 0xFF) <= offset) {
          t++;
        }
        threshold = (thresholds >>> (t << 3)) & 0xFF;
        while (logged > 0 && logOffset[logged - 1] < threshold) {
          int s = logSlot[--logged];
          if (s >= 0) {
            band.clearSlot(s);
          }
        }
        meta[blk >>> 5] |= (long) t << ((blk & 31) << 1);
        break;
      }
      if (threshold > 0) {
        for (int k = lo; k < hi; k++) {
          long key = sorted[k];
          if ((RibbonKernel.start(layerHash(key, ls), numStarts) & 127) >= threshold) {
            break;
          }
          bumped.add(key);
        }
      }
    }
    LayerBand out = new LayerBand();
    out.band = band;
    out.meta = meta;
    out.bumped = bumped.array();
    out.numBumped = bumped.size();
    return out;
  }
}
