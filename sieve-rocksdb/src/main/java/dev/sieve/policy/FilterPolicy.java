package dev.sieve.policy;

import dev.sieve.RocksDbFilter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.ribbon.RibbonSizing;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.util.Objects;

/**
 * RocksDB's built-in filter policies, the one home of their rules: {@code BloomFilterPolicy}
 * ({@link #bloom}, {@code bloomfilter:B}: FastLocalBloom everywhere) and {@code RibbonFilterPolicy}
 * ({@link #ribbon}, {@code ribbonfilter:B:L}, {@code
 * NewRibbonFilterPolicy(bloom_equivalent_bits_per_key, bloom_before_level)}: FastLocalBloom on the
 * upper levels of an LSM tree, Standard128Ribbon on the rest, both at the same FPR). This class
 * holds the level choice ({@link #usesRibbon}), Ribbon's fallback to Bloom ({@link #build}), {@code
 * optimize_filters_for_memory}, the partition sizing ({@link #approximateNumEntries}) and the LSM
 * report ({@link #report}); the two filters know only their own blocks ({@link RocksDbFilter}). The
 * legacy (format_version &lt; 5) Bloom and the table-level writer are in the {@code sieve-rocksdb}
 * module ({@code dev.sieve.sst}).
 *
 * <h2>Building: the Bloom fallback</h2>
 *
 * {@link #build} takes key hashes in the order RocksDB adds them (key order in an SST); a hash
 * equal to the one before it is dropped, as RocksDB's {@code AddKey} does. On a Bloom level it
 * builds {@link BlockedBloomFilter#buildRocksDb}. On a Ribbon level it takes the steps of RocksDB's
 * {@code Standard128RibbonBitsBuilder}: no keys → the empty Ribbon filter (0-byte block); more than
 * {@link RibbonSizing#MAX_RIBBON_ENTRIES} keys → Bloom; fewer than {@link
 * RibbonSizing#BLOOM_COMPARISON_SLOTS} slots and a strictly smaller Bloom block → Bloom; otherwise
 * solve with seeds from {@code lower32(first hash) & 255} on ({@link
 * Standard128RibbonFilter#solveRocksDb}), and Bloom if all 256 seeds fail. The Bloom fallback uses
 * the same millibits/key.
 *
 * <h2>{@code optimize_filters_for_memory} (on by default, as in RocksDB 11)</h2>
 *
 * With the option RocksDB (table/block_based/filter_policy.cc, {@code AllocateMaybeRounding})
 * allocates the filter, asks the allocator for the usable size of the allocation ({@code
 * malloc_usable_size}) and, where that is larger but not by more than a third, grows the filter to
 * what fits (less the 5-byte block trailer, rounded down to whole 64-byte cache lines for Bloom,
 * 16-byte segments for Ribbon); it also picks FastLocalBloom's probe count from the bits per key
 * the final length gives rather than from the configured bits per key. rocksdbjni's Linux library
 * uses glibc's malloc, whose heap chunks exceed a request by 8 to 15 bytes (16 more in a rare heap
 * state): never another 64-byte cache line, so a Bloom filter never grows and what the option
 * changes is the probe count (1,000 keys at 10 bits/key: 1,285 bytes either way, 7 probes instead
 * of 6), also for Ribbon's Bloom fallback. A Ribbon filter grows by one 16-byte segment only in the
 * rare heap state; Sieve writes the usual length. Not reproduced: allocations glibc serves by
 * {@code mmap}, other allocators, and the shrinking of later filters after one grew (the {@code
 * sieve-rocksdb} module's {@code RocksDbTableFilter.filterBlock} documents the measurements).
 *
 * <h2>The level choice</h2>
 *
 * The bits/key setting is sanitized like a Bloom policy's ({@link RibbonSizing#sanitizeBitsPerKey})
 * and sizes both filter types: Bloom at that many bits/key, Ribbon at the FPR that Bloom would have
 * ({@link RibbonSizing#oneInFpRateForBloomBitsPerKey}). A filter for a file created at {@code
 * levelish} is Bloom when {@code levelish < bloomBeforeLevel} and Ribbon otherwise, where {@code
 * levelish} is:
 *
 * <ul>
 *   <li>{@link #FLUSH} ({@code −1}) for a memtable flush (leveled and universal compaction);
 *   <li>the output level for a compaction (leveled and universal);
 *   <li>{@link #UNKNOWN_LEVEL} ({@code Integer.MAX_VALUE − 1}, "bottommost") for an unknown level
 *       (e.g. {@code SstFileWriter}) and for every file under FIFO or no compaction.
 * </ul>
 *
 * ({@link #levelish} maps a compaction style and creation reason.) So the special values of {@code
 * bloomBeforeLevel} are: {@link #DEFAULT_BLOOM_BEFORE_LEVEL} {@code 0}, Bloom for flushes only;
 * {@link #ALWAYS_RIBBON} {@code −1} (or less), Ribbon everywhere; {@code Integer.MAX_VALUE − 1},
 * Bloom everywhere except for unknown-level files; {@link #ALWAYS_BLOOM} {@code Integer.MAX_VALUE},
 * Bloom everywhere. Even on a Ribbon level RocksDB builds Bloom for very small filters and in its
 * other fallback cases (above).
 *
 * <h2>Why the split: "Ribbon is smaller, but slower to build and query"</h2>
 *
 * Ribbon saves about 30% of filter memory at equal FPR (7.0 instead of 10 bits/key) but costs 3–4×
 * the build CPU, about 3× the temporary build memory, and somewhat more per query. Its saving is
 * proportional to keys held, its extra build and query cost to keys written and probed: the saving
 * per extra cost is tiny at the top of the tree and large at the bottom, so Bloom above a threshold
 * level and Ribbon below it is the right shape, and {@code bloomBeforeLevel = 0 or 1} gives up
 * almost none of the memory saving. {@code LsmReportModel} gives the figures, from {@link #report}
 * on a five-level tree.
 *
 * <p>Reference: P. C. Dillinger and S. Walzer, "Ribbon filter: practically smaller than Bloom and
 * Xor", arXiv:2103.02515 (2021), §7 (RocksDB); RocksDB include/rocksdb/filter_policy.h.
 */
