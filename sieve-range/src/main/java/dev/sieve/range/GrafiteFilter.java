package dev.sieve.range;

import static dev.sieve.range.GrafiteCodes.blockOffset;
import static dev.sieve.range.GrafiteCodes.code;

import dev.sieve.KeyScheme;
import dev.sieve.internal.Schemes;
import java.util.Objects;

/**
 * Grafite, a static range filter with a false-positive bound that holds for every workload.
 *
 * <h2>The idea</h2>
 *
 * Each key {@code x} gets the code {@code h(x) = (q(⌊x/2^k⌋) + x mod 2^k) mod r}, where {@code 2^k}
 * is the block length, {@code q} a seeded hash of the block number onto {@code [0, r)} and {@code r
 * = n·L/ε} for ranges up to {@code L} at rate {@code ε}: inside a block codes keep the keys' order
 * and distances, and the blocks land at independent random places. The sorted distinct codes are
 * stored in an Elias–Fano sequence (bits per key {@code ≈ 2 + log2(r/n)}, plus about 0.42 stored
 * for its line headers and select samples and about 1 in memory for the select index its queries
 * use, {@code EliasFano}). A range {@code [lo, hi]} becomes one interval of codes per block it
 * meets ({@code [q(b) + lo mod 2^k, q(b) + hi mod 2^k]}, wrapping past {@code r}); the filter
 * answers "maybe" when a stored code lies in one. A key in the range always has its code in its
 * block's interval: no false negative.
 *
 * <p>The block is {@code 2^8} times {@code L}, or as long as {@code r} allows ({@code GrafiteCodes}
 * gives the codes and why), so a range up to {@code L} is almost always one interval, one successor
 * query; an interval that wraps past {@code r} needs no search at all.
 *
 * <h2>The math</h2>
 *
 * An empty range of length {@code ℓ} is a false positive with probability at most {@code n·ℓ/r =
 * ℓ·ε/L = ℓ/2^(B−2)} at {@code B} bits per key, for any set of keys and any range, including ranges
 * that start right after a key (the derivation is in {@link RangeMath}): the randomness is the
 * seed's. {@link #fpBound(long)} gives it for this filter's actual {@code n} and {@code r}.
 *
 * <p>(The bound needs only that codes within one block are distinct, {@code 2^k ≤ r}, and that
 * different blocks' places are independent: the block's length does not enter it, which is why
 * longer blocks cost nothing in false positives.)
 *
 * <h2>Trade-off</h2>
 *
 * A successor query reads memory at one entry of an in-memory select index (1 bit per key, built at
 * load; {@link #memoryBits()}) and then, at once, a word of upper bits and the word of lower bits
 * that entry points near ({@code EliasFano}); {@link #mayContainRanges(long[], long[], int, int,
 * long[])} issues those reads for a group of ranges stage by stage, so that they overlap. A longer
 * range is split at block boundaries into up to {@value #MAX_BLOCKS} pieces (the bound {@code
 * n·ℓ/r} still holds; the time grows with the pieces); a range that meets more blocks answers
 * "maybe" without probing (for such a range the bound {@code n·ℓ/r} is above {@code 64·n·2^k/r}
 * anyway). Static: the keys are given at build. Against a prefix-Bloom filter ({@link
 * PrefixBloomRangeFilter}) Grafite pays for ranges up to {@code L} at every length equally and
 * keeps its bound on correlated workloads, where the prefix Bloom filter's false positives pile up.
 * A payload wrapped or mapped ({@code SieveFormat.wrap}/{@code map}) is checked once and then
 * queried in place, without a copy; if the mapped file is overwritten in place afterwards, a query
 * may answer from the new bytes or, where they send it past the data's end, throw {@code
 * SieveFormatException}.
 *
 * <p>Keys are 64-bit values in unsigned order, stored as they are: {@code builder().build(long[])}
 * (with no key scheme set), {@link GrafiteFilterBuilder#buildFromKeys} and {@link
 * GrafiteFilterBuilder#buildFromByteKeys} build a range filter ({@link KeyScheme#IDENTITY}), whose
 * point queries ({@code mayContain(long)}) are the ranges {@code [x, x]}. A filter of byte or text
 * keys through the generic {@code build}, or built under a scheme set on the builder, or read from
 * a container that records a hashing scheme, stores key hashes: it answers {@code mayContain} and
 * {@link #mayContainHash}, and refuses every range query with a {@code KeySchemeException} rather
 * than miss keys.
 *
 * <p>Reference: M. Costa, P. Ferragina, G. Vinciguerra, "Grafite: Taming Adversarial Queries with
 * Optimal Range Filters", SIGMOD 2024 (arXiv 2311.15380).
 */
