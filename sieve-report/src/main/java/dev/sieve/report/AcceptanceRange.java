package dev.sieve.report;

import static dev.sieve.report.RangeFigures.cellName;
import static dev.sieve.report.RangeFigures.lengthName;
import static dev.sieve.report.RangeReport.REFERENCE_FPR;
import static dev.sieve.report.RangeReport.SHORT_RANGE_MAX;

import dev.sieve.bench.RangeCells.Structure;
import dev.sieve.bench.RangeCells.Workload;
import dev.sieve.report.Acceptance.Check;
import dev.sieve.report.Acceptance.Status;
import dev.sieve.report.RangeFigures.Point;
import dev.sieve.report.RangeFigures.Section;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/** The acceptance check's range-filter goals, over a report's range section. */
final class AcceptanceRange {
  private AcceptanceRange() {}

  /** Grafite's FPR within its bound at every cell. */
  static final String WITHIN_BOUND = "Grafite FPR within its bound";

  /** Grafite's FPR on short uniform ranges. */
  static final String UNIFORM_FPR = "Grafite FPR on short uniform ranges";

  /** Grafite's FPR on short correlated ranges. */
  static final String CORRELATED_FPR = "Grafite FPR on short correlated ranges";

  /** Grafite's query time at 10^7 keys. */
  static final String QUERY_TIME = "Grafite query time at 10^7 keys";

  /** No false negative in either range filter. */
  static final String NO_FALSE_NEGATIVES = "range filters: no false negatives";

  /** The bits per key the FPR goals are stated at. */
  static final double GOAL_BITS = 16;

  /** The query-time goal, ns per range at 10^7 keys. */
  static final double GOAL_NS = 100;

  /** The key count the query-time goal is stated at. */
  static final int GOAL_NS_KEYS = 10_000_000;

  /**
   * The range goals: Grafite's FPR within its bound at every cell (the 99.9% lower end at most the
   * bound); FPR ≤ 1% on the uniform workload at 16 bits/key for ℓ ≤ 2^10, and ≤ 2× that (2%) on the
   * correlated one; a range query ≤ 100 ns at 10^7 keys (every cell); no false negative. A goal
   * whose cells have a bound above its limit is missed with that reason (no Grafite at those bits
   * can meet it). NOT RUN where the run lacks the section, the bits or the key count.
   */
  static List<Check> checks(Section s) {
    List<Check> out = new ArrayList<>();
    String withinBound =
        "Grafite's FPR within its bound ℓ/2^(B−2) at every range length and workload";
    String uniform = "Grafite FPR ≤ 1% (value in %) on uniform ranges, 16 bits/key, ℓ ≤ 2^10";
    String correlated =
        "Grafite FPR ≤ 2× 1% (value in %) on correlated ranges, 16 bits/key, ℓ ≤ 2^10";
    String queryTime = "Grafite query ≤ 100 ns per range at 10^7 keys, every cell";
    String contract = "no false negative: every range holding a key answered maybe, both filters";
    if (s == null) {
      for (String[] t :
          new String[][] {
            {WITHIN_BOUND, withinBound},
            {UNIFORM_FPR, uniform},
            {CORRELATED_FPR, correlated},
            {QUERY_TIME, queryTime},
            {NO_FALSE_NEGATIVES, contract}
          }) {
        out.add(notRun(t[0], t[1], "range keys", "range section off (--range-keys 0)"));
      }
      return out;
    }
    String at = "n=" + Names.nLabel(s.n());
    // the cell closest to its bound, among those whose bound says something (below 1)
    List<Point> informative = s.points().stream().filter(p -> p.grafiteBound() < 1).toList();
    Point closest =
        (informative.isEmpty() ? s.points() : informative)
            .stream()
                .max(Comparator.comparingDouble(p -> p.grafiteLower() / p.grafiteBound()))
                .orElseThrow();
    long within = s.points().stream().filter(Point::withinBound).count();
    out.add(
        check(
            WITHIN_BOUND,
            withinBound,
            at,
            closest.grafiteLower() / closest.grafiteBound(),
            1.0,
            String.format(
                Locale.ROOT,
                "%d of %d cells within (99.9%% lower end ≤ bound); value: the largest lower end"
                    + " ÷ bound below 1, at ℓ=%s %s: %s [%s, %s] vs bound %s",
                within,
                s.points().size(),
                lengthName(closest.length()),
                closest.workload().name().toLowerCase(Locale.ROOT),
                Cells.pct(closest.grafiteRate()),
                Cells.pct(closest.grafiteLower()),
                Cells.pct(closest.grafiteUpper()),
                Cells.pct(closest.grafiteBound()))));
    if (s.bitsPerKey() != GOAL_BITS) {
      String why = "the run used " + Cells.num(s.bitsPerKey(), 1) + " bits/key (--range-bits)";
      out.add(notRun(UNIFORM_FPR, uniform, at, why));
      out.add(notRun(CORRELATED_FPR, correlated, at, why));
    } else {
      out.add(fprGoal(UNIFORM_FPR, uniform, at, s, Workload.UNIFORM, REFERENCE_FPR));
      out.add(fprGoal(CORRELATED_FPR, correlated, at, s, Workload.CORRELATED, 2 * REFERENCE_FPR));
    }
    String at7 = "n=" + Names.nLabel(GOAL_NS_KEYS);
    List<Point> timed = s.points().stream().filter(p -> p.grafiteTime().timed()).toList();
    if (s.n() != GOAL_NS_KEYS) {
      out.add(
          notRun(
              QUERY_TIME,
              queryTime,
              at7,
              "the range section ran at n=" + Names.nLabel(s.n()) + " (--range-keys 10000000)"));
    } else if (timed.size() != s.points().size()) {
      out.add(notRun(QUERY_TIME, queryTime, at7, "query times not measured"));
    } else if (timed.stream().anyMatch(p -> !p.grafiteTime().steady())) {
      Point bad = timed.stream().filter(p -> !p.grafiteTime().steady()).findFirst().orElseThrow();
      out.add(
          new Check(
              QUERY_TIME,
              queryTime,
              at7,
              Status.EXCLUDED,
              Double.NaN,
              Double.NaN,
              cellName(Structure.GRAFITE, bad)
                  + " not at steady state: "
                  + bad.grafiteTime().unsteady()));
    } else {
      Point slow =
          timed.stream().max(Comparator.comparingDouble(p -> p.grafiteTime().ns())).orElseThrow();
      out.add(
          check(
              QUERY_TIME,
              queryTime,
              at7,
              slow.grafiteTime().ns(),
              GOAL_NS,
              String.format(
                  Locale.ROOT,
                  "slowest cell %s: %s ns per range",
                  cellName(Structure.GRAFITE, slow),
                  Cells.pm(slow.grafiteTime().ns(), slow.grafiteTime().error()))));
    }
    long fn = s.falseNegatives();
    long asked = s.points().stream().mapToLong(Point::positives).sum();
    List<String> bad = new ArrayList<>();
    for (Point p : s.points()) {
      if (p.grafiteFn() > 0) {
        bad.add(cellName(Structure.GRAFITE, p) + ": " + p.grafiteFn());
      }
      if (p.prefixFn() > 0) {
        bad.add(cellName(Structure.PREFIX_BLOOM, p) + ": " + p.prefixFn());
      }
    }
    out.add(
        check(
            NO_FALSE_NEGATIVES,
            contract,
            at,
            fn,
            0,
            fn == 0
                ? String.format(
                    Locale.ROOT, "%,d ranges holding a key, each asked of both filters", asked)
                : "CONTRACT VIOLATION: " + String.join("; ", bad)));
    return out;
  }

