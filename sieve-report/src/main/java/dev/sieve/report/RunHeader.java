package dev.sieve.report;

import static dev.sieve.report.Cells.num;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's opening lines about the machine and the run, and the paragraphs on how it measured.
 */
final class RunHeader {
  private RunHeader() {}

  /**
   * The header's lines: the machine (CPU model, cores, caches), the JDK and whether the SIMD path
   * ran, the load average at the start and the end (with a warning when it exceeded half the
   * cores), and the run itself (n, structures, rounds, duration against the plan).
   */
  static List<String> lines(ReportWriter.Meta meta) {
    List<String> lines = new ArrayList<>();
    lines.add(
        "Machine: " + meta.cpu() + ", " + meta.cores() + " cores; caches: " + meta.caches() + ".");
    lines.add(
        "JDK: "
            + meta.jdk()
            + "; SIMD path: "
            + (meta.simdPath()
                ? "ran (blocked Bloom probes on jdk.incubator.vector)."
                : "did not run (scalar probes; it needs --add-modules jdk.incubator.vector).")
            + "");
    lines.add(
        String.format(
            Locale.ROOT,
            "Load average: %s at the start, %s at the end, on %d cores%s.",
            num(meta.loadAverageStart(), 2),
            num(meta.loadAverageEnd(), 2),
            meta.cores(),
            Double.isNaN(meta.otherCores())
                ? ""
                : "; other processes kept "
                    + num(meta.otherCores(), 2)
                    + " cores busy on average while it measured"));
    if (meta.loaded()) {
      lines.add(
          String.format(
              Locale.ROOT,
              "WARNING: the load exceeded half the cores (%s): other processes shared the CPUs, so"
                  + " these times are noise, not figures; rerun on an idle machine.",
              Double.isNaN(meta.otherCores())
                  ? num(meta.cores() / 2.0, 1)
                  : "others used " + num(meta.otherCores(), 2) + " of " + meta.cores()));
    }
    List<String> nl = new ArrayList<>();
    meta.n().forEach(n -> nl.add(Names.nLabel(n)));
    lines.add(
        String.format(
            Locale.ROOT,
            "Run: n = %s, %d structures, %d round(s), %.1f minutes%s.",
            String.join(", ", nl),
            meta.structures().size(),
            meta.rounds(),
            meta.seconds() / 60,
            Double.isNaN(meta.plannedSeconds())
                ? ""
                : String.format(Locale.ROOT, " (planned %.1f)", meta.plannedSeconds() / 60)));
    return lines;
  }

  /** The run's machine, JVM, command and timing, then how the lookups and the FPR are measured. */
  static void method(Doc doc, ReportWriter.Meta meta) {
    doc.para(
        "**Machine:** "
            + meta.machine()
            + "  \n**JVM:** "
            + meta.jvm()
            + "  \n**When:** "
            + meta.date()
            + String.format(Locale.ROOT, " (%.1f minutes)", meta.seconds() / 60)
            + "  \n**Command:** `"
            + meta.command()
            + "`  \n**Timing:** "
            + meta.timer()
            + "; "
            + meta.rounds()
            + " round(s), the structures in a shuffled order per round (seed "
            + meta.seed()
            + ").");
    doc.para(
        "Query times are per lookup over a stream of independent lookups (throughput; memory"
            + " accesses may overlap), the same loop for every structure and for the raw random"
            + " read. **Keys:** random 64-bit, seed "
            + meta.seed()
            + "; absent keys are checked absent. **FPR:** 95% Wilson intervals. Numbers from a"
            + " shared or small machine are noisy; ratios within one run are the figures to read.");
  }
}
