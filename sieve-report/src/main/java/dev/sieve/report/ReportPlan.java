package dev.sieve.report;

import dev.sieve.bench.StructureKind;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The run's plan and budget: the timers {@code --timer} names, the planned seconds of every part
 * (the rows' forks, the report's own work, the cold-start JVMs, the range section), the plan
 * printed before the run, and which flagged rows the budget leaves room to re-measure.
 */
final class ReportPlan {
  /**
   * Seconds of the report's own work per row (build, sizes, the contract over every key, the FPR
   * over {@code --fpr-queries} absent keys) at 10^7 queries, for the plan: an upper estimate from
   * quick-timer runs on 2 cores.
   */
  static final double IN_PROCESS_SECONDS_PER_ROW = 1.5;

  /** Seconds of the experiments, the build retries, the plots and the files, for the plan. */
  static final double IN_PROCESS_SECONDS_FIXED = 45;

  /**
   * Wall seconds of one cold-start child JVM (start-up, a build over at most {@link
   * #COLD_START_MAX_N} keys, 10^5 lookups, exit), for the plan: an upper estimate (0.22 to 0.37 s
   * measured on 2 busy cores at 10^4 and 10^5 keys, doubled).
   */
  static final double COLD_START_SECONDS_PER_JVM = 0.75;

  /** The cold-start section's keys per filter: the run's smallest n, at most this. */
  static final int COLD_START_MAX_N = 100_000;

  /** The cold-start children's {@code -Xmx}: a filter over at most 10^5 keys. */
  static final String COLD_START_HEAP = "512m";

  /**
   * The time a run may take, re-measurements included: 10 minutes, the promise for the default run,
   * or {@link #BUDGET_ROOM} × its plan for a larger one.
   */
  static final double BUDGET_SECONDS = 600;

  /** A run planned past {@link #BUDGET_SECONDS} may take this much more than its plan. */
  static final double BUDGET_ROOM = 1.1;

  private final ReportCommand c;

  ReportPlan(ReportCommand c) {
    this.c = c;
  }

  /** The timer {@code --timer} names; JMH's output to {@code log} (none: only planned with). */
  Timer timer(String heap, PrintStream log) {
    return switch (c.timer) {
      case "jmh" ->
          new JmhTimer(
              c.warmup,
              c.scalarWarmup,
              c.warmupMillis,
              c.iterations,
              c.iterationMillis,
              c.buildWarmup,
              c.buildIterations,
              heap,
              log == null ? new PrintStream(OutputStream.nullOutputStream()) : log);
      case "quick" -> new QuickTimer(5, 1 << 16);
      default -> throw new IllegalArgumentException("--timer must be jmh or quick, got " + c.timer);
    };
  }

  /**
   * The range section's timer: JMH forks with {@code --timer jmh}, in this JVM with {@code quick};
   * JMH's output to {@code log} (none: only planned with).
   */
  RangeTimer rangeTimer(PrintStream log) {
    return c.timer.equals("quick")
        ? RangeReport.defaultQuickTimer()
        : RangeReport.defaultJmhTimer(
            c.rangeKeys, log == null ? new PrintStream(OutputStream.nullOutputStream()) : log);
  }

  /** The planned seconds of the range section (0 when off, {@code NaN} for the quick timer). */
  double rangeSeconds() {
    return c.rangeKeys == 0
        ? 0
        : RangeReport.plannedSeconds(c.rangeKeys, c.rangeQueries, rangeTimer(null));
  }

  /** The rows of the run: one per kind and n, one per bits/key setting for kinds sized by it. */
  int rowCount(List<StructureKind> kinds) {
    int rows = 0;
    for (int n : c.ns) {
      for (StructureKind k : kinds) {
        rows += settings(k);
      }
    }
    return rows;
  }

  private int settings(StructureKind k) {
    return k.sizedByBitsPerKey() ? c.bitsPerKey.size() : 1;
  }

  /**
   * The planned duration: every row's forks by the timer's plan, times the rounds, plus the
   * report's own work ({@link #IN_PROCESS_SECONDS_PER_ROW} per row at 10^7 FPR queries, scaled by
   * {@code --fpr-queries}, and {@link #IN_PROCESS_SECONDS_FIXED}). {@code NaN} for a timer without
   * a plan.
   */
  double plannedSeconds(Timer t, List<StructureKind> kinds) {
    double perRow = IN_PROCESS_SECONDS_PER_ROW * Math.max(0.1, c.fprQueries / 1e7);
    return timedSeconds(t, kinds)
        + rowCount(kinds) * perRow
        + IN_PROCESS_SECONDS_FIXED
        + coldStartSeconds(kinds)
        + rangeSeconds();
  }

