package dev.sieve.report;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes report.md, report.html, results.json and the plots from one run's figures. The report
 * reads top-down: a short summary and the side-by-side table first, then the hot-path guard, every
 * row's figures, the experiments and the plots. Each section is its own class ({@link
 * SummarySection}, {@link SideBySideSection}, {@link GuardSection}, {@link EveryRowSection}, {@link
 * ExperimentsSection}, {@link ColdStartSection}, {@link RangeSection}) writing {@link Doc} blocks;
 * this class puts them in order.
 */
public final class ReportWriter {
  private ReportWriter() {}

  /**
   * How the run was made.
   *
   * @param machine CPU, cores, caches, memory, OS in one line
   * @param jdk the Java runtime (version, VM, vendor)
   * @param simdPath whether the blocked Bloom filter's SIMD path ran
   *     (BlockedBloomFilter.usesVectorProbe())
   * @param loadAverageStart the one-minute load average when the run started ({@code NaN} unknown)
   * @param loadAverageEnd the same when the measurements ended
   * @param baseline the --baseline file, or {@code null}
   * @param seconds wall-clock time of the run up to writing the report
   * @param plannedSeconds the duration the plan predicted, printed at the start
   * @param otherCores the cores other processes kept busy on average while the report measured
   *     ({@link MachineInfo#otherCores}; {@code NaN} unknown)
   */
  public record Meta(
      String machine,
      String cpu,
      int cores,
      String caches,
      String jdk,
      boolean simdPath,
      double loadAverageStart,
      double loadAverageEnd,
      String jvm,
      String date,
      String command,
      String timer,
      int rounds,
      long fprQueries,
      long seed,
      List<Integer> n,
      List<Double> bitsPerKey,
      List<String> structures,
      String baseline,
      double seconds,
      double plannedSeconds,
      double otherCores) {

    /**
     * Whether other processes kept more than half the cores busy while the report measured; where
     * that is unknown, whether the load average at the start or the end exceeded half the cores
     * (which also counts the report's own forks, and a build just before it).
     */
    public boolean loaded() {
      double half = cores / 2.0;
      if (!Double.isNaN(otherCores)) {
        return otherCores > half;
      }
      return loadAverageStart > half || loadAverageEnd > half;
    }
  }

  /**
   * Everything one run produced.
   *
   * @param guard the hot-path guard against --baseline, {@code null} without one
   * @param coldStart the cold-start section, {@code null} when not measured (--no-cold-start)
   * @param range the range section, {@code null} when not measured (--range-keys 0)
   */
  public record Run(
      Meta meta,
      List<Row> rows,
      List<Guard.Entry> guard,
      ExperimentResults experiments,
      ColdStart.Section coldStart,
      RangeFigures.Section range) {

    /** A run without the range section. */
    public Run(
        Meta meta,
        List<Row> rows,
        List<Guard.Entry> guard,
        ExperimentResults experiments,
        ColdStart.Section coldStart) {
      this(meta, rows, guard, experiments, coldStart, null);
    }

    /** A run without the cold-start section. */
    public Run(Meta meta, List<Row> rows, List<Guard.Entry> guard, ExperimentResults experiments) {
      this(meta, rows, guard, experiments, null, null);
    }

    /** The FPR sweep's points. */
    public List<Experiments.SweepPoint> sweep() {
      return experiments.fprSweep();
    }
  }

  /**
   * {@code results.json}: the component names are its keys.
   *
   * @param guard {@code null} without a baseline
   * @param coldStart {@code null} when not measured
   * @param range the range section's cells, {@code null} when not measured
   */
  public record Results(
      Meta meta,
      List<Row.Result> rows,
      List<Guard.Entry> guard,
      ExperimentResults experiments,
      ColdStart.Section coldStart,
      RangeFigures.Result range) {}

  /** The ratio figures of a row: to the raw random read of the same n and to the best peer. */
  public record Ratios(
      double positiveOverRawRead,
      double negativeOverRawRead,
      double positiveOverBestPeer,
      double negativeOverBestPeer,
      double buildOverBestPeer,
      double overheadOverBestPeer) {}

  /** Writes the report into {@code dir}. */
  public static void write(File dir, Run run) throws IOException {
    File plots = new File(dir, "plots");
    if (!plots.isDirectory() && !plots.mkdirs()) {
      throw new IOException("cannot create " + plots);
    }
    Charts.fprVsBitsPerKey(new File(plots, "fpr-vs-bits-per-key.png"), run.sweep(), run.rows());
    LookupCharts.lookupTimes(plots, run.rows());
    Charts.overheadOverFloor(new File(plots, "bits-over-floor.png"), run.rows());
    if (run.range() != null) {
      RangeCharts.write(plots, run.range());
    }

    Doc doc = document(run);
    Files.writeString(new File(dir, "report.md").toPath(), doc.markdown(), StandardCharsets.UTF_8);
    Files.writeString(
        new File(dir, "report.html").toPath(), doc.html("Sieve report"), StandardCharsets.UTF_8);

    RowRatios ratios = new RowRatios(run.rows());
    List<Row.Result> rows = new ArrayList<>();
    for (Row r : run.rows()) {
      rows.add(r.result(ratios.of(r)));
    }
    Results json =
        new Results(
            run.meta(),
            rows,
            run.guard(),
            run.experiments(),
            run.coldStart(),
            run.range() == null ? null : run.range().result());
    Files.writeString(
        new File(dir, "results.json").toPath(), Json.write(json), StandardCharsets.UTF_8);
  }

  /**
   * The ratio figures of {@code r} within {@code rows}; {@code NaN} wherever {@code r} or the row
   * it is divided by is flagged by the steady-state guard (no ratio from a flagged row).
   */
  static Ratios ratios(Row r, List<Row> rows) {
    return new RowRatios(rows).of(r);
  }

  /** The text printed on stdout at the end of a run ({@link ConsoleSummary}). */
  public static String consoleSummary(Run run, File dir) {
    return ConsoleSummary.render(run, dir);
  }

  /** The report's sections in reading order. */
  static Doc document(Run run) {
    Doc doc = new Doc();
    doc.heading(
        1, "Sieve report: Sieve's filters side by side with the peers, theory and the limit");
    doc.para(String.join("  \n", RunHeader.lines(run.meta())));
    SummarySection.write(doc, run);
    SideBySideSection.write(doc, run);
    RunHeader.method(doc, run.meta());
    if (run.guard() != null) {
      GuardSection.write(doc, run);
    }
    EveryRowSection.write(doc, run);
    ExperimentsSection.write(doc, run);
    if (run.coldStart() != null) {
      ColdStartSection.write(doc, run.coldStart());
    }
    if (run.range() != null) {
      RangeSection.write(doc, run.range(), "plots/");
    }
    doc.heading(2, "Plots");
    for (LookupCharts.Plot p : LookupCharts.lookupPlots(run.rows())) {
      doc.image(p.alt(), "plots/" + p.file());
    }
    doc.image("FPR vs bits/key", "plots/fpr-vs-bits-per-key.png");
    doc.image("bits/key over the floor", "plots/bits-over-floor.png");
    return doc;
  }
}
