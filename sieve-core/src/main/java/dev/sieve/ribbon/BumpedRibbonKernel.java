package dev.sieve.ribbon;

import dev.sieve.math.BloomMath;
import dev.sieve.math.RibbonMath;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.Arrays;

/**
 * The kernel of {@link BumpedRibbonFilter}: the layers' hashing and the {@link Layer}, one layer's
 * shape, 2-bit thresholds and interleaved solution, on the heap or read in place from the payload's
 * buffer, with its probe (the two storages side by side behind one null check). The column probe
 * itself is {@link RibbonProbe}'s, shared with {@link Standard128RibbonFilter}; the payload is
 * {@link BumpedRibbonForm}'s and the construction {@link BumpedRibbonBanding}'s.
 *
 * <h2>Hashing</h2>
 *
 * From the 64-bit key hash {@code k} and the layer's 64-bit seed {@code σ_ℓ} (from the filter's
 * seed by a SplitMix64 step per layer): {@code x = (k ^ σ_ℓ) · M1}, {@code h = (x ^ x >>> 32) ·
 * M2}. The start is {@code FastRange64(h, numSlots - 127)}; with {@code a = h · 0xc28f82822b650bed}
 * the coefficient row and the 32-bit result row are derived from {@code a} exactly as in Standard
 * Ribbon ({@link Standard128RibbonFilter}). A fresh seed per layer makes the bumped keys' positions
 * in the next layer independent of why they were bumped.
 */
final class BumpedRibbonKernel {
  private BumpedRibbonKernel() {}

  /**
   * The exact FPR of the stored layout for uniformly random absent keys ({@link
   * RibbonMath#bumpedRibbonFpRate}): per layer, per block, the share of starts that stop there
   * times {@code 2^-columns}; combined with the 64-bit key-hash collision rate. 0 for no layers.
   */
  static double modelledFpRate(Layer[] layers, int thresholds, long numKeys) {
    if (layers.length == 0) {
      return 0.0;
    }
    double[] bumped = new double[layers.length];
    double[] matched = new double[layers.length];
    for (int i = 0; i < layers.length; i++) {
      Layer l = layers[i];
      double b = 0;
      double m = 0;
      for (int block = 0; block < l.numBlocks; block++) {
        int starts = block == l.numBlocks - 1 ? 1 : 128;
        int t = Math.min(starts, l.threshold(block, thresholds));
        b += t;
        m += (starts - t) * Math.pow(0.5, l.columns(block));
      }
      bumped[i] = b / l.numStarts;
      matched[i] = m / l.numStarts;
    }
    return BloomMath.independentProbabilitySum(
        RibbonMath.bumpedRibbonFpRate(bumped, matched),
        BloomMath.fingerprintFpRate((double) numKeys, 64));
  }

  /** The answer of layers 1 and on for a key bumped from layer 0 (a few percent of queries). */
  static boolean deeper(Layer[] layers, int thresholds, long hash64) {
    for (int i = 1; i < layers.length; i++) {
      int r = layers[i].probe(hash64, thresholds);
      if (r >= 0) {
        return r != 0;
      }
    }
    return false; // unreachable for a valid filter: the last layer bumps nothing
  }

  private static final long M1 = 0x9E3779B97F4A7C15L;
  private static final long M2 = 0xD6E8FEB86659FD93L;

