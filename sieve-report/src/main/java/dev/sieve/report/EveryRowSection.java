package dev.sieve.report;

import static dev.sieve.report.Cells.flagMark;
import static dev.sieve.report.Cells.num;
import static dev.sieve.report.Cells.pct;
import static dev.sieve.report.Cells.pm;

import dev.sieve.bench.Family;
import dev.sieve.report.ReportWriter.Ratios;
import dev.sieve.report.ReportWriter.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Every row's figures at one n, and its ratios to the raw random read and to the best peer. */
final class EveryRowSection {
  private EveryRowSection() {}

  /** The two tables of every n of the run. */
  static void write(Doc doc, Run run) {
    RowRatios ratios = new RowRatios(run.rows());
    for (int n : SideBySideSection.ns(run.rows())) {
      write(doc, run, ratios, n);
    }
  }

  private static void write(Doc doc, Run run, RowRatios ratios, int n) {
    doc.heading(2, "Every row, n = " + Names.nLabel(n));
    List<List<String>> main = new ArrayList<>();
    List<List<String>> ratio = new ArrayList<>();
    for (Row r : run.rows()) {
      if (r.n != n) {
        continue;
      }
      String name =
          r.name
              + (isSized(r) && countByName(run.rows(), r) > 1
                  ? " @" + num(r.bitsPerKeySetting, 1)
                  : "");
      Ratios x = ratios.of(r);
      main.add(
          List.of(
              name + flagMark(r),
              r.family.label(),
              num(r.bitsPerKey(), 2) + (r.sizeIsMeasuredHeap ? " (heap)" : ""),
              String.format(Locale.ROOT, "%,d", r.sizeBytes()),
              pm(r.buildNsPerKey, r.buildNsPerKeyError) + (r.buildExcluded() ? " **(!)**" : ""),
              pm(r.positiveNs, r.positiveNsError),
              pm(r.negativeNs, r.negativeNsError),
              num(x.positiveOverRawRead(), 2),
              num(x.negativeOverRawRead(), 2),
              num(100 * r.negative.roundSpread(), 1),
              r.hasFpr()
                  ? pct(r.measuredFpr())
                      + " ["
                      + pct(r.measuredFprLow())
                      + ", "
                      + pct(r.measuredFprHigh())
                      + "]"
                  : "—",
              r.family == Family.LIMIT ? "—" : pct(r.modelFpr),
              num(r.measuredFpr() / r.modelFpr, 3),
              num(r.floorBitsPerKey(), 2),
              num(r.overheadMeasured(), 3)));
      ratio.add(
          List.of(
              name,
              num(x.positiveOverRawRead(), 2),
              num(x.negativeOverRawRead(), 2),
              num(x.positiveOverBestPeer(), 2),
              num(x.negativeOverBestPeer(), 2),
              num(x.buildOverBestPeer(), 2),
              num(x.overheadOverBestPeer(), 3),
              num(r.buildMemoryRatio(), 2),
              r.objectCount < 0 ? "—" : Long.toString(r.objectCount),
              r.falseNegatives < 0 ? "—" : Long.toString(r.falseNegatives)));
    }
    doc.table(
        List.of(
            "structure",
            "family",
            "bits/key",
            "bytes",
            "build ns/key",
            "pos ns/op",
            "neg ns/op",
            "pos ÷ raw read",
            "neg ÷ raw read",
            "neg round spread %",
            "measured FPR [95%]",
            "model FPR",
            "FPR/model",
            "log2(1/FPR)",
            "bits/key ÷ floor"),
        main);
    doc.para(
        "Times: mean ± 99.9% CI half-width over every round; round spread: (max - min) of the"
            + " rounds' means over the mean. Ratios at n = "
            + Names.nLabel(n)
            + ": query time over one raw random 64-bit read from a `long[]` of the blocked Bloom"
            + " filter's size (raw-read-1x), and each figure over the best peer's (Guava,"
            + " FastFilter; lowest is best). Build memory: bytes allocated by the build over (final"
            + " size + 8 bytes per input key). False negatives are counted through the path the row"
            + " is timed on.");
    doc.table(
        List.of(
            "structure",
            "pos ÷ raw read",
            "neg ÷ raw read",
            "pos ÷ best peer",
            "neg ÷ best peer",
            "build ÷ best peer",
            "overhead ÷ best peer",
            "build alloc ÷ (size+keys)",
            "objects",
            "false negatives"),
        ratio);
  }

  private static long countByName(List<Row> rows, Row r) {
    return rows.stream().filter(o -> RowKey.of(o).equals(RowKey.of(r))).count();
  }

  private static boolean isSized(Row r) {
    return r.family == Family.SIEVE || r.family == Family.PEER;
  }
}
