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
