package dev.sieve.report;

import static dev.sieve.report.Cells.num;

import dev.sieve.bench.Family;
import dev.sieve.report.ReportWriter.Run;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** "Which filter to pick" and the summary's bullets: steady state, contract, baseline, noise. */
final class SummarySection {
  private SummarySection() {}

  /** The recommendations, then the summary's bullets. */
  static void write(Doc doc, Run run) {
    doc.heading(2, "Which filter to pick");
    List<String> picks = new ArrayList<>(Advice.recommend(run.rows(), run.meta().simdPath()));
    if (run.range() != null) {
      picks.add(RangeAdvice.advice(run.range()) + ".");
    }
    doc.bullets(picks);
    doc.para(
        "Chosen from this run's figures at its largest n: speed is the mean of the positive and"
            + " negative lookup times of the filter's fastest path, space the bits per key over"
            + " the information floor log2(1/FPR) of the measured FPR; rows not at steady state"
            + " are never used.");
    doc.heading(2, "Summary");
    doc.bullets(summary(run));
  }

  /** The summary's bullets after the recommendations: steady state, contract, baseline, noise. */
  static List<String> summary(Run run) {
    List<String> items = new ArrayList<>();
    List<Row> flagged = run.rows().stream().filter(SteadyState::flagged).toList();
    if (flagged.isEmpty()) {
      items.add(
          "Steady state: no row's error exceeds its mean and no filter lookup exceeds "
              + num(SteadyState.MAX_OVER_RAW_READ, 0)
              + "× the raw random read at its n"
              + (run.rows().stream().anyMatch(r -> r.remeasured)
                  ? " (after re-measuring the rows whose first measurement did)."
                  : "."));
    } else {
      List<String> what = new ArrayList<>();
      flagged.forEach(
          r ->
              what.add(
                  r.name + " at n=" + Names.nLabel(r.n) + " (" + SteadyState.describe(r) + ")"));
      items.add(
          "**Not at steady state** after one longer re-measurement, printed marked **(!)** and"
              + " left out of every ratio and recommendation: "
              + String.join("; ", what)
              + ".");
    }
    long fn = run.rows().stream().filter(r -> r.falseNegatives > 0).count();
    items.add(
        fn == 0
            ? "No false negatives: every key of every row found, through the path each row is timed"
                + " on (single, batch or pre-hashed)."
            : "CONTRACT VIOLATION: "
                + fn
                + " row(s) with false negatives (see the every-row tables).");
    if (run.guard() != null) {
      items.add(baselineLine(run));
    }
    Optional<Row> noisiest =
        run.rows().stream()
            .filter(r -> !Double.isNaN(r.negative.roundSpread()))
            .max(Comparator.comparingDouble(r -> r.negative.roundSpread()));
    noisiest.ifPresent(
        r ->
            items.add(
                String.format(
                    Locale.ROOT,
                    "Largest round-to-round spread of a negative-lookup mean: %s%% (%s at n=%s);"
                        + " ratios within one run are the figures to read.",
                    num(100 * r.negative.roundSpread(), 1),
                    r.name,
                    Names.nLabel(r.n))));
    return items;
  }

  /** The --baseline comparison in one sentence. */
  static String baselineLine(Run run) {
    List<String> sieve = new ArrayList<>();
    long peers = 0;
    for (Guard.Entry e : run.guard()) {
      if (e.verdict() == Guard.Verdict.SLOWER) {
        if (e.family() == Family.SIEVE) {
          sieve.add(
              e.name()
                  + " "
                  + e.metric()
                  + " at n="
                  + Names.nLabel(e.n())
                  + " "
                  + num(e.ratio(), 2)
                  + "×");
        } else {
          peers++;
        }
      }
    }
    return String.format(
        Locale.ROOT,
        "Against the baseline %s: %d comparable figures; %s; %d non-Sieve figure(s) also"
            + " slower (if the peers slowed too, the machine did).",
        run.meta().baseline(),
        run.guard().size(),
        sieve.isEmpty()
            ? "no Sieve figure slower by more than " + Guard.THRESHOLD_PERCENT + "%"
            : "Sieve figures slower by more than "
                + Guard.THRESHOLD_PERCENT
                + "%: "
                + String.join(", ", sieve),
        peers);
  }
}
