package dev.sieve.range;

import dev.sieve.KeyScheme;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.internal.Schemes;

/**
 * The prefix-Bloom range filter, Rosetta-style: the baseline Grafite is measured against, close to
 * what RocksDB users have today (prefix Bloom filters).
 *
 * <h2>The idea</h2>
 *
 * Every key {@code x} is inserted at each level {@code j = 0 .. T} as its dyadic prefix {@code (j,
 * x >>> j)}, all levels into one {@link BlockedBloomFilter} (the entry's hash mixes the level and
 * the prefix). A range {@code [lo, hi]} is cut into its maximal aligned dyadic intervals of level
 * at most {@code T} (at most {@code 2T + 2} for a range of length {@code ≤ 2^T}); an interval whose
 * prefix the Bloom filter rejects is empty, one it accepts is split into its two halves one level
 * down, and the range may hold a key once a level-0 prefix (a single value) is accepted. A key's
 * prefixes are all present, so the descent always reaches it: no false negative.
 *
 * <h2>Trade-off</h2>
 *
 * {@code T = ⌈log2 L⌉} for the max range length {@code L}, so the memory is shared by {@code T + 1}
 * levels (at {@code B} bits per key, about {@code B/(T+1)} bits per prefix; prefixes shared by
 * several keys at the upper levels are stored once). Rosetta gives more of it to the lower levels;
 * this baseline shares one Bloom filter evenly, as a prefix-Bloom deployment would. The
 * false-positive rate grows with the range (more intervals, each a chance) and with correlation: a
 * range starting just after a key shares that key's upper prefixes, which are true positives, so
 * the descent reaches the low levels, where the rejections must all come from false-positive-prone
 * probes. A descent asks at most {@value #MAX_PROBES} probes, and a range longer than {@code
 * 64·2^T} is answered "maybe" unprobed; past the budget the answer is "maybe" (one-sided, never a
 * false negative).
 *
 * <p>Keys are 64-bit values in unsigned order, stored as they are, as for {@link GrafiteFilter}:
 * {@code builder().build(long[])} with no key scheme set builds a range filter ({@code
 * KeyScheme.IDENTITY}); byte or text keys through the generic {@code build}, or any keys under a
 * scheme set on the builder, give a filter of key hashes, which answers point queries only and
 * refuses range queries with a {@code KeySchemeException}.
 *
 * <p>Reference: S. Luo, S. Chatterjee, R. Ketsetsidis, N. Dayan, W. Qin, S. Idreos, "Rosetta: A
 * Robust Space-Time Optimized Range Filter for Key-Value Stores", SIGMOD 2020.
 */
public final class PrefixBloomRangeFilter extends RangeFilterBase {

  /** The most Bloom probes one range query makes before it answers "maybe". */
  static final int MAX_PROBES = 4096;

  /** The most top-level intervals a range may meet before it is answered "maybe" unprobed. */
  static final int MAX_TOP_INTERVALS = 64;

  final BlockedBloomFilter bloom;
  final long numKeys;
  final int topLevel;
  final long seed;
  private final long[] levelSalt;
  private final KeyScheme scheme;

  PrefixBloomRangeFilter(
      BlockedBloomFilter bloom, long numKeys, int topLevel, long seed, KeyScheme scheme) {
    this.bloom = bloom;
    this.numKeys = numKeys;
    this.topLevel = topLevel;
    this.seed = seed;
    this.scheme = scheme;
    this.levelSalt = salts(seed);
  }

  /**
   * A new builder (defaults: ranges up to {@code 2^10}, 16 bits per key).
   *
   * @return the builder
   */
  public static PrefixBloomRangeFilterBuilder builder() {
    return new PrefixBloomRangeFilterBuilder();
  }

  static long[] salts(long seed) {
    long[] s = new long[64];
    for (int j = 0; j < 64; j++) {
      s[j] = GrafiteCodes.mix(j, ~seed);
    }
    return s;
  }

  /** The Bloom hash of the prefix {@code p} at level {@code j}. */
  static long entryHash(long[] salts, long seed, int level, long prefix) {
    return GrafiteCodes.mix(prefix ^ salts[level], seed);
  }

