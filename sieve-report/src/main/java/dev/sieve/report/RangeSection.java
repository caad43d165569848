package dev.sieve.report;

import dev.sieve.bench.RangeCells;
import dev.sieve.bench.RangeCells.Structure;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's range section: how it was measured, the pick, one table line per cell (FPR with its
 * 99.9% Wilson interval, Grafite's bound, bits per key and ns per range of both filters) and the
 * two plots ({@link RangeCharts}).
 */
final class RangeSection {
  private RangeSection() {}

  /**
   * Writes the section.
   *
   * @param plotDir where the plots lie relative to the document ("plots/" in the report, "" alone)
   */
  static void write(Doc doc, RangeFigures.Section s, String plotDir) {
    doc.heading(2, "Range filters, n = " + Names.nLabel(s.n()));
    double z = GrowthReport.Z999;
    double half = z * Math.sqrt(0.01 * 0.99 / s.queries());
    doc.para(
        String.format(
            Locale.ROOT,
            "%,d uniform 64-bit keys (seed %d). Grafite at %s bits/key, built for each range"
                + " length ℓ (its bound ℓ/2^(B−2)); the prefix-Bloom baseline (Rosetta-style"
                + " dyadic prefixes in one blocked Bloom filter) given Grafite's memory, select"
                + " samples included (at 2^20 its 21 levels need more: its own bits/key are"
                + " shown). %,d empty ranges per cell (checked against the sorted keys, so every"
                + " \"maybe\" is a false positive); FPR with its 99.9%% Wilson interval (at 1%%"
                + " about ±%s points). Uniform: lo uniform; correlated: lo = key + 1 + gap, gap in"
                + " [0, %d), ranges that start just after a key. Query time: mean ns per range ±"
                + " 99.9%% half-width, %s; a cell whose half-width exceeds its mean is re-measured"
                + " once with twice the iterations and, if still so, marked **(!)** and left out"
                + " of the pick.",
            s.n(),
            s.seed(),
            Cells.num(s.bitsPerKey(), 1),
            s.queries(),
            Cells.num(100 * half, 2),
            RangeCells.CORRELATED_GAPS,
            s.timer()));
    doc.bullets(List.of(RangeAdvice.advice(s) + "."));
    List<List<String>> lines = new ArrayList<>();
    for (RangeFigures.Point p : s.points()) {
      lines.add(
          List.of(
              RangeFigures.lengthName(p.length()),
              p.workload().name().toLowerCase(Locale.ROOT),
              Cells.pct(p.grafiteRate()),
              "[" + Cells.pct(p.grafiteLower()) + ", " + Cells.pct(p.grafiteUpper()) + "]",
              Cells.pct(p.grafiteBound()),
              p.withinBound() ? "yes" : "**NO**",
              Cells.num(p.grafiteBits(), 2),
              time(p.grafiteTime()),
              Cells.pct(p.prefixRate()),
              "[" + Cells.pct(p.prefixLower()) + ", " + Cells.pct(p.prefixUpper()) + "]",
              Cells.num(p.prefixBits(), 2),
              time(p.prefixTime())));
    }
    doc.table(
        List.of(
            "ℓ",
            "workload",
            "Grafite FPR",
            "99.9% interval",
            "bound",
            "within",
            "Grafite bits/key",
            "Grafite ns/range",
            "prefix-Bloom FPR",
            "99.9% interval",
            "prefix-Bloom bits/key",
            "prefix-Bloom ns/range"),
        lines);
    long positives = s.points().stream().mapToLong(RangeFigures.Point::positives).sum();
    doc.para(
        s.falseNegatives() == 0
            ? String.format(
                Locale.ROOT,
                "No false negative: %,d ranges that hold a key (%,d per cell, the key at a random"
                    + " place in the range), each asked of both filters, all answered \"maybe\".",
                positives,
                s.points().isEmpty() ? 0 : s.points().get(0).positives())
            : "**CONTRACT VIOLATION**: "
                + s.falseNegatives()
                + " range(s) holding a key answered empty.");
    List<String> unsteady = s.unsteady();
    if (!unsteady.isEmpty()) {
      doc.para(
          "**Not at steady state** after one longer re-measurement: "
              + String.join("; ", unsteady)
              + ".");
    }
    doc.image("range FPR against range length, per workload", plotDir + RangeCharts.FPR_PLOT);
    doc.image("ns per range against range length", plotDir + RangeCharts.TIME_PLOT);
  }

  private static String time(RangeFigures.Time t) {
    if (!t.timed()) {
      return "—";
    }
    return Cells.pm(t.ns(), t.error()) + (t.steady() ? "" : " **(!)**");
  }

  /** The section's label of a structure in the plots and tables. */
  static String label(Structure s) {
    return s == Structure.GRAFITE ? "Grafite" : "prefix-Bloom";
  }
}
