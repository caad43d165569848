package dev.sieve.ribbon;

import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.math.BloomMath;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * RocksDB's {@code RibbonFilterPolicy} ({@code NewRibbonFilterPolicy(bloom_equivalent_bits_per_key,
 * bloom_before_level)}): FastLocalBloom on the upper levels of an LSM tree, Standard128Ribbon on
 * the rest, both at the same FPR.
 *
 * <h2>Semantics (table/block_based/filter_policy.cc, include/rocksdb/filter_policy.h)</h2>
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
 * other fallback cases ({@link Standard128RibbonFilter#buildRocksDb}).
 *
 * <h2>Why the split: "Ribbon is smaller, but slower to build and query"</h2>
 *
 * Ribbon saves about 30% of filter memory at equal FPR (7.0 instead of 10 bits/key) but costs 3–4×
 * the build CPU, about 3× the temporary build memory, and somewhat more per query (up to {@code 2 ·
 * columns} 16-byte reads and parities instead of one cache line). Both costs and benefit are
 * distributed very unevenly over an LSM tree. {@link #report} on {@code LsmShape.leveled(5, 10,
 * 10^9, 2^18, 10^6)} (L0..L4, fan-out 10, 10^9 keys in the last level, L0 as large as L1: 10^6 keys
 * in four flushed files, SST filters of 2^18 keys, 10^6 lookups of absent keys) at 10
 * bloom-equivalent bits/key gives:
 *
 * <ul>
 *   <li><b>Memory</b> is held where the keys are: L4 holds 90% of the 1.111·10^9 keys, L0 0.09%.
 *       All-Bloom takes 1,390.0 MB, all-Ribbon 980.7 MB (−29.4%); the default policy (Bloom on
 *       flushes, {@code bloomBeforeLevel = 0}) 981.1 MB, only 0.04% more than all-Ribbon; even
 *       Bloom down to L2 ({@code bloomBeforeLevel = 3}) keeps 985.1 MB (+0.45%).
 *   <li><b>False positives</b> are the same whichever type (both sized to 0.953%): 76.2 thousand FP
 *       probes per 10^6 lookups in every configuration.
 *   <li><b>Query CPU</b> goes where filters are <em>probed</em>: every lookup probes all four
 *       overlapping L0 files' filters and one filter per deeper level, so L0 takes 4·10^6 of the
 *       8·10^6 probes (50%) for 0.13% of the filter memory. Bloom's single cache-line probe is
 *       where the probes are.
 *   <li><b>Build CPU</b> goes where keys are <em>written</em>, not held: each key is written once
 *       into L0 by a flush and rewritten by compactions into every deeper level, so each level
 *       rebuilds filters at a comparable rate in keys per second while L0 holds 0.09% of the keys.
 *       And flushes are on the write path: a 3–4× slower filter build there delays releasing the
 *       memtable and can stall writes, while compaction builds run in the background.
 * </ul>
 *
 * Ribbon's saving is therefore proportional to keys held, its extra build and query cost to keys
 * written and probed: the saving per extra cost is tiny at the top of the tree and large at the
 * bottom, so Bloom above a threshold level and Ribbon below it is the right shape, and {@code
 * bloomBeforeLevel = 0 or 1} gives up almost none of the memory saving (the figures above are
 * checked by {@code RibbonFilterPolicyTest}).
 *
 * <p>Reference: P. C. Dillinger and S. Walzer, "Ribbon filter: practically smaller than Bloom and
 * Xor", arXiv:2103.02515 (2021), §7 (RocksDB); RocksDB include/rocksdb/filter_policy.h.
 */
public final class RibbonFilterPolicy {

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

  /** RocksDB's compaction styles, as far as they matter for the level threshold. */
  public enum CompactionStyle {
    LEVEL,
    UNIVERSAL,
    FIFO,
    NONE
  }

  private final double bitsPerKey;
  private final int millibitsPerKey;
  private final double oneInFpRate;
  private final int bloomBeforeLevel;

  /**
   * @param bloomEquivalentBitsPerKey the Bloom bits/key whose FPR both filter types get (RocksDB's
   *     sanitization: below 0.5 rejected, as RocksDB would build no filter; [0.5, 1) → 1; above 100
   *     → 100)
   * @param bloomBeforeLevel levels (as {@code levelish}) below this get Bloom; any {@code int}
   */
  public RibbonFilterPolicy(double bloomEquivalentBitsPerKey, int bloomBeforeLevel) {
    this.bitsPerKey = RibbonSizing.sanitizeBitsPerKey(bloomEquivalentBitsPerKey);
    this.millibitsPerKey = RibbonSizing.millibitsPerKey(bitsPerKey);
    this.oneInFpRate = RibbonSizing.oneInFpRateForBloomBitsPerKey(bitsPerKey);
    this.bloomBeforeLevel = bloomBeforeLevel;
  }

  /** RocksDB's default, {@code bloomBeforeLevel = 0}. */
  public RibbonFilterPolicy(double bloomEquivalentBitsPerKey) {
    this(bloomEquivalentBitsPerKey, DEFAULT_BLOOM_BEFORE_LEVEL);
  }

  /** The sanitized bloom-equivalent bits/key. */
  public double bloomEquivalentBitsPerKey() {
    return bitsPerKey;
  }

  /** RocksDB's thousandths of a bit per key for the Bloom filters. */
  public int millibitsPerKey() {
    return millibitsPerKey;
  }

  /** The one-in-FP rate the Ribbon filters are sized for. */
  public double oneInFpRate() {
    return oneInFpRate;
  }

  public int bloomBeforeLevel() {
    return bloomBeforeLevel;
  }

  /**
   * RocksDB's {@code GetId()}: {@code ribbonfilter:<bits/key>:<bloomBeforeLevel>}, the bits/key
   * with up to three decimals, e.g. {@code ribbonfilter:10:0} or {@code ribbonfilter:9.5:-1}.
   */
  public String rocksDbId() {
    StringBuilder sb = new StringBuilder("ribbonfilter:").append(millibitsPerKey / 1000);
    int frac = millibitsPerKey % 1000;
    if (frac > 0) {
      sb.append('.').append(frac / 100);
      frac %= 100;
      if (frac > 0) {
        sb.append(frac / 10);
        frac %= 10;
        if (frac > 0) {
          sb.append(frac);
        }
      }
    }
    return sb.append(':').append(bloomBeforeLevel).toString();
  }

  /**
   * RocksDB's {@code levelish} of a new file: {@link #UNKNOWN_LEVEL} under FIFO or no compaction
   * and for an unknown level ({@code levelAtCreation == -1}), {@link #FLUSH} for a flush, else the
   * level.
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

  /** Whether a file created at {@code levelish} gets a Ribbon filter (else Bloom). */
  public boolean usesRibbon(int levelish) {
    checkLevelish(levelish);
    if (bloomBeforeLevel == ALWAYS_BLOOM) {
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

  /**
   * Builds the filter RocksDB writes for a file created at {@code levelish} over these key hashes
   * (in key order): {@link BlockedBloomFilter#buildRocksDb} on a Bloom level, {@link
   * Standard128RibbonFilter#buildRocksDb} (Ribbon or its Bloom fallback) on a Ribbon level.
   */
  public Filter buildForLevel(int levelish, long[] hashes, int count) {
    Objects.requireNonNull(hashes, "hashes");
    Objects.checkFromIndexSize(0, count, hashes.length);
    if (usesRibbon(levelish)) {
      return Standard128RibbonFilter.buildRocksDb(hashes, count, bitsPerKey);
    }
    return BlockedBloomFilter.buildRocksDb(hashes, count, millibitsPerKey);
  }

  // ---------------------------------------------------------------- the LSM report

  /** Bytes and modelled FPR of one RocksDB filter block over {@code n} keys. */
  private record Estimate(long bytes, double fpRate) {}

  private Estimate bloomEstimate(long n) {
    if (n == 0) {
      return new Estimate(0, 0.0);
    }
    long data = BlockedBloomFilter.rocksDbDataBytes(n, millibitsPerKey);
    double fpr =
        BloomMath.fastLocalBloomFpRate(
            n, data, BlockedBloomFilter.chooseNumProbes(millibitsPerKey), 64);
    return new Estimate(data + BlockedBloomFilter.TRAILER_BYTES, fpr);
  }

  private Estimate ribbonEstimate(long n) {
    if (n == 0) {
      return new Estimate(0, 0.0);
    }
    int bias = Integer.MIN_VALUE; // 2^31 unsigned: the mean of RocksDB's first-key bias
    if (RibbonSizing.bloomIsSmaller(n, oneInFpRate, millibitsPerKey, bias)) {
      return bloomEstimate(n);
    }
    int numSlots = RibbonSizing.numSlotsForKeys((int) n);
    long bytes = RibbonSizing.bytesForOneInFpRate(numSlots, oneInFpRate, bias);
    int numBlocks = numSlots / RibbonSizing.SLOTS_PER_BLOCK;
    long segments = Math.min(bytes / RibbonSizing.SEGMENT_BYTES, 32L * numBlocks);
    int upper = (int) ((segments + numBlocks - 1) / numBlocks);
    long upperStart = (long) upper * numBlocks - segments;
    double fpr =
        BloomMath.independentProbabilitySum(
            BloomMath.interleavedRibbonFpRate(numBlocks, upper, upperStart),
            BloomMath.fingerprintFpRate(n, 64));
    return new Estimate(bytes + Standard128RibbonFilter.TRAILER_BYTES, fpr);
  }

  /** Sums {@code estimate} over a level's filters: bytes, and the key-weighted FPR. */
  private static Estimate level(
      long keys, long keysPerFilter, java.util.function.LongFunction<Estimate> one) {
    if (keys == 0) {
      return new Estimate(0, 0.0);
    }
    long full = keys / keysPerFilter;
    long rest = keys % keysPerFilter;
    Estimate f = one.apply(keysPerFilter);
    Estimate r = one.apply(rest);
    long bytes = full * f.bytes() + r.bytes();
    double fpr = (full * keysPerFilter * f.fpRate() + rest * r.fpRate()) / keys;
    return new Estimate(bytes, fpr);
  }

  /**
   * The memory and expected false-positive probes of this policy, level by level, on {@code shape},
   * next to all-Bloom and all-Ribbon. Level 0 is treated as flushed ({@code levelish −1}), level
   * {@code i} as compacted into {@code i}. Nothing is built: sizes and rates come from RocksDB's
   * sizing rules and the models.
   */
  public LsmFilterReport report(LsmShape shape) {
    Objects.requireNonNull(shape, "shape");
    long[] keys = shape.keysPerLevel();
    long[] probes = shape.probesPerLevel();
    long perFilter = shape.keysPerFilter();
    List<LsmFilterReport.Level> levels = new ArrayList<>();
    for (int i = 0; i < keys.length; i++) {
      int levelish = i == 0 ? FLUSH : i;
      Estimate bloom = level(keys[i], perFilter, this::bloomEstimate);
      Estimate ribbon = level(keys[i], perFilter, this::ribbonEstimate);
      boolean useRibbon = usesRibbon(levelish);
      Estimate chosen = useRibbon ? ribbon : bloom;
      long filters = keys[i] == 0 ? 0 : (keys[i] + perFilter - 1) / perFilter;
      levels.add(
          new LsmFilterReport.Level(
              i,
              levelish,
              useRibbon
                  ? LsmFilterReport.FilterType.STANDARD128_RIBBON
                  : LsmFilterReport.FilterType.FAST_LOCAL_BLOOM,
              keys[i],
              filters,
              chosen.bytes(),
              chosen.fpRate(),
              probes[i],
              probes[i] * chosen.fpRate(),
              bloom.bytes(),
              ribbon.bytes(),
              bloom.fpRate(),
              ribbon.fpRate()));
    }
    return new LsmFilterReport(levels);
  }

  @Override
  public String toString() {
    return "RibbonFilterPolicy[" + rocksDbId() + "]";
  }
}
