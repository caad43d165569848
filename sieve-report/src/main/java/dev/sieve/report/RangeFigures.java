package dev.sieve.report;

import dev.sieve.bench.RangeCells.Structure;
import dev.sieve.bench.RangeCells.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The range section's figures: a cell's query time ({@link Time}), one cell of both filters ({@link
 * Point}), the section of a run ({@link Section}) and its form in {@code results.json} ({@link
 * Result}, {@link CellResult}), and the names of cells and lengths. {@link RangeReport} measures
 * them, {@link RangeAdvice} reads the pick from them.
 */
final class RangeFigures {
  private RangeFigures() {}

  /** A cell's query time: mean ns per range, its 99.9% half-width and the steady-state verdict. */
  record Time(double ns, double error, int iterations, String unsteady, boolean remeasured) {
    static final Time NONE = new Time(Double.NaN, Double.NaN, 0, null, false);

    /** The time of measured iteration scores. */
    static Time of(double[] scores, boolean remeasured) {
      Rounds.Estimate e = Rounds.combine(List.of(scores));
      return new Time(e.mean(), e.error(), e.iterations(), reason(e), remeasured);
    }

    /** Why a time is not at steady state (its 99.9% half-width above its mean), or null. */
    static String reason(Rounds.Estimate e) {
      if (Double.isNaN(e.mean()) || Double.isNaN(e.error()) || e.error() <= e.mean()) {
        return null;
      }
      return String.format(
          Locale.ROOT, "± %s exceeds its mean %s", Cells.num(e.error(), 1), Cells.num(e.mean(), 1));
    }

    boolean timed() {
      return !Double.isNaN(ns);
    }

    /** Measured and at steady state: the only times the advice uses. */
    boolean steady() {
      return timed() && unsteady == null;
    }
  }

  /**
   * One cell: a range length and workload, both filters: false positives over {@code queries} empty
   * ranges, and false negatives over {@code positives} ranges that hold a key (the contract: always
   * 0).
   */
  record Point(
      long length,
      Workload workload,
      double bitsPerKey,
      long queries,
      long grafiteFp,
      double grafiteBound,
      double grafiteBits,
      long prefixFp,
      double prefixBits,
      long positives,
      long grafiteFn,
      long prefixFn,
      Time grafiteTime,
      Time prefixTime) {

    double grafiteRate() {
      return (double) grafiteFp / queries;
    }

    double prefixRate() {
      return (double) prefixFp / queries;
    }

    double grafiteLower() {
      return GrowthReport.wilson(grafiteFp, queries, GrowthReport.Z999)[0];
    }

    double grafiteUpper() {
      return GrowthReport.wilson(grafiteFp, queries, GrowthReport.Z999)[1];
    }

    double prefixLower() {
      return GrowthReport.wilson(prefixFp, queries, GrowthReport.Z999)[0];
    }

    double prefixUpper() {
      return GrowthReport.wilson(prefixFp, queries, GrowthReport.Z999)[1];
    }

    /** Whether the measured rate is within the bound (its 99.9% lower end at most the bound). */
    boolean withinBound() {
      return grafiteLower() <= grafiteBound;
    }

    Time time(Structure s) {
      return s == Structure.GRAFITE ? grafiteTime : prefixTime;
    }

    double rate(Structure s) {
      return s == Structure.GRAFITE ? grafiteRate() : prefixRate();
    }

    double bits(Structure s) {
      return s == Structure.GRAFITE ? grafiteBits : prefixBits;
    }

    Point withTime(Structure s, Time t) {
      return new Point(
          length,
          workload,
          bitsPerKey,
          queries,
          grafiteFp,
          grafiteBound,
          grafiteBits,
          prefixFp,
          prefixBits,
          positives,
          grafiteFn,
          prefixFn,
          s == Structure.GRAFITE ? t : grafiteTime,
          s == Structure.PREFIX_BLOOM ? t : prefixTime);
    }
  }