  private double timedSeconds(Timer t, List<StructureKind> kinds) {
    double timed = 0;
    for (int n : c.ns) {
      for (StructureKind k : kinds) {
        timed += settings(k) * c.rounds * t.plannedSeconds(k, n);
      }
    }
    return timed;
  }

  /** The cold-start section's filters: none with --no-cold-start. */
  List<String> coldFilters(List<StructureKind> kinds) {
    return c.noColdStart ? List.of() : ColdStart.filtersOf(kinds);
  }

  /** The cold-start section's keys per filter: the run's smallest n, at most 10^5. */
  int coldN() {
    int min = c.ns.stream().mapToInt(Integer::intValue).min().orElse(COLD_START_MAX_N);
    return Math.min(min, COLD_START_MAX_N);
  }

  /** The planned seconds of the cold-start section: its child JVMs. */
  double coldStartSeconds(List<StructureKind> kinds) {
    return 2.0 * c.coldSamples * coldFilters(kinds).size() * COLD_START_SECONDS_PER_JVM;
  }

  /** The run's time budget: {@link #BUDGET_SECONDS}, or {@link #BUDGET_ROOM} × a larger plan. */
  static double budget(double planned) {
    return Math.max(BUDGET_SECONDS, BUDGET_ROOM * planned);
  }

  /**
   * The flagged jobs the run's time budget leaves room to re-measure, lookups first (a flagged
   * lookup keeps a row out of every table and ratio, a flagged build only out of the build ratios),
   * each costing its flagged parts by the longer timer's plan, with the work after the guard
   * (experiments, cold start, files) kept in reserve. A timer without a plan re-measures them all.
   */
  List<Timer.Job> withinBudget(
      List<Timer.Job> flagged,
      Timer longer,
      double elapsed,
      double planned,
      List<StructureKind> kinds) {
    List<Timer.Job> ordered = new ArrayList<>(flagged);
    ordered.sort(Comparator.comparing((Timer.Job j) -> j.row().unsteady == null));
    double range = rangeSeconds();
    double at =
        elapsed
            + IN_PROCESS_SECONDS_FIXED
            + coldStartSeconds(kinds)
            + (Double.isNaN(range) ? 0 : range);
    List<Timer.Job> fit = new ArrayList<>();
    for (Timer.Job j : ordered) {
      Row r = j.row();
      double cost = longer.plannedSeconds(r.n, r.unsteady != null, r.buildUnsteady != null);
      if (Double.isNaN(cost) || Double.isNaN(planned)) {
        fit.add(j);
      } else if (at + cost <= budget(planned)) {
        fit.add(j);
        at += cost;
      }
    }
    return fit;
  }

  /** The plan printed before the run: rows, forks, and the planned minutes with their parts. */
  String describe(List<StructureKind> kinds, Timer t, double planned) {
    int rowCount = rowCount(kinds);
    String forks =
        c.timer.equals("jmh")
            ? " = " + 3L * rowCount * c.rounds + " JMH forks (positive, negative, build)"
            : " (in-process timer)";
    String head =
        String.format(
            Locale.ROOT,
            "sieve report: %d structure(s), n = %s: %d rows × %d round(s)%s",
            kinds.size(),
            RunDescription.join(c.ns),
            rowCount,
            c.rounds,
            forks);
    if (Double.isNaN(planned)) {
      return head;
    }
    return head
        + String.format(
            Locale.ROOT,
            "%nplanned: about %.1f minutes (per row and round: 2 query forks × (%.1f s start-up"
                + " + %d×%d ms warm-up, %d× without a SIMD path, + %d×%d ms measured) + 1 build"
                + " fork; plus about %.0f s in this JVM for FPR, sizes and experiments, %.0f s for"
                + " %d cold-start JVMs and %s; flagged rows re-measured longer on top)",
            planned / 60,
            JmhTimer.FORK_START_SECONDS,
            c.warmup,
            c.warmupMillis,
            c.scalarWarmup,
            c.iterations,
            c.iterationMillis,
            planned - timedSeconds(t, kinds) - coldStartSeconds(kinds) - rangeSeconds(),
            coldStartSeconds(kinds),
            2 * c.coldSamples * coldFilters(kinds).size(),
            c.rangeKeys == 0
                ? "no range section (--range-keys 0)"
                : String.format(
                    Locale.ROOT,
                    "%.0f s for the range section at n = %s (%d FPR cells of %,d ranges, 2 JMH"
                        + " forks)",
                    rangeSeconds(),
                    Names.nLabel(c.rangeKeys),
                    RangeReport.LENGTHS.length * RangeTimer.WORKLOADS,
                    c.rangeQueries));
  }
}
