package dev.sieve.report;

import static dev.sieve.report.RangeFigures.lengthName;
import static dev.sieve.report.RangeReport.SHORT_RANGE_MAX;

import dev.sieve.bench.RangeCells.Structure;
import dev.sieve.report.RangeFigures.Point;
import dev.sieve.report.RangeFigures.Section;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** The range section's advice: which range filter to pick, from the measured figures. */
final class RangeAdvice {
  private RangeAdvice() {}

  /**
   * The range filter to pick, in one sentence from the measured figures: the filter with the lower
   * worst FPR over the cells up to {@link RangeReport#SHORT_RANGE_MAX} (both workloads, equal
   * memory), its worst rate and the other's, and each filter's mean query time over those cells
   * (left out where one of them is not at steady state).
   */
  static String advice(Section s) {
    List<Point> judged = s.points().stream().filter(p -> p.length() <= SHORT_RANGE_MAX).toList();
    if (judged.isEmpty()) {
      judged = s.points();
    }
    Point gw = worst(judged, Structure.GRAFITE);
    Point pw = worst(judged, Structure.PREFIX_BLOOM);
    boolean grafite = gw.grafiteRate() <= pw.prefixRate();
    Structure pick = grafite ? Structure.GRAFITE : Structure.PREFIX_BLOOM;
    Structure other = grafite ? Structure.PREFIX_BLOOM : Structure.GRAFITE;
    Point pickWorst = grafite ? gw : pw;
    Point otherWorst = grafite ? pw : gw;
    double pickNs = meanNs(judged, pick);
    double otherNs = meanNs(judged, other);
    String speed;
    if (Double.isNaN(pickNs) || Double.isNaN(otherNs)) {
      speed = "";
    } else {
      speed =
          String.format(
              Locale.ROOT,
              "; %s vs %s ns/range%s",
              Cells.num(pickNs, pickNs >= 100 ? 0 : 1),
              Cells.num(otherNs, otherNs >= 100 ? 0 : 1),
              pickNs <= otherNs ? "" : " (" + other.label() + " faster)");
    }
    return String.format(
        Locale.ROOT,
        "Range queries (n = %s, %s bits/key, ℓ ≤ %s): %s — worst FPR %s (ℓ=%s %s) vs"
            + " %s's %s (ℓ=%s %s)%s",
        Names.nLabel(s.n()),
        Cells.num(pickWorst.grafiteBits(), 1),
        lengthName(judged.stream().mapToLong(Point::length).max().orElse(0)),
        pick.label(),
        Advice.shortPct(pickWorst.rate(pick)),
        lengthName(pickWorst.length()),
        pickWorst.workload().name().toLowerCase(Locale.ROOT),
        other.label(),
        Advice.shortPct(otherWorst.rate(other)),
        lengthName(otherWorst.length()),
        otherWorst.workload().name().toLowerCase(Locale.ROOT),
        speed);
  }

  private static Point worst(List<Point> points, Structure s) {
    return points.stream().max(Comparator.comparingDouble(p -> p.rate(s))).orElseThrow();
  }

  /** The mean query time of a filter over {@code cells}; NaN if any of them is not steady. */
  static double meanNs(List<Point> cells, Structure st) {
    if (cells.stream().anyMatch(p -> !p.time(st).steady())) {
      return Double.NaN;
    }
    return cells.stream().mapToDouble(p -> p.time(st).ns()).average().orElse(Double.NaN);
  }
}
