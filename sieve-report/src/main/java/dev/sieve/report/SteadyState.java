package dev.sieve.report;

import dev.sieve.bench.Family;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The steady-state guard: flags every row whose timing cannot be a steady-state figure, so that the
 * report re-measures it once (longer) and, if it is still flagged, prints it marked and computes no
 * ratio, target or recommendation from it. The lookup times and the build time are flagged apart
 * ({@link Row#unsteady}, {@link Row#buildUnsteady}): a noisy build does not void steady lookups.
 *
 * <p>Two symptoms give a measurement away. <b>Error over the mean:</b> the half-width of the 99.9%
 * confidence interval of a time exceeds the time itself, so the iterations disagree by more than
 * the figure (a fork whose first iterations still ran interpreted code, or a neighbour's burst).
 * <b>Slower than 100 raw reads:</b> a filter lookup touches one to three cache lines and hashes one
 * key, so it costs a few raw random reads ({@code raw-read-1x}: one random 64-bit read from an
 * array of the filter's size, at the same n); a filter lookup above 100× that is not a lookup but
 * JIT warm-up (the SIMD path before C2 compiled it measured 1,000× slow). The 100× rule applies to
 * filters (Sieve's and the peers'), not to the exact sets, whose pointer-chasing lookups (a {@code
 * TreeSet} walks ~20 nodes at 10^6) may legitimately exceed it, nor to the raw read itself, which
 * is only held to the error rule; while the raw read is flagged no row is compared with it.
 */
public final class SteadyState {
  private SteadyState() {}

  /** A filter lookup above this many raw random reads (same n) is flagged. */
  public static final double MAX_OVER_RAW_READ = 100;

  /** The reference row: one raw random read. */
  public static final String RAW_READ = "raw-read-1x";

  /**
   * Why the lookup times of {@code r} are not at steady state within {@code rows}, or {@code null}
   * when they are.
   */
  static String reason(Row r, List<Row> rows) {
    List<String> why = new ArrayList<>();
    errorOverMean(why, "positive", r.positiveNs, r.positiveNsError);
    errorOverMean(why, "negative", r.negativeNs, r.negativeNsError);
    if (r.family == Family.SIEVE || r.family == Family.PEER) {
      Optional<Row> raw = rawRead(rows, r.n);
      if (raw.isPresent() && steadyError(raw.get()) && raw.get().negativeNs > 0) {
        double ref = raw.get().negativeNs;
        overRaw(why, "positive", r.positiveNs, ref);
        overRaw(why, "negative", r.negativeNs, ref);
      }
    }
    return why.isEmpty() ? null : String.join("; ", why);
  }

  /** Why the build time of {@code r} is not at steady state, or {@code null} when it is. */
  static String buildReason(Row r) {
    List<String> why = new ArrayList<>();
    errorOverMean(why, "build", r.buildNsPerKey, r.buildNsPerKeyError);
    return why.isEmpty() ? null : String.join("; ", why);
  }

  /** The raw-read row at {@code n}, if the run has one. */
  static Optional<Row> rawRead(List<Row> rows, int n) {
    return rows.stream().filter(x -> x.name.equals(RAW_READ) && x.n == n).findFirst();
  }

  /** Whether no time of {@code r} has an error above its mean. */
  private static boolean steadyError(Row r) {
    List<String> why = new ArrayList<>();
    errorOverMean(why, "positive", r.positiveNs, r.positiveNsError);
    errorOverMean(why, "negative", r.negativeNs, r.negativeNsError);
    return why.isEmpty();
  }

  private static void errorOverMean(List<String> why, String what, double mean, double error) {
    if (!Double.isNaN(mean) && !Double.isNaN(error) && error > mean) {
      why.add(
          String.format(
              Locale.ROOT,
              "%s ± %s exceeds its mean %s",
              what,
              Cells.num(error, 1),
              Cells.num(mean, 1)));
    }
  }

  private static void overRaw(List<String> why, String what, double ns, double raw) {
    if (!Double.isNaN(ns) && ns > MAX_OVER_RAW_READ * raw) {
      why.add(
          String.format(
              Locale.ROOT,
              "%s %s ns is %s× the raw read (%s ns), over %s×",
              what,
              Cells.num(ns, 1),
              Cells.num(ns / raw, 0),
              Cells.num(raw, 2),
              Cells.num(MAX_OVER_RAW_READ, 0)));
    }
  }

  /**
   * Marks every row of {@code rows} ({@link Row#unsteady} for the lookup times, {@link
   * Row#buildUnsteady} for the build time: the reason, or {@code null}) and returns the rows with
   * either flag, in row order.
   */
  public static List<Row> flag(List<Row> rows) {
    List<String> reasons = new ArrayList<>();
    for (Row r : rows) {
      reasons.add(reason(r, rows)); // every reason from the same figures, then marked
    }
    List<Row> flagged = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      r.unsteady = reasons.get(i);
      r.buildUnsteady = buildReason(r);
      if (r.unsteady != null || r.buildUnsteady != null) {
        flagged.add(r);
      }
    }
    return flagged;
  }

  /** Whether either of a row's flags is set. */
  public static boolean flagged(Row r) {
    return r.excluded() || r.buildExcluded();
  }

  /** A flagged row's reasons: "lookups: …", "build only: …", or both. */
  public static String describe(Row r) {
    String budget = r.overBudget ? " (not re-measured: the run's time budget was spent)" : "";
    if (r.excluded() && r.buildExcluded()) {
      return r.unsteady + "; " + r.buildUnsteady + budget;
    }
    return (r.excluded() ? r.unsteady : "build only (lookups kept): " + r.buildUnsteady) + budget;
  }

  /**
   * Re-measures a list of jobs (a longer timer, one round), reporting as it goes, and returns the
   * jobs it re-measured: those that fit the run's time budget, lookups first (a row whose time
   * budget is spent stays flagged, {@link Row#overBudget}).
   */
  @FunctionalInterface
  public interface Remeasure {
    List<Timer.Job> run(List<Timer.Job> jobs) throws Exception;
  }

  /**
   * Flags the rows, re-measures each flagged row once through {@code remeasure} (rows flagged only
   * after another row's re-measurement, e.g. the raw read's, get their one re-measurement in a
   * second pass), and marks the final figures. Rows still flagged after their re-measurement stay
   * marked: no ratio or target is computed from them.
   *
   * @return the rows flagged in the end
   */
  public static List<Row> guard(List<Timer.Job> jobs, Remeasure remeasure) throws Exception {
    List<Row> rows = new ArrayList<>();
    jobs.forEach(j -> rows.add(j.row()));
    for (int pass = 0; pass < 2; pass++) {
      List<Row> flagged = flag(rows);
      List<Timer.Job> again = new ArrayList<>();
      for (Timer.Job j : jobs) {
        if (flagged.contains(j.row()) && !j.row().remeasured && !j.row().overBudget) {
          again.add(j);
        }
      }
      if (again.isEmpty()) {
        break;
      }
      for (Timer.Job j : again) {
        Row r = j.row();
        r.firstFlag =
            r.unsteady == null
                ? r.buildUnsteady
                : r.buildUnsteady == null ? r.unsteady : r.unsteady + "; " + r.buildUnsteady;
      }
      List<Timer.Job> done = remeasure.run(again);
      for (Timer.Job j : again) {
        if (done.contains(j)) {
          j.row().remeasured = true;
        } else {
          j.row().overBudget = true;
        }
      }
    }
    return flag(rows);
  }
}
