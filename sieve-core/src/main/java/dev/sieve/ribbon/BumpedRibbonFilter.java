package dev.sieve.ribbon;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.internal.Schemes;
import dev.sieve.internal.base.Checks;
import dev.sieve.math.RibbonMath;
import dev.sieve.ribbon.BumpedRibbonKernel.Layer;
import java.nio.ByteBuffer;
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
 * The layer's keys, ordered by start, are banded bucket by bucket by on-the-fly Gaussian
 * elimination; at a key that contradicts the stored rows, the bucket's threshold rises to the next
 * allowed value {@code {0, T1, T2, 128}} and the bucket's keys below it are bumped ({@code
 * BumpedRibbonBanding} gives the steps). Duplicate keys are accepted, never bumped.
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
 * Each layer hashes the 64-bit key hash with its own seed (from the filter's seed), so the bumped
 * keys' positions in the next layer are independent of why they were bumped ({@code
 * BumpedRibbonKernel} gives the mixing); the coefficient and result rows are Standard Ribbon's.
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
 * next layer gets twice the blocks, so the cascade always ends; at most {@code MAX_LAYERS} layers.
 *
 * <h2>Layout</h2>
 *
 * A 24-byte header (version, thresholds, layer count, seed, key count), a descriptor per layer,
 * then each layer's 2-bit thresholds and its solution in Standard Ribbon's interleaved order
 * ({@code BumpedRibbonForm} and docs/format.md give the bytes). At most one Java array (just under
 * 2 GiB: about 2·10^9 keys at 7 bits), read from a container copied ({@code SieveFormat.read}) or
 * in place ({@code SieveFormat.wrap}, {@code map}).
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
  static final int VERSION = 1;

  /** The most layers a filter has (the cascade ends long before: about 5 at 10^7 keys). */
  static final int MAX_LAYERS = 64;

  /**
   * The most blocks per layer, 2^23 − 1: the build's band holds two {@code long}s per slot in one
   * array. Layer 0 then takes up to about 1.08·10^9 keys.
   */
  static final int MAX_BLOCKS = (1 << 23) - 1;

  /** Keys per slot a layer is sized for (overloaded on purpose: the excess is bumped). */
  public static final double LOAD = 1.01;

  /** The middle thresholds written by the builder. */
  static final int DEFAULT_T1 = 16;

  static final int DEFAULT_T2 = 32;

  private final long seed;
  private final long numKeys;
  private final int t1;
  private final int t2;
  private final int thresholds; // packed bytes: 0, T1, T2, 128
  private final Layer[] layers;
  private final Layer first; // layers[0], or null for the empty filter
  private final KeyScheme keyScheme;

  BumpedRibbonFilter(long seed, long numKeys, int t1, int t2, Layer[] layers) {
    this(seed, numKeys, t1, t2, layers, KeyScheme.XXPH3);
  }

  private BumpedRibbonFilter(
      long seed, long numKeys, int t1, int t2, Layer[] layers, KeyScheme keyScheme) {
    this.keyScheme = keyScheme;
    this.seed = seed;
    this.numKeys = numKeys;
    this.t1 = t1;
    this.t2 = t2;
    this.thresholds = BumpedRibbonKernel.packThresholds(t1, t2);
    this.layers = layers;
    this.first = layers.length == 0 ? null : layers[0];
  }

  // ---------------------------------------------------------------- queries

  @Override
  public KeyScheme keyScheme() {
    return keyScheme;
  }

  @Override
  public BumpedRibbonFilter withKeyScheme(KeyScheme scheme) {
    Schemes.check(this, scheme);
    return scheme == keyScheme
        ? this
        : new BumpedRibbonFilter(seed, numKeys, t1, t2, layers, scheme);
  }

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
    return BumpedRibbonKernel.deeper(layers, thresholds, hash64);
  }

  // ---------------------------------------------------------------- accessors

  /** The seed the layer seeds derive from. */
  public long seed() {
    return seed;
  }

  /** The number of layers (0 for the empty filter). */
  int numLayers() {
    return layers.length;
  }

  /** The number of 128-slot blocks of layer {@code i}. */
  public int numBlocks(int i) {
    return layers[i].numBlocks;
  }

  /** The number of 16-byte segments of solution of layer {@code i}. */
  int numSegments(int i) {
    return layers[i].numSegments;
  }

  /** The total number of slots over all layers. */
  long numSlots() {
    long s = 0;
    for (Layer l : layers) {
      s += 128L * l.numBlocks;
    }
    return s;
  }

  /** Layer {@code i}, for the package's tests. */
  Layer layer(int i) {
    return layers[i];
  }

  /** The middle thresholds {@code T1, T2} (the others are 0 and 128). */
  public int[] thresholds() {
    return new int[] {0, t1, t2, 128};
  }

  /** Whether the filter reads its data in place from a buffer. */
  boolean isWrapped() {
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
    return BumpedRibbonKernel.modelledFpRate(layers, thresholds, numKeys);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof BumpedRibbonFilter other)) {
      return false;
    }
    return numKeys == other.numKeys
        && seed == other.seed
        && keyScheme == other.keyScheme
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

  /** The length of {@link #toByteArray()}. */
  long serializedLength() {
    return BumpedRibbonForm.serializedLength(layers);
  }

  /** The payload (the class Javadoc outlines its layout). */
  byte[] toByteArray() {
    return BumpedRibbonForm.toBytes(t1, t2, seed, numKeys, layers);
  }

  /**
   * Reads {@link #toByteArray()}'s form, copied onto the heap. The form records no key scheme (the
   * container does): {@code scheme} is the written filter's {@link #keyScheme()}.
   */
  static BumpedRibbonFilter fromByteArray(byte[] bytes, KeyScheme scheme) {
    Objects.requireNonNull(bytes, "bytes");
    return BumpedRibbonForm.read(ByteBuffer.wrap(bytes), false).withKeyScheme(scheme);
  }

  /**
   * Reads {@link #toByteArray()}'s form from the remaining bytes of {@code buffer} in place (heap,
   * direct or memory-mapped), without copying; the buffer's bytes must not change while the filter
   * is used. Checks and {@code scheme} as {@link #fromByteArray}.
   */
  static BumpedRibbonFilter wrap(ByteBuffer buffer, KeyScheme scheme) {
    Objects.requireNonNull(buffer, "buffer");
    return BumpedRibbonForm.read(buffer.slice(), true).withKeyScheme(scheme);
  }

  // ---------------------------------------------------------------- construction

  /** A builder: result bits from a target FPR or given directly, a seed. */
  public static Builder builder() {
    return new Builder().keyScheme(KeyScheme.FAST);
  }

  /**
   * Builds Bumped Ribbon filters. Result bits: {@link #fpRate} (fractional, the fewest that reach
   * the rate, as Standard Ribbon interpolates between whole columns) or {@link #resultBits}
   * (default 7: FPR 1/128 ≈ 0.78%); whole result bits sit closest to the floor. Seed: {@link #seed}
   * (default 0). Duplicate keys are accepted and counted.
   */
  public static final class Builder extends FilterBuilder<BumpedRibbonFilter> {
    @Override
    public Builder keyScheme(KeyScheme scheme) {
      super.keyScheme(scheme);
      return this;
    }

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
      return BumpedRibbonBanding.build(hashes, count, resultBits, seed, DEFAULT_T1, DEFAULT_T2);
    }
  }
}