public final class FilterPolicy {

  /** {@code levelish} of a memtable flush. */
  public static final int FLUSH = -1;

  /** {@code levelish} of a file of unknown level, FIFO or no compaction: treated as bottommost. */
  public static final int UNKNOWN_LEVEL = Integer.MAX_VALUE - 1;

  /** {@code bloomBeforeLevel} for Bloom on flushes only (RocksDB's default). */
  public static final int DEFAULT_BLOOM_BEFORE_LEVEL = 0;

  /** {@code bloomBeforeLevel} for Ribbon everywhere, flushes included. */
  public static final int ALWAYS_RIBBON = -1;

  /** {@code bloomBeforeLevel} for Bloom everywhere, unknown levels included. */
  public static final int ALWAYS_BLOOM = Integer.MAX_VALUE;

  /** The 5-byte metadata trailer of both filter blocks (and of RocksDB's SST block trailer). */
  static final int TRAILER_BYTES = 5;

  /** RocksDB's compaction styles, as far as they matter for the level threshold. */
  public enum CompactionStyle {
    /** Leveled compaction. */
    LEVEL,
    /** Universal compaction. */
    UNIVERSAL,
    /** FIFO compaction: every file counts as bottommost. */
    FIFO,
    /** No compaction: every file counts as bottommost. */
    NONE
  }

  private final boolean ribbonPolicy;
  private final double bitsPerKey;
  private final int millibitsPerKey;
  private final double oneInFpRate;
  private final int bloomBeforeLevel;
  private final boolean optimizeFiltersForMemory;

  private FilterPolicy(
      boolean ribbonPolicy,
      double bitsPerKey,
      int bloomBeforeLevel,
      boolean optimizeFiltersForMemory) {
    this.ribbonPolicy = ribbonPolicy;
    this.bitsPerKey = RibbonSizing.sanitizeBitsPerKey(bitsPerKey);
    this.millibitsPerKey = RibbonSizing.millibitsPerKey(this.bitsPerKey);
    this.oneInFpRate = RibbonSizing.oneInFpRateForBloomBitsPerKey(this.bitsPerKey);
    this.bloomBeforeLevel = ribbonPolicy ? bloomBeforeLevel : ALWAYS_BLOOM;
    this.optimizeFiltersForMemory = optimizeFiltersForMemory;
  }

  /**
   * RocksDB's {@code NewBloomFilterPolicy(bitsPerKey)} ({@code bloomfilter:B}) for format_version ≥
   * 5: FastLocalBloom at every level.
   *
   * @param bitsPerKey bits per key, sanitized as RocksDB does: below 0.5 rejected (RocksDB would
   *     build no filter), [0.5, 1) → 1, above 100 → 100, then rounded to thousandths
   * @return the policy, with {@code optimize_filters_for_memory} on
   * @throws IllegalArgumentException for bits per key below 0.5 or NaN
   */
  public static FilterPolicy bloom(double bitsPerKey) {
    return new FilterPolicy(false, bitsPerKey, ALWAYS_BLOOM, true);
  }

