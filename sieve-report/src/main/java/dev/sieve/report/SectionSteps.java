package dev.sieve.report;

import dev.sieve.bench.StructureKind;
import dev.sieve.console.ProgressBar;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/** The report's two measured sections after the rows: the cold start and the range filters. */
final class SectionSteps {
  private final ReportCommand c;
  private final ReportPlan plan;
  private final ProgressBar bar;

  SectionSteps(ReportCommand c, ReportPlan plan, ProgressBar bar) {
    this.c = c;
    this.plan = plan;
    this.bar = bar;
  }

  /** Fresh JVMs timing each filter's first lookups; {@code null} with --no-cold-start. */
  ColdStart.Section coldStart(List<StructureKind> kinds) throws Exception {
    ColdStart.Section cold = null;
    List<String> filters = plan.coldFilters(kinds);
    if (!filters.isEmpty()) {
      int n = plan.coldN();
      bar.step(
          "cold start: "
              + 2 * c.coldSamples * filters.size()
              + " fresh JVMs, n="
              + n
              + " (--no-cold-start to skip)");
      cold =
          new ColdStart.Section(
              n,
              c.coldSamples,
              ReportPlan.COLD_START_HEAP,
              Arrays.stream(ColdStart.REPORT_CHECKPOINTS).boxed().toList(),
              ColdStart.measure(
                  ColdStart.currentJava(),
                  ReportPlan.COLD_START_HEAP,
                  n,
                  c.coldSamples,
                  filters,
                  ColdStart.REPORT_CHECKPOINTS));
    }
    bar.advance();
    return cold;
  }

  /**
   * The range section, {@code null} with --range-keys 0; a flagged filter's cells are re-measured
   * only while the run's budget holds room.
   *
   * @param start {@link System#nanoTime} at the run's start
   * @param planned the run's planned seconds
   * @param log JMH's output
   */
  RangeFigures.Section range(long start, double planned, PrintStream log) throws Exception {
    RangeFigures.Section range = null;
    if (c.rangeKeys > 0) {
      bar.step(
          "range filters: n="
              + Names.nLabel(c.rangeKeys)
              + ", "
              + c.rangeQueries
              + " empty ranges per cell, then ns per range (--range-keys 0 to skip)");
      double elapsed = (System.nanoTime() - start) / 1e9;
      RangeTimer rt = plan.rangeTimer(log);
      range = RangeReport.measure(c.rangeKeys, c.rangeQueries, c.rangeBits, c.seed);
      double again = RangeReport.plannedRemeasureSeconds(c.rangeKeys, rt);
      boolean room =
          Double.isNaN(again)
              || Double.isNaN(planned)
              || elapsed + plan.rangeSeconds() + again + ReportPlan.IN_PROCESS_SECONDS_FIXED
                  <= ReportPlan.budget(planned);
      range = RangeReport.timed(range, rt, room);
    }
    bar.advance();
    return range;
  }
}
