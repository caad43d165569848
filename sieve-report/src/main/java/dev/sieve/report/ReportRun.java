package dev.sieve.report;

import dev.sieve.bench.StructureKind;
import dev.sieve.console.ProgressBar;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code sieve report} run, its jobs in order: the plan, the rows ({@link RowMeasurement}), the
 * experiments ({@link ExperimentsStep}), the cold-start and range sections ({@link SectionSteps}),
 * the guard against a baseline, and the files ({@link ReportOutputs}).
 */
final class ReportRun {
  private final ReportCommand c;
  private final PrintStream console;

  ReportRun(ReportCommand c) {
    this.c = c;
    this.console = c.console();
  }

  /** Runs the report; returns 0, 2 on a false negative, 3 when another JMH run holds its lock. */
  int run() throws Exception {
    long start = System.nanoTime();
    List<StructureKind> kinds = RowSets.select(c.filters);
    List<Guard.Baseline> before = c.baseline == null ? null : Guard.read(c.baseline.toPath());
    String heap = ReportArguments.forkHeap(c);
    ReportPlan plan = new ReportPlan(c);
    Timer planned = plan.timer(heap, null);
    double plannedSeconds = plan.plannedSeconds(planned, kinds);
    List<String> planLines = new ArrayList<>();
    for (String line : plan.describe(kinds, planned, plannedSeconds).split("\n")) {
      ConsoleSummary.wrap(planLines, line, "", "  ");
    }
    planLines.forEach(console::println);
    if (c.planOnly) {
      return 0;
    }
    Files.createDirectories(c.out.toPath());
    if (c.timer.equals("jmh")) {
      if (c.ignoreJmhLock) {
        System.setProperty("jmh.ignoreLock", "true");
      } else if (jmhLockHeld()) {
        console.println(
            "sieve report: another JMH run holds "
                + jmhLockFile()
                + " (timings would be shared-CPU noise); wait for it to finish, or pass"
                + " --ignore-jmh-lock");
        return 3;
      }
    }
    double loadStart = MachineInfo.loadAverage();
    MachineInfo.CpuTime cpuStart = MachineInfo.cpuTime();
    warmUpJol();
    File jmhLog = new File(c.out, "jmh.log");
    try (PrintStream log =
        new PrintStream(new FileOutputStream(jmhLog), true, StandardCharsets.UTF_8)) {
      Timer t = plan.timer(heap, log);
      // measure, rounds, experiments, cold start, range + writing
      int steps = plan.rowCount(kinds) * (1 + c.rounds) + 8;
      ProgressBar bar =
          ProgressBar.steps(console, steps, !c.noProgress && System.console() != null);
      RowMeasurement.Result measured =
          new RowMeasurement(c, plan, bar).measure(kinds, t, start, plannedSeconds);
      List<Row> rows = measured.rows();
      double loadEnd = MachineInfo.loadAverage();
      double otherCores = MachineInfo.otherCores(cpuStart, MachineInfo.cpuTime());
      ExperimentResults experiments = ExperimentsStep.run(c, kinds, rows, bar);
      SectionSteps sections = new SectionSteps(c, plan, bar);
      ColdStart.Section cold = sections.coldStart(kinds);
      RangeFigures.Section range = sections.range(start, plannedSeconds, log);
      List<Guard.Entry> guard = before == null ? null : Guard.compare(rows, before);
      bar.step("writing " + c.out);
      double seconds = (System.nanoTime() - start) / 1e9;
      ReportWriter.Meta meta =
          RunDescription.meta(c, t, kinds, seconds, plannedSeconds, loadStart, loadEnd, otherCores);
      ReportOutputs.write(
          c, new ReportWriter.Run(meta, rows, guard, experiments, cold, range), bar);
      if (!measured.flagged().isEmpty()) {
        console.println(
            "sieve report: "
                + measured.flagged().size()
                + " row(s) not at steady state after re-measuring: marked, no ratio from them");
      }
      boolean violation =
          rows.stream().anyMatch(r -> r.falseNegatives > 0)
              || (range != null && range.falseNegatives() > 0);
      return violation ? 2 : 0;
    }
  }

  private static File jmhLockFile() {
    return new File(System.getProperty("java.io.tmpdir"), "jmh.lock");
  }

  /** Whether another JMH process holds JMH's lock file (JMH takes an exclusive file lock). */
  static boolean jmhLockHeld() {
    File f = jmhLockFile();
    if (!f.exists()) {
      return false;
    }
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw");
        FileLock lock = raf.getChannel().tryLock()) {
      return lock == null;
    } catch (OverlappingFileLockException e) {
      return true;
    } catch (IOException e) {
      return false; // cannot tell: let JMH decide
    }
  }

  /** JOL prints a warning on first use; take it before the progress bar draws. */
  private static void warmUpJol() {
    PrintStream saved = System.out;
    try {
      System.setOut(new PrintStream(OutputStream.nullOutputStream()));
      Measure.objectCount(new long[1]);
    } finally {
      System.setOut(saved);
    }
  }
}
