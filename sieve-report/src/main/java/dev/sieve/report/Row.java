package dev.sieve.report;

import dev.sieve.bench.Family;
import dev.sieve.bench.SieveAdapters;
import dev.sieve.math.BloomMath;
import java.util.List;

/**
 * Every figure measured for one structure at one key count and bits/key setting. Fields are {@code
 * NaN} (or {@code -1} for counts) where a figure does not apply or was not measured.
 */
public final class Row {
  public String name;
  public Family family;
  public String description;
  public int n;

  /** The bits/key setting the structure was built with (ignored by fixed-size kinds). */
  public double bitsPerKeySetting;

  /** Size: filter data bits, array bits, or 8 × the measured retained heap where marked. */
  public long sizeBits;

  public boolean sizeIsMeasuredHeap;

  /** Retained heap after the build (GC'd before and after), bytes. */
  public long retainedHeapBytes = -1;

  /** Bytes allocated by the building thread during one build. */
  public long buildAllocatedBytes = -1;

  /** Objects reachable from the built structure (JOL), {@code -1} when not counted. */
  public long objectCount = -1;

  public long falseNegatives = -1;
  public long absentQueried;
  public long falsePositives;
  public double modelFpr = Double.NaN;

  public double buildNsPerKey = Double.NaN;
  public double buildNsPerKeyError = Double.NaN;
  public double positiveNs = Double.NaN;
  public double positiveNsError = Double.NaN;
  public double negativeNs = Double.NaN;
  public double negativeNsError = Double.NaN;

  /**
   * Why this row's lookup times are not at steady state ({@link SteadyState}), or {@code null} when
   * they are. A flagged row is printed marked and no ratio, target or recommendation is computed
   * from its lookup times.
   */
  public String unsteady;

  /** The same for the build time, or {@code null}: no build ratio or target from a flagged one. */
  public String buildUnsteady;

  /** Why the first measurement was flagged when the row was re-measured, else {@code null}. */
  public String firstFlag;

  /** Whether the row was re-measured (once, longer) because its first measurement was flagged. */
  public boolean remeasured;

  /**
   * Whether the row was flagged but not re-measured because the run's time budget was spent (it
   * stays flagged: no ratio from it).
   */
  public boolean overBudget;

  /** Whether the lookup times are flagged: shown marked, never used in a ratio or target. */
  public boolean excluded() {
    return unsteady != null;
  }

  /** Whether the build time is flagged: shown marked, never used in a ratio or target. */
  public boolean buildExcluded() {
    return buildUnsteady != null;
  }

  /** Which engine measured the times: {@code jmh} or {@code quick}. */
  public String timer = "";

  /** The timed figures over the rounds (means, errors, each round's mean). */
  public Rounds.Estimate positive = Rounds.Estimate.NONE;

  public Rounds.Estimate negative = Rounds.Estimate.NONE;
  public Rounds.Estimate build = Rounds.Estimate.NONE;

  /** Sets the timed figures from the rounds' estimates. */
  public void setTimes(
      Rounds.Estimate positive, Rounds.Estimate negative, Rounds.Estimate build, String timer) {
    this.positive = positive;
    this.negative = negative;
    this.build = build;
    positiveNs = positive.mean();
    positiveNsError = positive.error();
    negativeNs = negative.mean();
    negativeNsError = negative.error();
    buildNsPerKey = build.mean();
    buildNsPerKeyError = build.error();
    this.timer = timer;
  }

  /** Whether this is a batch row ({@code …-batch}). */
  public boolean isBatch() {
    return name.endsWith(SieveAdapters.BATCH_SUFFIX);
  }

  /** Whether this is a pre-hashed row ({@code …-prehashed}). */
  public boolean isPrehashed() {
    return name.endsWith(SieveAdapters.PREHASHED_SUFFIX);
  }

  public double bitsPerKey() {
    return n == 0 ? Double.NaN : (double) sizeBits / n;
  }

  public long sizeBytes() {
    return (sizeBits + 7) / 8;
  }