  /**
   * Grafite's worst FPR (in %) over one workload's cells up to 2^10, with the reason of a miss: the
   * cells whose bound itself is above the limit, and the bits per key that would bring it under
   * ({@code B ≥ 2 + log2(ℓ/limit)}).
   */
  private static Check fprGoal(
      String id, String what, String at, Section s, Workload w, double limit) {
    Predicate<Point> mine = p -> p.workload() == w && p.length() <= SHORT_RANGE_MAX;
    List<Point> cells = s.points().stream().filter(mine).toList();
    if (cells.isEmpty()) {
      return notRun(id, what, at, "no cell with ℓ ≤ 2^10");
    }
    Point worst = cells.stream().max(Comparator.comparingDouble(Point::grafiteRate)).orElseThrow();
    List<String> over = new ArrayList<>();
    for (Point p : cells) {
      if (p.grafiteRate() > limit) {
        over.add(
            p.grafiteBound() > limit
                ? String.format(
                    Locale.ROOT,
                    "ℓ=%s: %s, but its bound ℓ/2^(B−2) is %s > %s, so no Grafite at %s bits/key"
                        + " can meet it (it needs B ≥ %s)",
                    lengthName(p.length()),
                    Cells.pct(p.grafiteRate()),
                    Cells.pct(p.grafiteBound()),
                    Cells.pct(limit),
                    Cells.num(s.bitsPerKey(), 0),
                    Cells.num(2 + Math.log(p.length() / limit) / Math.log(2), 1))
                : String.format(
                    Locale.ROOT,
                    "ℓ=%s: %s within a bound of %s",
                    lengthName(p.length()),
                    Cells.pct(p.grafiteRate()),
                    Cells.pct(p.grafiteBound())));
      }
    }
    String detail =
        over.isEmpty()
            ? String.format(
                Locale.ROOT,
                "worst ℓ=%s: %s (99.9%% upper %s)",
                lengthName(worst.length()),
                Cells.pct(worst.grafiteRate()),
                Cells.pct(worst.grafiteUpper()))
            : "above " + Cells.pct(limit) + " at " + String.join("; ", over);
    return check(id, what, at, 100 * worst.grafiteRate(), 100 * limit, detail);
  }

  private static Check check(
      String id, String what, String at, double value, double limit, String detail) {
    return new Check(
        id, what, at, value <= limit ? Status.PASS : Status.MISS, value, limit, detail);
  }

  private static Check notRun(String id, String what, String at, String why) {
    return new Check(id, what, at, Status.NOT_RUN, Double.NaN, Double.NaN, why);
  }
}