public final class GrafiteFilter extends RangeFilterBase {

  /** The most blocks a range is split into before the filter answers "maybe" unprobed. */
  static final int MAX_BLOCKS = 64;

  final EliasFano codes;
  final long numKeys;
  final long codeRange;
  final int blockShift;
  final long maxRangeLength;
  final long seed;
  private final KeyScheme scheme;

  GrafiteFilter(
      EliasFano codes,
      long numKeys,
      long codeRange,
      long maxRangeLength,
      int blockShift,
      long seed,
      KeyScheme scheme) {
    this.codes = codes;
    this.numKeys = numKeys;
    this.codeRange = codeRange;
    this.maxRangeLength = maxRangeLength;
    this.blockShift = blockShift;
    this.seed = seed;
    this.scheme = scheme;
  }

  /**
   * A new builder (defaults: ranges up to {@code 2^10}, {@code ε = 0.01} at that length).
   *
   * @return the builder
   */
  public static GrafiteFilterBuilder builder() {
    return new GrafiteFilterBuilder();
  }

  @Override
  public boolean mayContainRange(long lo, long hi) {
    RangeFilter.checkRange(lo, hi);
    checkRangeQueries();
    if (codes.n == 0) {
      return false;
    }
    int k = blockShift;
    long bLo = lo >>> k;
    long span = (hi >>> k) - bLo; // blocks past the first, unsigned
    long mask = k == 0 ? 0 : (1L << k) - 1;
    if (span == 0) { // the usual case: one block, one interval of codes, one successor
      long offLo = lo & mask;
      return interval(blockOffset(bLo, seed, codeRange) + offLo, (hi & mask) - offLo + 1);
    }
    if (Long.compareUnsigned(span, MAX_BLOCKS) >= 0) {
      return true;
    }
    for (long j = 0; j <= span; j++) {
      long b = bLo + j;
      long offLo = j == 0 ? lo & mask : 0;
      long offHi = j == span ? hi & mask : mask;
      if (interval(blockOffset(b, seed, codeRange) + offLo, offHi - offLo + 1)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a code lies in {@code [start, start + len) mod r}; {@code start < 2^63}. An interval
   * that wraps past {@code r} is {@code [s, r) ∪ [0, e − r]}: the last code is at least {@code s}
   * or the first at most {@code e − r}, two field reads and no search.
   */
  private boolean interval(long start, long len) {
    long r = codeRange;
    if (len >= r) {
      return true;
    }
    long s = start < r ? start : start % r;
    long e = s + len - 1;
    if (e < r) {
      return codes.anyIn(s, e);
    }
    return codes.last >= s || codes.first <= e - r;
  }

  /**
   * Tests ranges in groups of 32, in stages, so that the memory reads of different ranges overlap
   * instead of following one another: every range's select index entry, then every range's word of
   * upper bits and probable word of lower bits, then the answers from cached lines. Answers are
   * those of {@link #mayContainRange(long, long)}, range by range; nothing is allocated per call.
   */
  @Override
  public int mayContainRanges(long[] lo, long[] hi, int off, int len, long[] resultBits) {
    Objects.checkFromIndexSize(off, len, lo.length);
    Objects.checkFromIndexSize(off, len, hi.length);
    Objects.checkFromIndexSize(0, (len + 63) >>> 6, resultBits.length);
    checkRangeQueries();
    return GrafiteBatch.run(this, lo, hi, off, len, resultBits);
  }

  /** A point query on the stored values: the range {@code [hash64, hash64]}. */
  @Override
  public boolean mayContainHash(long hash64) {
    if (codes.n == 0) {
      return false;
    }
    long c = code(hash64, blockShift, seed, codeRange);
    return codes.successor(c) == c;
  }

  @Override
  public boolean mayContainPoint(long x) {
    checkRangeQueries();
    return mayContainHash(x);
  }

  /**
   * The bound on the false-positive probability of one empty range of {@code rangeLength} values,
   * {@code min(1, n·ℓ/r)} ({@link RangeMath#grafiteFpBound(long, long, double)}); 1 for a range
   * that may meet more than {@value #MAX_BLOCKS} blocks.
   *
   * @param rangeLength {@code ℓ = hi − lo + 1}, at least 1
   * @return the bound
   */
  public double fpBound(long rangeLength) {
    if (rangeLength < 1) {
      throw new IllegalArgumentException("rangeLength " + rangeLength + " must be >= 1");
    }
    long blocks = ((rangeLength - 1) >>> blockShift) + 2;
    if (blocks > MAX_BLOCKS) {
      return 1.0;
    }
    return RangeMath.grafiteFpBound(rangeLength, numKeys, (double) codeRange);
  }

  /** {@return the max range length {@code L} the filter was sized for} */
  public long maxRangeLength() {
    return maxRangeLength;
  }

  /** {@return the code range {@code r}} */
  long codeRange() {
    return codeRange;
  }

  /** {@return the seed of the block hash} */
  public long seed() {
    return seed;
  }

  @Override
  public KeyScheme keyScheme() {
    return scheme;
  }

  @Override
  public GrafiteFilter withKeyScheme(KeyScheme s) {
    if (s == scheme) {
      return this;
    }
    Schemes.check(this, s);
    return new GrafiteFilter(codes, numKeys, codeRange, maxRangeLength, blockShift, seed, s);
  }

  @Override
  public long numKeys() {
    return numKeys;
  }

  /**
   * Every bit of the payload's data: the Elias–Fano low and upper bits ({@code ≈ n·(2 +
   * log2(r/n))}), the upper bits' line headers (one word per seven, about 0.3 bits per key) and the
   * select samples (32 bits per 256 high parts, about 0.13 bits per key); only the payload's
   * 48-byte header is left out. The query's select index, built in memory, is not stored: {@link
   * #memoryBits()} counts it.
   */
  @Override
  public long sizeInBits() {
    return codes.sizeInBits();
  }

  /**
   * {@return the bits held in memory: {@link #sizeInBits()} plus the select index the queries use,
   * built from the data when the filter is built, read or wrapped (32 bits per 32 high parts, about
   * 1 bit per key; kept on the heap for a wrapped payload too)}
   */
  public long memoryBits() {
    return codes.sizeInBits() + codes.indexBits();
  }

  /** {@return the block shift {@code k}: blocks of {@code 2^k} keys share one random place} */
  int blockShift() {
    return blockShift;
  }

  /** {@return whether the filter reads its data in place from a (possibly mapped) buffer} */
  public boolean isWrapped() {
    return codes.isWrapped();
  }

  /**
   * The point-query rate (a random value's code meets one of the {@code m} stored codes): {@code 1
   * − (1 − 1/r)^m ≈ m/r ≤ ε/L}. Ranges: {@link #fpBound(long)}, which is about {@code ε} at {@link
   * #maxRangeLength()}.
   */
  @Override
  public double modelledFpRate() {
    return codes.n == 0 ? 0.0 : -Math.expm1(codes.n * Math.log1p(-1.0 / codeRange));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GrafiteFilter g
        && g.numKeys == numKeys
        && g.codeRange == codeRange
        && g.maxRangeLength == maxRangeLength
        && g.blockShift == blockShift
        && g.seed == seed
        && g.scheme == scheme
        && g.codes.n == codes.n
        && EliasFanoCodec.sameData(g.codes, codes);
  }

  @Override
  public int hashCode() {
    return EliasFanoCodec.dataHash(codes) * 31 + Long.hashCode(codeRange);
  }

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT,
        "GrafiteFilter[keys=%d, L=%d, r=%d, %.2f bits/key]",
        numKeys,
        maxRangeLength,
        codeRange,
        bitsPerKey());
  }
}