  private boolean probe(int level, long prefix) {
    return bloom.mayContainHash(entryHash(levelSalt, seed, level, prefix));
  }

  /**
   * {@inheritDoc}
   *
   * @throws dev.sieve.KeySchemeException if the filter's keys were hashed (see the class comment)
   */
  @Override
  public boolean mayContainRange(long lo, long hi) {
    RangeFilter.checkRange(lo, hi);
    checkRangeQueries();
    if (numKeys == 0) {
      return false;
    }
    int t = topLevel;
    if (Long.compareUnsigned((hi >>> t) - (lo >>> t), MAX_TOP_INTERVALS) >= 0) {
      return true;
    }
    int[] budget = {MAX_PROBES};
    // the maximal aligned dyadic intervals of level <= T, left to right
    long x = lo;
    while (true) {
      int j = x == 0 ? t : Math.min(t, Long.numberOfTrailingZeros(x));
      // shrink until [x, x + 2^j − 1] fits in [x, hi]
      while (j > 0 && Long.compareUnsigned(hi - x, (1L << j) - 1) < 0) {
        j--;
      }
      if (descend(j, x >>> j, budget)) {
        return true;
      }
      long next = x + (j == 64 ? 0 : 1L << j);
      if (next == 0 || Long.compareUnsigned(next, hi) > 0) {
        return false; // covered up to 2^64 − 1, or past hi
      }
      x = next;
    }
  }

  /** Whether the dyadic interval (level, prefix) may hold a key; false when its probes say no. */
  private boolean descend(int level, long prefix, int[] budget) {
    if (budget[0]-- <= 0) {
      return true;
    }
    if (!probe(level, prefix)) {
      return false;
    }
    if (level == 0) {
      return true;
    }
    return descend(level - 1, prefix << 1, budget) || descend(level - 1, (prefix << 1) | 1, budget);
  }

  /** A point query on the stored values: the level-0 prefix alone. */
  @Override
  public boolean mayContainHash(long hash64) {
    return numKeys != 0 && probe(0, hash64);
  }

  /**
   * {@inheritDoc}
   *
   * @throws dev.sieve.KeySchemeException if the filter's keys were hashed (see the class comment)
   */
  @Override
  public boolean mayContainPoint(long x) {
    checkRangeQueries();
    return mayContainHash(x);
  }

  /** {@return the top level {@code T}: prefixes of levels 0 to T are stored} */
  int topLevel() {
    return topLevel;
  }

  /** {@return the Bloom filter entries (distinct level prefixes)} */
  public long entries() {
    return bloom.numKeys();
  }

  @Override
  public KeyScheme keyScheme() {
    return scheme;
  }

  @Override
  public PrefixBloomRangeFilter withKeyScheme(KeyScheme s) {
    if (s == scheme) {
      return this;
    }
    Schemes.check(this, s);
    return new PrefixBloomRangeFilter(bloom, numKeys, topLevel, seed, s);
  }

  @Override
  public long numKeys() {
    return numKeys;
  }

  @Override
  public long sizeInBits() {
    return bloom.sizeInBits();
  }

  /**
   * The point (level-0 probe) rate: the Bloom filter's modelled rate at its entries. A range query
   * meets many prefixes, so its rate is far higher (see the class comment).
   */
  @Override
  public double modelledFpRate() {
    return numKeys == 0 ? 0.0 : bloom.modelledFpRate();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PrefixBloomRangeFilter p
        && p.numKeys == numKeys
        && p.topLevel == topLevel
        && p.seed == seed
        && p.scheme == scheme
        && p.bloom.equals(bloom);
  }

  @Override
  public int hashCode() {
    return bloom.hashCode() * 31 + topLevel;
  }

  @Override
  public String toString() {
    return "PrefixBloomRangeFilter[keys="
        + numKeys
        + ", levels 0.."
        + topLevel
        + ", entries="
        + entries()
        + String.format(java.util.Locale.ROOT, ", %.2f bits/key]", bitsPerKey());
  }
}