  /** The seed of layer {@code layer}: one SplitMix64 output per layer from the filter's seed. */
  static long layerSeed(long seed, int layer) {
    long z = seed + (layer + 1) * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The layer's hash of a key hash: {@code x = (k ^ σ)·M1; h = (x ^ x >>> 32)·M2}. */
  static long layerHash(long hash64, long layerSeed) {
    long x = (hash64 ^ layerSeed) * M1;
    return (x ^ (x >>> 32)) * M2;
  }

  /**
   * The thresholds {@code 0, T1, T2, 128} packed one per byte, as {@link Layer#probe} reads them.
   */
  static int packThresholds(int t1, int t2) {
    return (t1 << 8) | (t2 << 16) | (128 << 24);
  }

  /** The metadata words of a layer of {@code numBlocks} blocks: 2 bits per block. */
  static int metaWords(int numBlocks) {
    return (numBlocks + 31) >>> 5;
  }

  /** One layer: its shape, its metadata and its solution (heap or in a buffer). */
  static final class Layer {
    final long seed;
    final int numBlocks;
    final int numStarts;
    final int numSegments;
    final int upperNumColumns;
    final int upperStartBlock;
    final long[] meta; // null when wrapped
    final long[] data; // segments then 2·upperNumColumns zero words; null when wrapped
    final ByteBuffer buf; // little-endian, wrapped form; null on the heap
    final LongBuffer words; // buf's words (the payload is whole words); null on the heap
    final int metaOffset;
    final int dataOffset;

    /** A layer on the heap: its metadata and its segment data (padded here if it is not yet). */
    Layer(long seed, int numBlocks, int numSegments, long[] meta, long[] data) {
      this(seed, numBlocks, numSegments, meta, padded(data, numSegments, numBlocks), null, 0);
    }

    /** A layer read in place from {@code buf}, its metadata at byte {@code metaOffset}. */
    Layer(long seed, int numBlocks, int numSegments, ByteBuffer buf, int metaOffset) {
      this(seed, numBlocks, numSegments, null, null, buf, metaOffset);
    }

    private Layer(
        long seed,
        int numBlocks,
        int numSegments,
        long[] meta,
        long[] data,
        ByteBuffer buf,
        int metaOffset) {
      this.seed = seed;
      this.numBlocks = numBlocks;
      this.numStarts = numBlocks * 128 - 127;
      this.numSegments = numSegments;
      this.upperNumColumns = upperNumColumns(numSegments, numBlocks);
      this.upperStartBlock = (int) ((long) upperNumColumns * numBlocks - numSegments);
      this.meta = meta;
      this.data = data;
      this.buf = buf;
      this.words =
          buf == null
              ? null
              : buf.duplicate().position(0).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
      this.metaOffset = metaOffset;
      this.dataOffset = buf == null ? 0 : metaOffset + 8 * metaWords(numBlocks);
    }

    private static int upperNumColumns(int numSegments, int numBlocks) {
      return (int) (((long) numSegments + numBlocks - 1) / numBlocks);
    }

    /** The segments then the zero words the probe may read past the end ({@link RibbonProbe}). */
    private static long[] padded(long[] data, int numSegments, int numBlocks) {
      int padded = RibbonProbe.paddedWords(numSegments, upperNumColumns(numSegments, numBlocks));
      return data.length == padded ? data : Arrays.copyOf(data, padded);
    }

    long metaWord(int i) {
      return meta != null ? meta[i] : buf.getLong(metaOffset + 8 * i);
    }

    long word(int i) {
      if (data != null) {
        return data[i];
      }
      return i < 2 * numSegments ? buf.getLong(dataOffset + 8 * i) : 0L;
    }

    int threshold(int block, int thresholds) {
      int t = (int) (metaWord(block >>> 5) >>> ((block & 31) << 1)) & 3;
      return (thresholds >>> (t << 3)) & 0xFF;
    }

    int columns(int block) {
      return upperNumColumns - ((block - upperStartBlock) >>> 31);
    }

    /** 1: the key matches, 0: it does not, -1: it was bumped to the next layer. */
    int probe(long hash64, int thresholds) {
      long h = layerHash(hash64, seed);
      int start = RibbonProbe.start(h, numStarts);
      int block = start >>> 7;
      int bit = start & 127;
      final long[] meta = this.meta;
      int t =
          (int)
                  ((meta != null
                          ? meta[block >>> 5]
                          : words.get((metaOffset >>> 3) + (block >>> 5)))
                      >>> ((block & 31) << 1))
              & 3;
      if (bit < ((thresholds >>> (t << 3)) & 0xFF)) {
        return -1;
      }
      long a = h * RibbonKernel.COEFF_AND_RESULT_FACTOR;
      final long[] data = this.data;
      boolean match =
          data != null
              ? RibbonProbe.heap(data, upperNumColumns, upperStartBlock, start, a)
              : RibbonProbe.buffer(
                  words, dataOffset >>> 3, upperNumColumns, upperStartBlock, start, a);
      return match ? 1 : 0;
    }
  }
}
