package dev.sieve.ribbon;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.Checks;
import dev.sieve.internal.LongList;
import dev.sieve.math.BloomMath;
import dev.sieve.math.RibbonMath;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * A static Bumped Ribbon (BuRR) filter: Ribbon's banded linear system, filled almost to the last
 * slot, with the keys that do not fit passed ("bumped") to a smaller Ribbon of their own. Sieve's
 * own format (container type id 10); <b>not</b> RocksDB-compatible: RocksDB has no such filter.
 *
 * <h2>The idea</h2>
 *
 * A Ribbon filter ({@link Standard128RibbonFilter}) solves, over GF(2), one equation per key: the
 * XOR of the solution rows at the key's 128 slots from its start, weighted by its coefficient row,
 * equals its {@code r}-bit fingerprint. A negative query matches with probability {@code 2^-r}.
 * Standard Ribbon must leave a few percent of the slots empty so the system is solvable, and those
 * slots cost {@code r} bits each: 1.06-1.07× the information floor {@code log2(1/f)}. Bumped Ribbon
 * Retrieval (Dillinger, Hübschle-Schneider, Sanders, Walzer) <em>overloads</em> the band instead,
 * with about as many keys as slots, and lets a key that cannot be placed move on: the slots are
 * grouped into buckets (here one bucket per 128-slot block), and for each bucket a small
 * <em>threshold</em> is stored; keys whose start lies in the bucket at an offset below the
 * threshold are bumped to the next layer, the rest are solved in this one. The next layer is a
 * filter of the same kind over the bumped keys (a few percent of them), with a fresh hash, and so
 * on until no key is bumped. Empty slots remain only where a threshold bumped more keys than the
 * contradiction required and at the right end of each layer, well under 1% in total.
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
 *
 * <h2>Query</h2>
 *
 * In layer 0: hash, start {@code s}, bucket {@code s / 128}, threshold {@code T[meta(bucket)]}; if
 * {@code s % 128 < T}, go to the next layer (rehash with its seed), else compare the key's result
 * row with the parities of its columns, with Standard Ribbon's probe ({@code RibbonProbe}: the same
 * answer as RocksDB's column loop, one early exit after two columns), and answer. A negative query
 * goes past layer 0 with probability of a few percent (the bumped share of starts), so a query
 * reads on average about one layer's columns plus one 2-bit metadata entry (a small, cache-resident
 * array).
 *
 * <h2>Hashing</h2>
 *
 * From the 64-bit key hash {@code k} and the layer's 64-bit seed {@code σ_ℓ} (from the filter's
 * seed by a SplitMix64 step per layer): {@code x = (k ^ σ_ℓ) · M1}, {@code h = (x ^ x >>> 32) ·
 * M2}. The start is {@code FastRange64(h, numSlots - 127)}; with {@code a = h · 0xc28f82822b650bed}
 * the coefficient row and the 32-bit result row are derived from {@code a} exactly as in Standard
 * Ribbon ({@link Standard128RibbonFilter}). A fresh seed per layer makes the bumped keys' positions
 * in the next layer independent of why they were bumped.
 *
 * <h2>The math</h2>
 *
 * A layer with {@code c} columns in a fraction {@code p} of its blocks and {@code c + 1} in the
 * rest (fractional result bits, as Standard Ribbon) matches a negative that stops in it with
 * probability {@code 2^-c} or {@code 2^-(c+1)} by the block of its start. The model FPR is exact
 * for the stored layout: the sum over layers and blocks of (share of starts that reach the layer
 * and stop in the block) × (that block's {@code 2^-columns}), combined with the 64-bit key-hash
 * collision rate ({@link RibbonMath#bumpedRibbonFpRate}). The size is {@code Σ 128·segments +
 * 2·blocks} bits ({@link RibbonMath#bumpedRibbonBitsPerKey} models it from slots per key). With
 * whole result bits {@code r} the FPR is {@code 2^-r} and the overhead over the floor is the share
 * of empty slots plus {@code 2/(128 r)} for the thresholds; with fractional {@code r} add the
 * interpolation loss of {@link RibbonMath#ribbonResultBitsForFpRate} (up to 0.086 bits).
 *
 * <h2>Sizing</h2>
 *
 * A layer over {@code n} keys has {@code max(2, ceil(n / (128 · LOAD)))} blocks with {@link #LOAD}
 * keys per slot, a little over 1 (overloaded: some keys will be bumped, almost no slot stays
 * empty). Should a layer bump every key it was given (never seen; possible only in principle), the
 * next layer gets twice the blocks, so the cascade always ends; at most {@link #MAX_LAYERS} layers.
 *
 * <h2>Layout (the payload, all integers little-endian)</h2>
 *
 * <pre>
 * offset 0   u8   payload version (1)
 * offset 1   u8   T1, offset 2 u8 T2: the middle thresholds, 0 &lt; T1 &lt; T2 &lt; 128
 * offset 3   u8   number of layers L (0 for the empty filter, else 1..MAX_LAYERS)
 * offset 4   u32  reserved, 0
 * offset 8   i64  seed
 * offset 16  i64  number of keys (≥ 0; 0 exactly when L = 0)
 * offset 24  L × (i32 number of blocks B ≥ 2, i32 number of 16-byte segments, B..32·B)
 * then per layer: ceil(B / 32) metadata words (2 bits per block, block b at bits 2(b % 32) of word
 *            b / 32; unused bits 0; all 0 in the last layer), then the segments (two words each,
 *            low half first) in Standard Ribbon's interleaved order
 * </pre>
 *
 * The payload is at most one Java array (just under 2 GiB: about 2·10^9 keys at 7 bits), read
 * copied ({@link #fromByteArray}) or in place ({@link #wrap}).
 *
 * <h2>The trade-off</h2>
 *
 * Smaller than Standard Ribbon: 1.0036× the floor at 10^6 random keys and 7 result bits (the
 * thresholds alone cost 2/(128·7) = 0.22%), against 1.06-1.07× for Standard Ribbon. About the same
 * query: one more read of a small metadata array that stays in cache, and a second layer for the
 * few percent of keys whose start is bumped. A slower build: an overloaded band makes each key's
 * elimination walk long (measured 30 XOR steps per key at load 1.00 and 46 at 1.02, against 6.4 at
 * 0.95, near Standard Ribbon's sizing), plus two sort passes and the bumped layers; {@link #LOAD}
 * trades this against size (measured at 10^6 keys: 1.0069× the floor at load 1.00, 1.0036× at 1.01,
 * 1.0027× at 1.02, but 1.023× at 0.98, where too few keys fail for the band to fill). Static; not
 * RocksDB's format. Small filters pay the layers' edges (each layer's last block is nearly empty,
 * and a layer has at least 2 blocks): 1.026× at 10^4 keys.
 *
 * <p>References: P. C. Dillinger, L. Hübschle-Schneider, P. Sanders, S. Walzer, "Fast Succinct
 * Retrieval and Approximate Membership Using Ribbon", SEA 2022, arXiv:2109.01892; P. C. Dillinger,
 * S. Walzer, "Ribbon filter: practically smaller than Bloom and Xor", arXiv:2103.02515.
 */
public final class BumpedRibbonFilter implements Filter {

  /** The payload version written. */
  public static final int VERSION = 1;

  /** The most layers a filter has (the cascade ends long before: about 5 at 10^7 keys). */
  public static final int MAX_LAYERS = 64;

  /**
   * The most blocks per layer, 2^23 − 1: the build's band holds two {@code long}s per slot in one
   * array. Layer 0 then takes up to about 1.08·10^9 keys.
   */
  public static final int MAX_BLOCKS = (1 << 23) - 1;

  /** Keys per slot a layer is sized for (overloaded on purpose: the excess is bumped). */
  public static final double LOAD = 1.01;

  /** The middle thresholds written by the builder. */
  static final int DEFAULT_T1 = 16;

  static final int DEFAULT_T2 = 32;

  private static final int HEADER_BYTES = 24;
  private static final int LAYER_DESCRIPTOR_BYTES = 8;
  private static final long M1 = 0x9E3779B97F4A7C15L;
  private static final long M2 = 0xD6E8FEB86659FD93L;

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

    Layer(long seed, int numBlocks, int numSegments, long[] meta, long[] data) {
      this.seed = seed;
      this.numBlocks = numBlocks;
      this.numStarts = numBlocks * 128 - 127;
      this.numSegments = numSegments;
      this.upperNumColumns = (int) (((long) numSegments + numBlocks - 1) / numBlocks);
      this.upperStartBlock = (int) ((long) upperNumColumns * numBlocks - numSegments);
      this.meta = meta;
      int padded = 2 * numSegments + 2 * upperNumColumns;
      this.data = data.length == padded ? data : Arrays.copyOf(data, padded);
      this.buf = null;
      this.words = null;
      this.metaOffset = 0;
      this.dataOffset = 0;
    }

    Layer(long seed, int numBlocks, int numSegments, ByteBuffer buf, int metaOffset) {
      this.seed = seed;
      this.numBlocks = numBlocks;
      this.numStarts = numBlocks * 128 - 127;
      this.numSegments = numSegments;
      this.upperNumColumns = (int) (((long) numSegments + numBlocks - 1) / numBlocks);
      this.upperStartBlock = (int) ((long) upperNumColumns * numBlocks - numSegments);
      this.meta = null;
      this.data = null;
      this.buf = buf;
      this.words = buf.duplicate().position(0).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
      this.metaOffset = metaOffset;
      this.dataOffset = metaOffset + 8 * metaWords(numBlocks);
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

  private final long seed;
  private final long numKeys;
  private final int t1;
  private final int t2;
  private final int thresholds; // packed bytes: 0, T1, T2, 128
  private final Layer[] layers;
  private final Layer first; // layers[0], or null for the empty filter

  private BumpedRibbonFilter(long seed, long numKeys, int t1, int t2, Layer[] layers) {
    this.seed = seed;
    this.numKeys = numKeys;
    this.t1 = t1;
    this.t2 = t2;
    this.thresholds = packThresholds(t1, t2);
    this.layers = layers;
    this.first = layers.length == 0 ? null : layers[0];
  }

  private static int packThresholds(int t1, int t2) {
    return (t1 << 8) | (t2 << 16) | (128 << 24);
  }

  // ---------------------------------------------------------------- hashing

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

  // ---------------------------------------------------------------- queries

  @Override
  public boolean mayContainHash(long hash64) {
    Layer l = first;
    if (l == null) {
      return false;
    }
    int r = l.probe(hash64, thresholds);
    if (r >= 0) {
      return r != 0;
    }
    return deeper(hash64);
  }

  private boolean deeper(long hash64) {
    for (int i = 1; i < layers.length; i++) {
      int r = layers[i].probe(hash64, thresholds);
      if (r >= 0) {
        return r != 0;
      }
    }
    return false; // unreachable for a valid filter: the last layer bumps nothing
  }

  // ---------------------------------------------------------------- accessors

  /** The seed the layer seeds derive from. */
  public long seed() {
    return seed;
  }

  /** The number of layers (0 for the empty filter). */
  public int numLayers() {
    return layers.length;
  }

  /** The number of 128-slot blocks of layer {@code i}. */
  public int numBlocks(int i) {
    return layers[i].numBlocks;
  }

  /** The number of 16-byte segments of solution of layer {@code i}. */
  public int numSegments(int i) {
    return layers[i].numSegments;
  }

  /** The total number of slots over all layers. */
  public long numSlots() {
    long s = 0;
    for (Layer l : layers) {
      s += 128L * l.numBlocks;
    }
    return s;
  }

  /** The middle thresholds {@code T1, T2} (the others are 0 and 128). */
  public int[] thresholds() {
    return new int[] {0, t1, t2, 128};
  }

  /** Whether the filter reads its data in place from a buffer. */
  public boolean isWrapped() {
    return first != null && first.data == null;
  }

  /**
   * The result bits averaged over the slots: {@code 128 · segments / slots} summed over layers, the
   * {@code r} of {@link RibbonMath#ribbonFpRate}; 0 for the empty filter.
   */
  public double resultBits() {
    long slots = numSlots();
    if (slots == 0) {
      return 0.0;
    }
    long segs = 0;
    for (Layer l : layers) {
      segs += l.numSegments;
    }
    return 128.0 * segs / slots;
  }

  @Override
  public long numKeys() {
    return numKeys;
  }

  /** The solution bits plus the 2-bit thresholds of every block. */
  @Override
  public long sizeInBits() {
    long bits = 0;
    for (Layer l : layers) {
      bits += 128L * l.numSegments + 2L * l.numBlocks;
    }
    return bits;
  }

  /**
   * The exact FPR of the stored layout for uniformly random absent keys ({@link
   * RibbonMath#bumpedRibbonFpRate}): per layer, per block, the share of starts that stop there
   * times {@code 2^-columns}; combined with the 64-bit key-hash collision rate. 0 for the empty
   * filter.
   */
  @Override
  public double modelledFpRate() {
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

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof BumpedRibbonFilter other)) {
      return false;
    }
    return numKeys == other.numKeys
        && seed == other.seed
        && Arrays.equals(toByteArray(), other.toByteArray());
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(toByteArray());
  }

  @Override
  public String toString() {
    return String.format(
        "BumpedRibbonFilter[keys=%d, layers=%d, slots=%d, resultBits=%.3f, bits/key=%.4f,"
            + " fpr=%.4g, overhead=%.4f]",
        numKeys,
        layers.length,
        numSlots(),
        resultBits(),
        bitsPerKey(),
        modelledFpRate(),
        numKeys == 0 ? 0.0 : overheadOverFloor());
  }

  // ---------------------------------------------------------------- serialized form

  private static int metaWords(int numBlocks) {
    return (numBlocks + 31) >>> 5;
  }

  /** The length of {@link #toByteArray()}. */
  public long serializedLength() {
    long len = HEADER_BYTES + (long) LAYER_DESCRIPTOR_BYTES * layers.length;
    for (Layer l : layers) {
      len += 8L * metaWords(l.numBlocks) + 16L * l.numSegments;
    }
    return len;
  }

  /** The payload described in the class Javadoc. */
  public byte[] toByteArray() {
    long len = serializedLength();
    if (len > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "a Bumped Ribbon payload of " + len + " bytes does not fit one byte[]");
    }
    ByteBuffer b = ByteBuffer.allocate((int) len).order(ByteOrder.LITTLE_ENDIAN);
    b.put((byte) VERSION).put((byte) t1).put((byte) t2).put((byte) layers.length).putInt(0);
    b.putLong(seed).putLong(numKeys);
    for (Layer l : layers) {
      b.putInt(l.numBlocks).putInt(l.numSegments);
    }
    for (Layer l : layers) {
      for (int i = 0; i < metaWords(l.numBlocks); i++) {
        b.putLong(l.metaWord(i));
      }
      for (int i = 0; i < 2 * l.numSegments; i++) {
        b.putLong(l.word(i));
      }
    }
    return b.array();
  }

  /** Reads {@link #toByteArray()}'s form; the data is copied onto the heap. */
  public static BumpedRibbonFilter fromByteArray(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    return read(ByteBuffer.wrap(bytes), false);
  }

  /**
   * Reads {@link #toByteArray()}'s form from the remaining bytes of {@code buffer} in place (heap,
   * direct or memory-mapped), without copying; the buffer's bytes must not change while the filter
   * is used. Checks as {@link #fromByteArray}.
   */
  public static BumpedRibbonFilter wrap(ByteBuffer buffer) {
    Objects.requireNonNull(buffer, "buffer");
    return read(buffer.slice(), true);
  }

  /**
   * Every field is checked before anything is allocated from it; a {@link SieveFormatException}
   * names the offset, the problem and the limit.
   */
  private static BumpedRibbonFilter read(ByteBuffer in, boolean inPlace) {
    ByteBuffer b = in.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int len = b.remaining();
    if (len < HEADER_BYTES) {
      throw new SieveFormatException(
          len, "truncated: " + len + " bytes, a Bumped Ribbon payload has at least 24");
    }
    int version = b.get(0) & 0xFF;
    if (version != VERSION) {
      throw new SieveFormatException(
          0, "unknown Bumped Ribbon payload version " + version + " (only 1 is defined)");
    }
    int t1 = b.get(1) & 0xFF;
    int t2 = b.get(2) & 0xFF;
    if (!(0 < t1 && t1 < t2 && t2 < 128)) {
      throw new SieveFormatException(
          1, "thresholds " + t1 + ", " + t2 + " are not 0 < T1 < T2 < 128");
    }
    int numLayers = b.get(3) & 0xFF;
    if (numLayers > MAX_LAYERS) {
      throw new SieveFormatException(
          3, "number of layers " + numLayers + " is more than " + MAX_LAYERS);
    }
    if (b.getInt(4) != 0) {
      throw new SieveFormatException(4, "reserved bytes 4..7 are not zero");
    }
    long seed = b.getLong(8);
    long numKeys = b.getLong(16);
    if (numKeys < 0) {
      throw new SieveFormatException(16, "number of keys " + numKeys + " is negative");
    }
    if ((numKeys == 0) != (numLayers == 0)) {
      throw new SieveFormatException(
          3,
          numLayers
              + " layers for "
              + numKeys
              + " keys (a filter has layers exactly when it has keys)");
    }
    long at = HEADER_BYTES + (long) LAYER_DESCRIPTOR_BYTES * numLayers;
    if (at > len) {
      throw new SieveFormatException(
          len, "truncated: " + numLayers + " layer descriptors need " + at + " bytes");
    }
    int[] blocks = new int[numLayers];
    int[] segments = new int[numLayers];
    long expected = at;
    for (int i = 0; i < numLayers; i++) {
      int d = HEADER_BYTES + LAYER_DESCRIPTOR_BYTES * i;
      int nb = b.getInt(d);
      int ns = b.getInt(d + 4);
      if (nb < 2 || nb > MAX_BLOCKS) {
        throw new SieveFormatException(
            d, "layer " + i + ": number of blocks " + nb + " is not in [2, " + MAX_BLOCKS + "]");
      }
      if (ns < nb || ns > 32L * nb) {
        throw new SieveFormatException(
            d + 4,
            "layer "
                + i
                + ": "
                + ns
                + " segments over "
                + nb
                + " blocks is not 1 to 32 result columns per block");
      }
      blocks[i] = nb;
      segments[i] = ns;
      expected += 8L * metaWords(nb) + 16L * ns;
      if (expected > len) {
        throw new SieveFormatException(
            len,
            "truncated: the layers need at least " + expected + " bytes, the payload has " + len);
      }
    }
    if (expected != len) {
      throw new SieveFormatException(
          expected, "payload is " + len + " bytes, its layers describe exactly " + expected);
    }
    Layer[] layers = new Layer[numLayers];
    int off = (int) at;
    for (int i = 0; i < numLayers; i++) {
      int nb = blocks[i];
      int words = metaWords(nb);
      for (int w = 0; w < words; w++) {
        long word = b.getLong(off + 8 * w);
        int used = Math.min(32, nb - 32 * w);
        long unusedMask = used == 32 ? 0L : -1L << (2 * used);
        if ((word & unusedMask) != 0) {
          throw new SieveFormatException(
              off + 8 * w, "layer " + i + ": metadata bits past block " + (nb - 1) + " are set");
        }
        if (i == numLayers - 1 && word != 0) {
          throw new SieveFormatException(
              off + 8 * w, "the last layer bumps keys (nonzero threshold) but no layer follows it");
        }
      }
      long ls = layerSeed(seed, i);
      if (inPlace) {
        layers[i] = new Layer(ls, nb, segments[i], b, off);
      } else {
        long[] meta = new long[words];
        for (int w = 0; w < words; w++) {
          meta[w] = b.getLong(off + 8 * w);
        }
        int dataAt = off + 8 * words;
        int ns = segments[i];
        int upper = (int) (((long) ns + nb - 1) / nb);
        long[] data = new long[2 * ns + 2 * upper];
        for (int w = 0; w < 2 * ns; w++) {
          data[w] = b.getLong(dataAt + 8 * w);
        }
        layers[i] = new Layer(ls, nb, ns, meta, data);
      }
      off += 8 * words + 16 * segments[i];
    }
    return new BumpedRibbonFilter(seed, numKeys, t1, t2, layers);
  }

  // ---------------------------------------------------------------- construction

  /** A builder: result bits from a target FPR or given directly, a seed. */
  public static Builder builder() {
    return new Builder();
  }

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

  /**
   * Builds Bumped Ribbon filters. Result bits: {@link #fpRate} (fractional, the fewest that reach
   * the rate, as Standard Ribbon interpolates between whole columns) or {@link #resultBits}
   * (default 7: FPR 1/128 ≈ 0.78%); whole result bits sit closest to the floor. Seed: {@link #seed}
   * (default 0). Duplicate keys are accepted and counted.
   */
  public static final class Builder extends FilterBuilder<BumpedRibbonFilter> {
    private double resultBits = 7.0;
    private long seed;

    private Builder() {}

    /**
     * Sizes for a false-positive rate in (0, 1): {@link RibbonMath#ribbonResultBitsForFpRate},
     * clamped to [1, 32] result bits (rates above 1/2 get 1 bit, below 2^-32 get 32).
     */
    @Override
    public Builder fpRate(double fpRate) {
      Checks.fpRate(fpRate);
      resultBits = Math.max(1.0, Math.min(32.0, RibbonMath.ribbonResultBitsForFpRate(fpRate)));
      return this;
    }

    /** Sizes for {@code r} result bits per slot, 1 to 32 (fractional: some blocks get one more). */
    public Builder resultBits(double r) {
      if (!(r >= 1.0 && r <= 32.0)) {
        throw new IllegalArgumentException("result bits must be in [1, 32], got " + r);
      }
      resultBits = r;
      return this;
    }

    /** The hash seed the layer seeds derive from (default 0). */
    @Override
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** The result bits per slot the builder sizes for. */
    public double resultBits() {
      return resultBits;
    }

    @Override
    protected BumpedRibbonFilter buildFromHashes(long[] hashes, int count) {
      return BumpedRibbonFilter.build(hashes, count, resultBits, seed, DEFAULT_T1, DEFAULT_T2);
    }
  }
}