  public boolean hasFpr() {
    return absentQueried > 0;
  }

  public double measuredFpr() {
    return absentQueried == 0 ? Double.NaN : (double) falsePositives / absentQueried;
  }

  /** The lower end of the Wilson 95% interval of the measured FPR. */
  public double measuredFprLow() {
    return Stats.wilsonLow(falsePositives, absentQueried);
  }

  /** The upper end of the Wilson 95% interval of the measured FPR. */
  public double measuredFprHigh() {
    return Stats.wilsonHigh(falsePositives, absentQueried);
  }

  /** {@code log2(1/measured FPR)}: the information floor for the measured rate. */
  public double floorBitsPerKey() {
    double f = measuredFpr();
    return f > 0 && f < 1 ? BloomMath.informationFloorBitsPerKey(f) : Double.NaN;
  }

  /** Bits/key over the floor of the measured FPR. */
  public double overheadMeasured() {
    return BloomMath.overheadOverFloor(bitsPerKey(), measuredFpr());
  }

  /** Bits/key over the floor of the model FPR. */
  public double overheadModel() {
    return BloomMath.overheadOverFloor(bitsPerKey(), modelFpr);
  }

  /** Build allocation over (final size + the input keys' 8 bytes each). */
  public double buildMemoryRatio() {
    if (buildAllocatedBytes < 0) {
      return Double.NaN;
    }
    return (double) buildAllocatedBytes / (sizeBytes() + 8L * n);
  }

  /**
   * Everything, as one row of results.json (the component names are its keys).
   *
   * @param ratios the row's ratios to the raw read and the best peer
   * @return the row's figures
   */
  public Result result(ReportWriter.Ratios ratios) {
    return new Result(
        name,
        family.label(),
        description,
        n,
        bitsPerKeySetting,
        sizeBits,
        sizeBytes(),
        sizeIsMeasuredHeap,
        bitsPerKey(),
        retainedHeapBytes,
        buildAllocatedBytes,
        buildMemoryRatio(),
        objectCount,
        falseNegatives,
        absentQueried,
        falsePositives,
        measuredFpr(),
        measuredFprLow(),
        measuredFprHigh(),
        modelFpr,
        floorBitsPerKey(),
        overheadMeasured(),
        overheadModel(),
        buildNsPerKey,
        buildNsPerKeyError,
        positiveNs,
        positiveNsError,
        negativeNs,
        negativeNsError,
        positive.roundMeans(),
        negative.roundMeans(),
        build.roundMeans(),
        positive.iterations(),
        timer,
        unsteady,
        buildUnsteady,
        remeasured,
        overBudget,
        firstFlag,
        ratios);
  }

  /** One row of results.json; {@link Guard#read} reads the timed figures back by these names. */
  public record Result(
      String name,
      String family,
      String description,
      int n,
      double bitsPerKeySetting,
      long sizeBits,
      long sizeBytes,
      boolean sizeIsMeasuredHeap,
      double bitsPerKey,
      long retainedHeapBytes,
      long buildAllocatedBytes,
      double buildMemoryRatio,
      long objectCount,
      long falseNegatives,
      long absentQueried,
      long falsePositives,
      double measuredFpr,
      double measuredFprLow95,
      double measuredFprHigh95,
      double modelFpr,
      double floorBitsPerKey,
      double overheadOverFloorMeasured,
      double overheadOverFloorModel,
      double buildNsPerKey,
      double buildNsPerKeyError,
      double positiveQueryNs,
      double positiveQueryNsError,
      double negativeQueryNs,
      double negativeQueryNsError,
      List<Double> positiveQueryNsRounds,
      List<Double> negativeQueryNsRounds,
      List<Double> buildNsPerKeyRounds,
      int timedIterations,
      String timer,
      String notAtSteadyState,
      String buildNotAtSteadyState,
      boolean remeasured,
      boolean notRemeasuredOverBudget,
      String firstMeasurementFlagged,
      ReportWriter.Ratios ratios) {}
}
