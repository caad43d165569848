package dev.sieve.report;

import static dev.sieve.report.Cells.num;
import static dev.sieve.report.Cells.pct;
import static dev.sieve.report.Cells.str;

import dev.sieve.report.ReportWriter.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The experiments behind docs/notes.md (Q1 to Q5, blocked Bloom against theory) and the FPR sweep.
 */
final class ExperimentsSection {
  private ExperimentsSection() {}

  /**
   * Each experiment the run measured, as a heading and a table; the ones it skipped are left out.
   */
  static void write(Doc doc, Run run) {
    ExperimentResults ex = run.experiments();
    if (ex.blockedAgainstTheory() != null) {
      Experiments.BlockedAgainstTheory m = ex.blockedAgainstTheory();
      doc.heading(
          2,
          "Blocked Bloom: measured FPR/theory next to CacheLocalFpRate at the measured keys-per-block mean");
      doc.table(
          List.of(
              "n",
              "bits/key",
              "k",
              "keys/block mean",
              "variance (Poisson: = mean)",
              "measured FPR",
              "standard",
              "CacheLocalFpRate",
              "exact Poisson",
              "measured ÷ standard",
              "CacheLocal ÷ standard",
              "measured ÷ CacheLocal"),
          List.of(
              List.of(
                  str(m.n()),
                  num(m.bitsPerKey(), 2),
                  str(m.k()),
                  num(m.keysPerBlockMean(), 2),
                  num(m.keysPerBlockVariance(), 2),
                  pct(m.fprMeasured()) + " [" + pct(m.fprLow95()) + ", " + pct(m.fprHigh95()) + "]",
                  pct(m.fprStandard()),
                  pct(m.fprCacheLocal()),
                  pct(m.fprPoisson()),
                  num(m.ratioMeasuredOverStandard(), 3),
                  num(m.ratioCacheLocalOverStandard(), 3),
                  num(m.ratioMeasuredOverCacheLocal(), 3))));
    }
    experimentTable(
        doc,
        "Q1: fraction of set bits and FPR against k (standard Bloom, 10 bits/key)",
        List.of(
            "k", "fractionSetMeasured", "fractionSetModel", "fprMeasured", "fprModel", "optimalK"),
        ex.setBits(),
        s ->
            List.of(
                s.k(),
                s.fractionSetMeasured(),
                s.fractionSetModel(),
                s.fprMeasured(),
                s.fprModel(),
                s.optimalK()));
    if (ex.blockedSetBits() != null) {
      Experiments.BlockedSetBits bs = ex.blockedSetBits();
      doc.para("Blocked Bloom at its own k:");
      List<String> cols = List.of("bitsPerKey", "k", "fractionSetMeasured", "fractionSetModel");
      List<Object> vals =
          List.of(bs.bitsPerKey(), bs.k(), bs.fractionSetMeasured(), bs.fractionSetModel());
      doc.table(cols, List.of(cells(cols, vals)));
    }
    experimentTable(
        doc,
        "Q2: FPR when the block index reuses the probe bits",
        List.of(
            "blockIndexFrom",
            "blockBits",
            "k",
            "fprMeasured",
            "fprLow95",
            "fprHigh95",
            "fprModelCacheLocal",
            "measuredOverModel"),
        ex.blockIndexReuse(),
        r ->
            List.of(
                r.blockIndexFrom(),
                r.blockBits(),
                r.k(),
                r.fprMeasured(),
                r.fprLow95(),
                r.fprHigh95(),
                r.fprModelCacheLocal(),
                r.measuredOverModel()));
    experimentTable(
        doc,
        "Q3: FPR at 64/128/256/512-bit blocks against the models",
        List.of(
            "blockBits",
            "k",
            "keysPerBlockMean",
            "fprMeasured",
            "fprCacheLocal",
            "fprPoisson",
            "fprStandard",
            "taxMeasured",
            "taxCacheLocal"),
        ex.blockSizes(),
        r ->
            List.of(
                r.blockBits(),
                r.k(),
                r.keysPerBlockMean(),
                r.fprMeasured(),
                r.fprCacheLocal(),
                r.fprPoisson(),
                r.fprStandard(),
                r.taxMeasured(),
                r.taxCacheLocal()));
    experimentTable(
        doc,
        "Q4: build failures and retries (failures = builds whose first attempt failed)",
        List.of("name", "n", "builds", "failures", "failureRate", "retries", "detail"),
        ex.buildRetries(),
        r ->
            List.of(
                r.name(),
                r.n(),
                r.builds(),
                r.failures(),
                r.failureRate(),
                r.retries(),
                r.detail()));
    experimentTable(
        doc,
        "Q5: per-level policy (FilterPolicy.ribbon bloomBeforeLevel) priced with measured ns",
        List.of(
            "bloomBeforeLevel",
            "keys",
            "filterBytes",
            "bitsPerKey",
            "memoryVsAllBloom",
            "falsePositiveProbes",
            "buildCpuSeconds",
            "queryCpuSeconds"),
        ex.lsmPolicy(),
        r ->
            List.of(
                r.bloomBeforeLevel(),
                r.keys(),
                r.filterBytes(),
                r.bitsPerKey(),
                r.memoryVsAllBloom(),
                r.falsePositiveProbes(),
                r.buildCpuSeconds(),
                r.queryCpuSeconds()));
    if (ex.lsmPolicyNote() != null) {
      doc.para(ex.lsmPolicyNote());
    }
    if (!run.sweep().isEmpty()) {
      doc.heading(2, "FPR against bits/key (the plot's measured points)");
      List<List<String>> lines = new ArrayList<>();
      for (Experiments.SweepPoint p : run.sweep()) {
        lines.add(
            List.of(
                p.name(),
                num(p.bitsPerKeySetting(), 1),
                num(p.bitsPerKey(), 3),
                pct(p.fprMeasured()) + " [" + pct(p.fprLow95()) + ", " + pct(p.fprHigh95()) + "]",
                pct(p.fprModel())));
      }
      doc.table(
          List.of("structure", "bits/key asked", "bits/key", "measured FPR [95%]", "model FPR"),
          lines);
    }
  }

  /** One experiment's table: a row per record, {@code values} giving its cells in column order. */
  private static <T> void experimentTable(
      Doc doc,
      String title,
      List<String> cols,
      List<T> records,
      Function<T, List<? extends Object>> values) {
    if (records == null || records.isEmpty()) {
      return;
    }
    doc.heading(2, title);
    List<List<String>> rows = new ArrayList<>();
    for (T r : records) {
      rows.add(cells(cols, values.apply(r)));
    }
    doc.table(cols, rows);
  }

  private static List<String> cells(List<String> cols, List<? extends Object> values) {
    List<String> row = new ArrayList<>();
    for (int i = 0; i < cols.size(); i++) {
      row.add(cell(cols.get(i), values.get(i)));
    }
    return row;
  }

  /** A table cell for an experiment figure: FPRs as percentages, large numbers in short form. */
  private static String cell(String column, Object v) {
    return column.toLowerCase(Locale.ROOT).startsWith("fpr")
        ? pct(v)
        : v instanceof Double d
            ? (Math.abs(d) >= 1e5 ? String.format(Locale.ROOT, "%.4g", d) : num(d, 4))
            : v instanceof Long l ? String.format(Locale.ROOT, "%,d", l) : str(v);
  }
}
