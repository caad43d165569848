package dev.sieve.bench.report;

import static dev.sieve.bench.report.Cells.num;

import dev.sieve.bench.report.ReportWriter.Run;
import java.util.ArrayList;
import java.util.List;

/** The project targets (primary, then secondary) and the closing note on the misses. */
final class TargetsSection {
  private TargetsSection() {}

  /** The primary targets, the secondary ones, and the closing note. */
  static void write(Doc doc, Run run) {
    doc.heading(2, "Project targets (issue 11), each at the n it is stated for");
    doc.para(
        "The project's own goals, by the ids issue 11 gave them (also in results.json). Stated"
            + " for one `./sieve report --n 1000000,10000000` run on a quiet machine; NOT RUN"
            + " where this run lacks the n or a structure a target needs (`--filters full` or"
            + " `all` has more of them); EXCLUDED where a row it needs is not at steady state."
            + " The value is the largest of the ratios the target names (every one must"
            + " pass). G1-G5 are issue 25's range-filter targets, at the range section's n"
            + " (G4 at 10^7: `--range-keys 10000000`); a miss whose cause is Grafite's own bound"
            + " says so in its detail.");
    targetTable(doc, run.checks().stream().filter(Targets.Check::primary).toList());
    List<Targets.Check> older = run.checks().stream().filter(c -> !c.primary()).toList();
    if (!older.isEmpty()) {
      doc.heading(3, "Secondary: the older targets that still apply, at the run's largest n");
      targetTable(doc, older);
    }
    doc.heading(2, "Closing note");
    List<String> misses = new ArrayList<>();
    List<String> notRun = new ArrayList<>();
    for (Targets.Check c : run.checks()) {
      if (!c.primary()) {
        continue;
      }
      if (c.status() == Targets.Status.MISS) {
        misses.add(
            c.id() + " at " + c.at() + " (" + num(c.value(), 3) + " > " + num(c.limit(), 3) + ")");
      } else if (c.status() == Targets.Status.NOT_RUN || c.status() == Targets.Status.EXCLUDED) {
        notRun.add(c.id() + ": " + c.detail());
      }
    }
    doc.para(
        "Missed in this run: "
            + (misses.isEmpty() ? "none" : String.join("; ", misses))
            + ". Not run or excluded: "
            + (notRun.isEmpty() ? "none" : String.join("; ", notRun))
            + ". Why each miss happens and what would close it: docs/notes.md.");
  }

  private static void targetTable(Doc doc, List<Targets.Check> checks) {
    List<List<String>> t = new ArrayList<>();
    for (Targets.Check c : checks) {
      t.add(
          List.of(
              c.id(),
              c.target(),
              c.at(),
              "**" + c.status().label() + "**",
              num(c.value(), 3),
              num(c.limit(), 3),
              c.detail()));
    }
    doc.table(List.of("id", "target", "stated at", "status", "measured", "limit", "detail"), t);
  }
}