  /**
   * The section of one run.
   *
   * @param n the keys
   * @param bitsPerKey Grafite's bits per key setting ({@code B})
   * @param queries empty ranges asked per cell
   * @param seed the keys' seed
   * @param timer how the query times were taken ("not timed" where they were not)
   * @param points the cells, length-major, uniform before correlated
   */
  record Section(
      int n, double bitsPerKey, long queries, long seed, String timer, List<Point> points) {
    Section {
      points = List.copyOf(points);
    }

    /** The false negatives of every cell and both filters (the contract: 0). */
    long falseNegatives() {
      return points.stream().mapToLong(p -> p.grafiteFn() + p.prefixFn()).sum();
    }

    /** The cells whose query times are not at steady state, as "grafite ℓ=16 correlated". */
    List<String> unsteady() {
      List<String> out = new ArrayList<>();
      for (Point p : points) {
        for (Structure s : Structure.values()) {
          if (p.time(s).timed() && !p.time(s).steady()) {
            out.add(cellName(s, p) + " (" + p.time(s).unsteady() + ")");
          }
        }
      }
      return out;
    }

    /** {@code results.json}'s {@code "range"} object. */
    Result result() {
      List<CellResult> cells = new ArrayList<>();
      for (Point p : points) {
        cells.add(
            new CellResult(
                p.length(),
                p.workload().name().toLowerCase(Locale.ROOT),
                p.queries(),
                p.grafiteFp(),
                p.grafiteRate(),
                p.grafiteLower(),
                p.grafiteUpper(),
                p.grafiteBound(),
                p.withinBound(),
                p.grafiteBits(),
                p.grafiteTime().ns(),
                p.grafiteTime().error(),
                p.grafiteTime().unsteady(),
                p.prefixFp(),
                p.prefixRate(),
                p.prefixLower(),
                p.prefixUpper(),
                p.prefixBits(),
                p.prefixTime().ns(),
                p.prefixTime().error(),
                p.prefixTime().unsteady(),
                p.positives(),
                p.grafiteFn(),
                p.prefixFn()));
      }
      return new Result(n, bitsPerKey, queries, seed, timer, GrowthReport.Z999, cells);
    }
  }

  /** {@code results.json}'s range section (the component names are its keys). */
  record Result(
      int n,
      double bitsPerKey,
      long queriesPerCell,
      long seed,
      String timer,
      double wilsonZ,
      List<CellResult> cells) {}

  /** One cell in {@code results.json}: FPRs with their 99.9% Wilson intervals, bound, bits, ns. */
  record CellResult(
      long length,
      String workload,
      long queries,
      long grafiteFalsePositives,
      double grafiteFpr,
      double grafiteFprLow999,
      double grafiteFprHigh999,
      double grafiteBound,
      boolean grafiteWithinBound,
      double grafiteBitsPerKey,
      double grafiteNsPerRange,
      double grafiteNsError999,
      String grafiteNotAtSteadyState,
      long prefixBloomFalsePositives,
      double prefixBloomFpr,
      double prefixBloomFprLow999,
      double prefixBloomFprHigh999,
      double prefixBloomBitsPerKey,
      double prefixBloomNsPerRange,
      double prefixBloomNsError999,
      String prefixBloomNotAtSteadyState,
      long rangesHoldingAKey,
      long grafiteFalseNegatives,
      long prefixBloomFalseNegatives) {}

  /** "grafite ℓ=2^10 correlated". */
  static String cellName(Structure s, Point p) {
    return s.label()
        + " ℓ="
        + lengthName(p.length())
        + " "
        + p.workload().name().toLowerCase(Locale.ROOT);
  }

  static String lengthName(long len) {
    return len >= 1024 && Long.bitCount(len) == 1
        ? "2^" + Long.numberOfTrailingZeros(len)
        : Long.toString(len);
  }
}
