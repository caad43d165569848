package dev.sieve.bloom;

import dev.sieve.math.BloomMath;
import dev.sieve.math.GrowthMath;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One stage of a {@link ScalableBloomFilter}: a blocked Bloom filter, its key capacity and its
 * count of keys taken; and the growth rule that sizes stage {@code i} of a chain from the filter's
 * parameters ({@link #open}).
 *
 * <h2>The growth rule ({@link GrowthMath#scalableStageFpRate}, {@link
 * GrowthMath#scalableStageCapacity})</h2>
 *
 * <ul>
 *   <li>Stage {@code i} holds {@code c_i} keys: {@code c_0 = n0} (the initial guess, {@link
 *       ScalableBloomFilterBuilder#expectedKeys}), {@code c_{i+1} = ceil(c_i · s)} (the growth
 *       factor {@code s}, default 2). {@code N} keys open about {@code log_s(N (s−1)/n0) + 1}
 *       stages: 20 for 10^9 keys from a guess of 10^3 at {@code s = 2}.
 *   <li>Stage {@code i} is sized for the rate {@code f_i = f · (1 − r) · r^i} (the tightening ratio
 *       {@code r}, default 0.9), at the fewest bits per key (in thousandths, with RocksDB's probe
 *       count for them) whose rate meets it by {@link
 *       GrowthMath#blockedBloomFpRateWithProbeCollisions}, a model that counts the collisions of a
 *       key's own probes: RocksDB's two-point model underestimates the tight stages' rates by
 *       10-65%, which would break the bound below. An absent key is a false positive when any stage
 *       answers "maybe": {@code 1 − Π(1 − f_i) ≤ Σ f_i = f · (1 − r^m) < f} ({@link
 *       GrowthMath#scalableChainFpRateBound}), whatever the number of stages {@code m}.
 *   <li>Memory: stage {@code i} costs about {@code c_i · (log2(1/f) + log2(1/(1−r)) + i ·
 *       log2(1/r)) / ln 2} bits. Two taxes over a single filter sized right for the final count:
 *       the tighter rates (about {@code 1.44 · (log2(1/(1−r)) + i · log2(1/r))} bits per key,
 *       growing with the number of stages), and the newest stage's unused room, up to a factor
 *       {@code s} just after it opened ({@link GrowthMath#scalableWorstMemoryRatio}). A larger
 *       {@code r} lowers the first tax where there are many stages and raises it where there are
 *       few; a smaller {@code s} lowers the second but opens more stages, and every stage costs a
 *       probe for an absent key. The defaults ({@code s = 2}, {@code r = 0.9}) had the lowest mean
 *       and worst-case memory over 10^3..10^9 keys from a guess of 10^3 among {@code s ∈ {1.5, 2,
 *       3, 4}}, {@code r ∈ {0.5 .. 0.95}} in the model, without the 33 stages {@code s = 1.5} needs
 *       (docs/growing.md; {@code ./sieve report --growth-max-n N} measures them).
 * </ul>
 *
 * <h2>The key count</h2>
 *
 * The count is a ticket counter: an add takes a ticket and gives it back when it was not counted
 * (the key's bits were all set) or when the stage was full, so it may run past the capacity by the
 * adds in flight; {@link #keys()} leaves those out.
 */
final class ScalableBloomStage {
  final BlockedBloomFilter filter;
  final long capacity;
  final AtomicLong count;

  ScalableBloomStage(BlockedBloomFilter filter, long capacity, long count) {
    this.filter = filter;
    this.capacity = capacity;
    this.count = new AtomicLong(count);
  }

  /** The keys counted, without the tickets of adds in flight past the capacity. */
  long keys() {
    return Math.min(count.get(), capacity);
  }

  /** This stage with its key count read once now, sharing its bits (for a snapshot). */
  ScalableBloomStage frozen() {
    return new ScalableBloomStage(filter, capacity, keys());
  }

  /** An independent copy of this stage on the heap. */
  ScalableBloomStage copy() {
    return new ScalableBloomStage(filter.copy(), capacity, keys());
  }

  /**
   * The stage {@code index} of a chain with these parameters, empty: capacity {@link
   * GrowthMath#scalableStageCapacity}, rate {@link GrowthMath#scalableStageFpRate}, sized by {@link
   * #millibitsPerKey}.
   *
   * @throws IllegalStateException naming the limit when the stage cannot be opened
   */
  static ScalableBloomStage open(
      int index, long initialCapacity, double fpRate, double growthFactor, double tightening) {
    if (index >= ScalableBloomFilter.MAX_STAGES) {
      throw new IllegalStateException(
          "the filter is full: it has the most stages a scalable filter opens, "
              + ScalableBloomFilter.MAX_STAGES);
    }
    long capacity = GrowthMath.scalableStageCapacity(initialCapacity, growthFactor, index);
    double stageRate = GrowthMath.scalableStageFpRate(fpRate, tightening, index);
    int millibits = millibitsPerKey(stageRate);
    if (millibits < 0) {
      throw new IllegalStateException(
          "the filter is full: stage "
              + index
              + " needs a false-positive rate of "
              + stageRate
              + ", below what "
              + FastLocalBloomSizing.MAX_BITS_PER_KEY
              + " bits per key reach");
    }
    int probes = FastLocalBloomSizing.chooseNumProbes(millibits);
    if (capacity > BlockedBloomFilter.MAX_DATA_BYTES * 8000 / millibits) {
      throw new IllegalStateException(
          "the filter is full: stage "
              + index
              + " of "
              + capacity
              + " keys at "
              + millibits / 1000.0
              + " bits per key would exceed the FastLocalBloom limit of "
              + BlockedBloomFilter.MAX_DATA_BYTES
              + " bytes");
    }
    long bytes = FastLocalBloomSizing.rocksDbDataBytes(capacity, millibits);
    return new ScalableBloomStage(BlockedBloomFilter.withShape(bytes, probes), capacity, 0);
  }

  /** {@code s}, if a growth factor the builder accepts; else {@link IllegalArgumentException}. */
  static double checkGrowthFactor(double s) {
    if (!(s >= ScalableBloomFilter.MIN_GROWTH_FACTOR
        && s <= ScalableBloomFilter.MAX_GROWTH_FACTOR)) {
      throw new IllegalArgumentException(
          "growth factor must be in ["
              + ScalableBloomFilter.MIN_GROWTH_FACTOR
              + ", "
              + ScalableBloomFilter.MAX_GROWTH_FACTOR
              + "], got "
              + s);
    }
    return s;
  }

  /**
   * {@code r}, if a tightening ratio the builder accepts; else {@link IllegalArgumentException}.
   */
  static double checkTighteningRatio(double r) {
    if (!(r >= ScalableBloomFilter.MIN_TIGHTENING_RATIO
        && r <= ScalableBloomFilter.MAX_TIGHTENING_RATIO)) {
      throw new IllegalArgumentException(
          "tightening ratio must be in ["
              + ScalableBloomFilter.MIN_TIGHTENING_RATIO
              + ", "
              + ScalableBloomFilter.MAX_TIGHTENING_RATIO
              + "], got "
              + r);
    }
    return r;
  }

  /** {@link ScalableBloomFilter#stageMillibitsPerKey}. */
  static int millibitsPerKey(double rate) {
    int hi = (int) (FastLocalBloomSizing.MAX_BITS_PER_KEY * 1000);
    if (model(hi) > rate) {
      return -1;
    }
    int coarse = hi;
    for (int m = 1000; m <= hi; m += 50) {
      if (model(m) <= rate) {
        coarse = m;
        break;
      }
    }
    for (int m = Math.max(1000, coarse - 49); m <= coarse; m++) {
      if (model(m) <= rate) {
        return m;
      }
    }
    return coarse;
  }

  private static double model(int millibits) {
    return GrowthMath.blockedBloomFpRateWithProbeCollisions(
        millibits / 1000.0,
        FastLocalBloomSizing.chooseNumProbes(millibits),
        BloomMath.CACHE_LINE_BITS);
  }

  /**
   * This stage's rate at its current key count by {@link
   * GrowthMath#blockedBloomFpRateWithProbeCollisions}, with the 64-bit hash's collision rate; 0 for
   * an empty stage.
   */
  double modelledFpRate() {
    long keys = keys();
    if (keys == 0) {
      return 0.0;
    }
    return BloomMath.independentProbabilitySum(
        GrowthMath.blockedBloomFpRateWithProbeCollisions(
            (double) filter.sizeInBits() / keys, filter.numProbes(), BloomMath.CACHE_LINE_BITS),
        BloomMath.fingerprintFpRate((double) keys, 64));
  }
}
