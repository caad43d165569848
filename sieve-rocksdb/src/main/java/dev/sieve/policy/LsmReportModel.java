package dev.sieve.policy;

import static dev.sieve.policy.FilterPolicy.TRAILER_BYTES;

import dev.sieve.bloom.FastLocalBloomSizing;
import dev.sieve.math.BloomMath;
import dev.sieve.math.RibbonMath;
import dev.sieve.registry.FilterType;
import dev.sieve.ribbon.RibbonSizing;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * The model behind {@link FilterPolicy#report}: each level's filter bytes and FPR from RocksDB's
 * sizing rules and the FPR models, for the policy's choice and for all-Bloom and all-Ribbon.
 * Nothing is built.
 *
 * <h2>What it shows: why Bloom on the upper levels and Ribbon below</h2>
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
 * checked by {@code FilterPolicyTest}).
 */
final class LsmReportModel {
  private LsmReportModel() {}

  /** Bytes and modelled FPR of one RocksDB filter block over {@code n} keys. */
  private record Estimate(long bytes, double fpRate) {}

  /** {@link FilterPolicy#report(LsmShape)}. */
  static LsmFilterReport report(FilterPolicy policy, LsmShape shape) {
    long[] keys = shape.keysPerLevel();
    long[] probes = shape.probesPerLevel();
    long perFilter = shape.keysPerFilter();
    List<LsmFilterReport.Level> levels = new ArrayList<>();
    for (int i = 0; i < keys.length; i++) {
      int levelish = i == 0 ? FilterPolicy.FLUSH : i;
      Estimate bloom = level(keys[i], perFilter, n -> bloomEstimate(policy, n));
      Estimate ribbon = level(keys[i], perFilter, n -> ribbonEstimate(policy, n));
      boolean useRibbon = policy.usesRibbon(levelish);
      Estimate chosen = useRibbon ? ribbon : bloom;
      long filters = keys[i] == 0 ? 0 : (keys[i] + perFilter - 1) / perFilter;
      levels.add(
          new LsmFilterReport.Level(
              i,
              levelish,
              useRibbon ? FilterType.RIBBON : FilterType.BLOCKED_BLOOM,
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

  private static Estimate bloomEstimate(FilterPolicy policy, long n) {
    if (n == 0) {
      return new Estimate(0, 0.0);
    }
    int millibitsPerKey = policy.millibitsPerKey();
    long data = FastLocalBloomSizing.rocksDbDataBytes(n, millibitsPerKey);
    double fpr =
        BloomMath.fastLocalBloomFpRate(
            n, data, FastLocalBloomSizing.chooseNumProbes(millibitsPerKey), 64);
    return new Estimate(data + TRAILER_BYTES, fpr);
  }

  private static Estimate ribbonEstimate(FilterPolicy policy, long n) {
    if (n == 0) {
      return new Estimate(0, 0.0);
    }
    int bias = Integer.MIN_VALUE; // 2^31 unsigned: the mean of RocksDB's first-key bias
    if (PolicyBuild.bloomIsSmaller(policy, n, bias)) {
      return bloomEstimate(policy, n);
    }
    int numSlots = RibbonSizing.numSlotsForKeys((int) n);
    long bytes = RibbonSizing.bytesForOneInFpRate(numSlots, policy.oneInFpRate(), bias);
    int numBlocks = numSlots / RibbonSizing.SLOTS_PER_BLOCK;
    long segments = Math.min(bytes / RibbonSizing.SEGMENT_BYTES, 32L * numBlocks);
    int upper = (int) ((segments + numBlocks - 1) / numBlocks);
    long upperStart = (long) upper * numBlocks - segments;
    double fpr =
        BloomMath.independentProbabilitySum(
            RibbonMath.interleavedRibbonFpRate(numBlocks, upper, upperStart),
            BloomMath.fingerprintFpRate((double) n, 64));
    return new Estimate(bytes + TRAILER_BYTES, fpr);
  }

  /** Sums {@code estimate} over a level's filters: bytes, and the key-weighted FPR. */
  private static Estimate level(long keys, long keysPerFilter, LongFunction<Estimate> one) {
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
}