  /**
   * RocksDB's {@code NewRibbonFilterPolicy(bloomEquivalentBitsPerKey, bloomBeforeLevel)} ({@code
   * ribbonfilter:B:L}).
   *
   * @param bloomEquivalentBitsPerKey the Bloom bits/key whose FPR both filter types get, sanitized
   *     as in {@link #bloom}
   * @param bloomBeforeLevel levels (as {@code levelish}) below this get Bloom; any {@code int}
   * @return the policy, with {@code optimize_filters_for_memory} on
   * @throws IllegalArgumentException for bits per key below 0.5 or NaN
   */
  public static FilterPolicy ribbon(double bloomEquivalentBitsPerKey, int bloomBeforeLevel) {
    return new FilterPolicy(true, bloomEquivalentBitsPerKey, bloomBeforeLevel, true);
  }

  /**
   * RocksDB's default Ribbon policy, {@code bloomBeforeLevel = 0} (Bloom for flushes only).
   *
   * @param bloomEquivalentBitsPerKey as in {@link #ribbon(double, int)}
   * @return the policy, with {@code optimize_filters_for_memory} on
   */
  public static FilterPolicy ribbon(double bloomEquivalentBitsPerKey) {
    return ribbon(bloomEquivalentBitsPerKey, DEFAULT_BLOOM_BEFORE_LEVEL);
  }

  /**
   * This policy with RocksDB's {@code optimize_filters_for_memory} on (the default) or off.
   *
   * @param on whether the option is on
   * @return the policy with the option set
   */
  public FilterPolicy withOptimizeFiltersForMemory(boolean on) {
    return new FilterPolicy(ribbonPolicy, bitsPerKey, bloomBeforeLevel, on);
  }

  /**
   * Whether this is the Ribbon policy (else the Bloom policy).
   *
   * @return true for {@link #ribbon}
   */
  public boolean isRibbonPolicy() {
    return ribbonPolicy;
  }

  /**
   * The sanitized (bloom-equivalent) bits/key.
   *
   * @return bits per key in [1, 100]
   */
  public double bitsPerKey() {
    return bitsPerKey;
  }

  /**
   * RocksDB's thousandths of a bit per key for the Bloom filters.
   *
   * @return millibits per key in [1000, 100000]
   */
  public int millibitsPerKey() {
    return millibitsPerKey;
  }

  /**
   * The one-in-FP rate the Ribbon filters are sized for: that of FastLocalBloom at {@link
   * #bitsPerKey()}.
   *
   * @return {@code 1 / FPR}
   */
  public double oneInFpRate() {
    return oneInFpRate;
  }

  /**
   * The level threshold below which files get Bloom.
   *
   * @return {@code bloomBeforeLevel}; {@link #ALWAYS_BLOOM} for the Bloom policy
   */
  public int bloomBeforeLevel() {
    return bloomBeforeLevel;
  }

  /**
   * Whether RocksDB's {@code optimize_filters_for_memory} is on.
   *
   * @return the option
   */
  public boolean optimizeFiltersForMemory() {
    return optimizeFiltersForMemory;
  }

  /**
   * The policy as RocksDB's {@code FilterPolicy::CreateFromString} takes it and its {@code GetId()}
   * gives it for Ribbon: {@code bloomfilter:<bits/key>} or {@code
   * ribbonfilter:<bits/key>:<bloomBeforeLevel>}, the bits/key with up to three decimals, e.g.
   * {@code ribbonfilter:10:0} or {@code ribbonfilter:9.5:-1}.
   *
   * @return the policy's id
   */
  public String rocksDbId() {
    return PolicyBuild.rocksDbId(ribbonPolicy, millibitsPerKey, bloomBeforeLevel);
  }

  /**
   * RocksDB's {@code levelish} of a new file.
   *
   * @param style the compaction style
   * @param flush whether the file is written by a memtable flush
   * @param levelAtCreation the output level, {@code -1} when unknown
   * @return {@link #UNKNOWN_LEVEL} under FIFO or no compaction and for an unknown level, {@link
   *     #FLUSH} for a flush, else the level
   * @throws IllegalArgumentException for a level below −1
   */
  public static int levelish(CompactionStyle style, boolean flush, int levelAtCreation) {
    Objects.requireNonNull(style, "style");
    if (style == CompactionStyle.FIFO || style == CompactionStyle.NONE) {
      return UNKNOWN_LEVEL;
    }
    if (flush) {
      return FLUSH;
    }
    if (levelAtCreation == -1) {
      return UNKNOWN_LEVEL;
    }
    if (levelAtCreation < 0) {
      throw new IllegalArgumentException("level must be >= -1, got " + levelAtCreation);
    }
    return levelAtCreation;
  }

