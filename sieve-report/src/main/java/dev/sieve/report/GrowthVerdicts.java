package dev.sieve.report;

import static dev.sieve.report.GrowthReport.EXPANDABLE;
import static dev.sieve.report.GrowthReport.EXPANDABLE_HINTED;
import static dev.sieve.report.GrowthReport.RIGHT_SIZED;
import static dev.sieve.report.GrowthReport.SCALABLE;

import dev.sieve.report.GrowthReport.Point;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The growth report's verdicts: each growable filter's measured checkpoints held to the targets
 * (FPR at most f at the 99.9% upper bound; memory against the right-sized filter after the first
 * growth step, and the tighter moonshot with a hint within 2× of the count).
 */
final class GrowthVerdicts {
  private GrowthVerdicts() {}

  /** A target's outcome. */
  enum Outcome {
    MET("✔"),
    MISSED("✘"),
    NOT_MEASURED("–");

    final String mark;

    Outcome(String mark) {
      this.mark = mark;
    }
  }

  /** One verdict for one structure at one rate. */
  record Verdict(String structure, double fpRate, String target, Outcome outcome, String figure) {}

  /** The memory limit after the first growth step, × the right-sized filter. */
  static final double MEMORY_TARGET = 1.5;

  /** The tighter memory limit with a hint within 2× of the count. */
  static final double MOONSHOT_TARGET = 1.2;

  /**
   * The verdicts for every growable structure and rate in {@code points} (the right-sized filter is
   * the reference, not judged: it is sized to deliver f on average, so a single filter's rate sits
   * near f, half the time above): FPR at or below f at the 99.9% upper bound at every checkpoint;
   * memory at most {@value #MEMORY_TARGET}× the right-sized filter at every checkpoint after the
   * first growth step (the growable filters without a hint); at most {@value #MOONSHOT_TARGET}× at
   * every checkpoint whose count is within 2× of the hint (the hinted ones).
   */
  static List<Verdict> verdicts(List<Point> points) {
    List<Verdict> verdicts = new ArrayList<>();
    for (double f : points.stream().map(Point::fpRate).distinct().toList()) {
      for (String label :
          points.stream().filter(p -> p.fpRate() == f).map(Point::label).distinct().toList()) {
        List<Point> mine =
            points.stream().filter(p -> p.fpRate() == f && p.label().equals(label)).toList();
        Point first = mine.get(0);
        if (first.structure().equals(RIGHT_SIZED)) {
          continue; // the reference: sized to deliver f on average, so one filter sits near f
        }
        Point worstFpr = mine.stream().max(Comparator.comparingDouble(Point::upper)).orElseThrow();
        long above = mine.stream().filter(p -> p.upper() > f).count();
        verdicts.add(
            new Verdict(
                label,
                f,
                "FPR ≤ f at the 99.9% upper bound, every checkpoint",
                above == 0 ? Outcome.MET : Outcome.MISSED,
                String.format(
                    Locale.ROOT,
                    "worst upper bound %.4f%% at %,d keys; %d of %d checkpoints above f",
                    100 * worstFpr.upper(),
                    worstFpr.keys(),
                    above,
                    mine.size())));
        if (first.structure().equals(SCALABLE) || first.structure().equals(EXPANDABLE)) {
          verdicts.add(
              memoryVerdict(
                  label,
                  f,
                  String.format(
                      Locale.ROOT,
                      "memory ≤ %.1f× right-sized after the first growth step",
                      MEMORY_TARGET),
                  mine.stream().filter(p -> p.steps() >= 1).toList(),
                  MEMORY_TARGET));
        } else if (first.structure().equals(EXPANDABLE_HINTED)) {
          verdicts.add(
              memoryVerdict(
                  label,
                  f,
                  String.format(
                      Locale.ROOT,
                      "moonshot: memory ≤ %.1f× right-sized with the hint within 2× of the count",
                      MOONSHOT_TARGET),
                  mine.stream().filter(GrowthVerdicts::withinTwiceOfHint).toList(),
                  MOONSHOT_TARGET));
        }
      }
    }
    return verdicts;
  }

  /** {@return whether {@code p} has no hint or a count within 2× of its hint} */
  static boolean withinTwiceOfHint(Point p) {
    return p.hint() == 0 || (2 * p.keys() >= p.hint() && p.keys() <= 2 * p.hint());
  }

  private static Verdict memoryVerdict(
      String label, double f, String target, List<Point> judged, double limit) {
    if (judged.isEmpty()) {
      return new Verdict(label, f, target, Outcome.NOT_MEASURED, "no checkpoint qualifies");
    }
    Point worst = judged.stream().max(Comparator.comparingDouble(Point::memoryRatio)).orElseThrow();
    return new Verdict(
        label,
        f,
        target,
        worst.memoryRatio() <= limit ? Outcome.MET : Outcome.MISSED,
        String.format(
            Locale.ROOT,
            "worst %.2f× at %,d keys%s, mean %.2f× over %d checkpoints",
            worst.memoryRatio(),
            worst.keys(),
            worst.justOpened() ? " (just after a growth step)" : "",
            judged.stream().mapToDouble(Point::memoryRatio).average().orElse(0),
            judged.size()));
  }
}
