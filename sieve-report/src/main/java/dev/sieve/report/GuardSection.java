package dev.sieve.report;

import static dev.sieve.report.Cells.num;
import static dev.sieve.report.Cells.pm;

import dev.sieve.report.ReportWriter.Run;
import java.util.ArrayList;
import java.util.List;

/** The hot-path guard's table: this run's figures against the --baseline run's. */
final class GuardSection {
  private GuardSection() {}

  /** The guard's heading and table (a run with --baseline only). */
  static void write(Doc doc, Run run) {
    doc.heading(
        2,
        "Hot-path guard: this run against "
            + run.meta().baseline()
            + " (flagged: more than "
            + Guard.THRESHOLD_PERCENT
            + "% slower)");
    if (run.guard().isEmpty()) {
      doc.para("No row of this run (name, n, bits/key) is in the baseline.");
      return;
    }
    List<List<String>> lines = new ArrayList<>();
    for (Guard.Entry e : run.guard()) {
      lines.add(
          List.of(
              e.name(),
              e.family().label(),
              Names.nLabel(e.n()),
              e.metric(),
              num(e.before(), 2),
              pm(e.now(), e.nowError()),
              num(e.ratio(), 3),
              e.verdict() == Guard.Verdict.SLOWER
                  ? "**" + e.verdict() + "**"
                  : e.verdict().label()));
    }
    doc.table(
        List.of("structure", "family", "n", "figure", "before", "now", "now ÷ before", "verdict"),
        lines);
  }
}
