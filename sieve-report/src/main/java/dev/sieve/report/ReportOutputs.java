package dev.sieve.report;

import dev.sieve.console.ProgressBar;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The run's files and its stdout: report/ ({@link ReportWriter}), the results page ({@link
 * ResultsPage}), the console summary, and the growth section where asked for.
 */
final class ReportOutputs {
  private ReportOutputs() {}

  static void write(ReportCommand c, ReportWriter.Run run, ProgressBar bar) throws Exception {
    ReportWriter.write(c.out, run);
    Path dir = c.resultsDir != null ? c.resultsDir.toPath() : ResultsPage.defaultDir();
    Path page = ResultsPage.write(dir, run, c.typedArguments());
    bar.finish("done: " + new File(c.out, "report.md"));
    List<String> lines = new ArrayList<>();
    ConsoleSummary.wrap(lines, "Results page (machine, command, tables): " + page, "", "  ");
    c.stdout().print(ReportWriter.consoleSummary(run, c.out));
    lines.forEach(c.stdout()::println);
    c.stdout().flush();
    if (c.growthMaxN > 0) {
      long queries = Math.min(c.fprQueries, 1_000_000); // per checkpoint, about 60 of them
      Path growth = new File(c.out, "growth").toPath();
      GrowthOutput.write(
          growth,
          GrowthReport.measureAll(
              0.01, 1_000, c.growthMaxN, queries, GrowthReport.defaultHints(c.growthMaxN)),
          1_000,
          c.growthMaxN,
          "./sieve report " + String.join(" ", c.typedArguments()));
      GrowthOperationsSection.run(growth, List.of(0.01), c.growthMaxN, f -> queries);
      if (c.growthTimings) {
        GrowthTimingsRun.run(
            growth, List.of(0.01), c.growthMaxN, GrowthTimingsRun.Settings.standard());
      }
    }
  }
}
