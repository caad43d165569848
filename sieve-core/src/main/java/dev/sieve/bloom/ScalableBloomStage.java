package dev.sieve.bloom;

import dev.sieve.math.BloomMath;
import dev.sieve.math.GrowthMath;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One stage of a {@link ScalableBloomFilter}: a blocked Bloom filter, its key capacity and its
 * count of keys taken; and the growth rule that sizes stage {@code i} of a chain from the filter's
 * parameters ({@link #open}).
 *
 * <p>The count is a ticket counter: an add takes a ticket and gives it back when it was not counted
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
              + BlockedBloomFilter.MAX_BITS_PER_KEY
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
    int hi = (int) (BlockedBloomFilter.MAX_BITS_PER_KEY * 1000);
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
