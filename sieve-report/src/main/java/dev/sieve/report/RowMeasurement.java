package dev.sieve.report;

import dev.sieve.bench.StructureKind;
import dev.sieve.bench.Workload;
import dev.sieve.console.ProgressBar;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows' measurement: every structure built over each n's keys and measured in this JVM (FPR,
 * memory, the contract; {@link Measure}), then timed in shuffled rounds ({@link Rounds}), then the
 * rows not at steady state re-measured once, longer, as far as the run's budget allows ({@link
 * SteadyState}, {@link ReportPlan#withinBudget}).
 */
final class RowMeasurement {
  /**
   * The measured rows.
   *
   * @param rows every row, in the order measured
   * @param flagged the rows still not at steady state after the re-measurement
   */
  record Result(List<Row> rows, List<Row> flagged) {}

  private final ReportCommand c;
  private final ReportPlan plan;
  private final ProgressBar bar;

  RowMeasurement(ReportCommand c, ReportPlan plan, ProgressBar bar) {
    this.c = c;
    this.plan = plan;
    this.bar = bar;
  }

  /**
   * Measures {@code kinds} at every n.
   *
   * @param start {@link System#nanoTime} at the run's start, for the budget
   * @param planned the run's planned seconds
   */
  Result measure(List<StructureKind> kinds, Timer t, long start, double planned) throws Exception {
    List<Row> rows = new ArrayList<>();
    List<Timer.Job> jobs = new ArrayList<>();
    for (int n : c.ns) {
      bar.step("keys n=" + n);
      Workload workload = Workload.create(n, c.seed);
      for (StructureKind kind : kinds) {
        List<Double> settings =
            kind.sizedByBitsPerKey() ? c.bitsPerKey : List.of(c.bitsPerKey.get(0));
        for (double b : settings) {
          bar.step(
              kind.name()
                  + " n="
                  + n
                  + (kind.sizedByBitsPerKey() ? " b=" + b : "")
                  + ": FPR, memory, contract");
          Row row = Measure.measure(kind, workload, b, c.fprQueries);
          rows.add(row);
          jobs.add(new Timer.Job(kind, row));
          bar.advance();
        }
      }
    }
    Rounds.run(
        t,
        jobs,
        c.rounds,
        c.seed,
        (round, of, job) -> {
          bar.advance();
          bar.step(
              "round "
                  + (round + 1)
                  + "/"
                  + of
                  + ": "
                  + job.kind().name()
                  + " n="
                  + job.row().n
                  + " ("
                  + c.timer
                  + ")");
        });
    Timer longer = t.longer();
    List<Row> flagged =
        SteadyState.guard(
            jobs,
            again -> {
              double elapsed = (System.nanoTime() - start) / 1e9;
              List<Timer.Job> fit = plan.withinBudget(again, longer, elapsed, planned, kinds);
              List<String> names = new ArrayList<>();
              fit.forEach(j -> names.add(j.kind().name() + " n=" + j.row().n));
              bar.step("not at steady state, re-measuring longer: " + String.join(", ", names));
              Rounds.remeasure(
                  longer,
                  fit,
                  c.seed,
                  (round, of, job) ->
                      bar.step("re-measuring " + job.kind().name() + " n=" + job.row().n));
              return fit;
            });
    return new Result(rows, flagged);
  }
}