  /**
   * Whether a file created at {@code levelish} gets a Ribbon filter (which may still fall back to
   * Bloom, see {@link #build}).
   *
   * @param levelish {@link #FLUSH}, a level ≥ 0, or {@link #UNKNOWN_LEVEL}
   * @return true for Ribbon, false for Bloom
   * @throws IllegalArgumentException for another {@code levelish}
   */
  public boolean usesRibbon(int levelish) {
    checkLevelish(levelish);
    if (!ribbonPolicy || bloomBeforeLevel == ALWAYS_BLOOM) {
      return false;
    }
    return levelish >= bloomBeforeLevel;
  }

  private static void checkLevelish(int levelish) {
    if (levelish < FLUSH || levelish == Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "levelish must be -1 (flush), a level >= 0, or UNKNOWN_LEVEL, got " + levelish);
    }
  }

  // ---------------------------------------------------------------- building

  /**
   * Builds the filter RocksDB writes for a file created at {@code levelish} over these key hashes:
   * FastLocalBloom on a Bloom level, Standard128Ribbon or its Bloom fallback on a Ribbon level (the
   * steps in the class comment).
   *
   * @param levelish {@link #FLUSH}, a level ≥ 0, or {@link #UNKNOWN_LEVEL}
   * @param hashes 64-bit key hashes ({@code KeyHash.hash64}) in the order RocksDB adds them; not
   *     modified
   * @param count how many entries of {@code hashes} to use
   * @return the filter, whose {@link RocksDbFilter#toRocksDbFilterBlock()} is RocksDB's block
   */
  public RocksDbFilter build(int levelish, long[] hashes, int count) {
    Objects.requireNonNull(hashes, "hashes");
    Objects.checkFromIndexSize(0, count, hashes.length);
    return usesRibbon(levelish)
        ? PolicyBuild.ribbon(this, hashes, count)
        : PolicyBuild.bloom(this, hashes, count);
  }

  /** {@link PolicyBuild#ribbonAtSlots}, for the tests that force the Bloom fallback. */
  RocksDbFilter buildRibbonAtSlots(long[] entries, int n, int numSlots, boolean compareWithBloom) {
    return PolicyBuild.ribbonAtSlots(this, entries, n, numSlots, compareWithBloom);
  }

  // ---------------------------------------------------------------- partition sizing

  /**
   * RocksDB's {@code ApproximateNumEntries(bytes)} of the filter builder for {@code levelish}
   * (format_version ≥ 5): how many entries a filter of {@code bytes} bytes holds. It sizes filter
   * partitions.
   *
   * @param bytes the filter's length in bytes, trailer included
   * @param levelish as in {@link #usesRibbon}
   * @return the number of entries
   */
  public long approximateNumEntries(long bytes, int levelish) {
    return usesRibbon(levelish)
        ? PartitionSizing.ribbonEntries(bytes, oneInFpRate, millibitsPerKey)
        : PartitionSizing.bloomEntries(bytes, millibitsPerKey);
  }

  // ---------------------------------------------------------------- the LSM report

  /**
   * The memory and expected false-positive probes of this policy, level by level, on {@code shape},
   * next to all-Bloom and all-Ribbon. Level 0 is treated as flushed ({@code levelish −1}), level
   * {@code i} as compacted into {@code i}. Nothing is built: sizes and rates come from RocksDB's
   * sizing rules and the models, with {@code optimize_filters_for_memory} off (with it on, the
   * sizes are the same and a Bloom probe count may differ by one).
   *
   * @param shape the tree
   * @return the report
   */
  public LsmFilterReport report(LsmShape shape) {
    Objects.requireNonNull(shape, "shape");
    return LsmReportModel.report(this, shape);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FilterPolicy p
        && p.ribbonPolicy == ribbonPolicy
        && Double.compare(p.bitsPerKey, bitsPerKey) == 0
        && p.bloomBeforeLevel == bloomBeforeLevel
        && p.optimizeFiltersForMemory == optimizeFiltersForMemory;
  }

  @Override
  public int hashCode() {
    return Objects.hash(ribbonPolicy, bitsPerKey, bloomBeforeLevel, optimizeFiltersForMemory);
  }

  @Override
  public String toString() {
    return "FilterPolicy["
        + rocksDbId()
        + (optimizeFiltersForMemory ? "" : ", optimize_filters_for_memory=false")
        + "]";
  }
}
